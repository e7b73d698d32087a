// Jobs travel to the LatestWorker as queued functors and come back the same
// way. Tickets let the worker skip a job that a newer request has made
// pointless before dot starts on it.

#include "graph/graphviz_layouter.h"

#include "graph/graphviz_run.h"

#include <utility>

namespace stagecraft::views {

using graphview::LayoutInput;
using graphview::LayoutKey;
using graphview::LayoutPtr;

GraphvizLayouter::GraphvizLayouter(QObject* parent, size_t cacheCapacity)
    : QObject(parent)
    , cache_(cacheCapacity) {}

GraphvizLayouter::~GraphvizLayouter() {
    worker_.stop(); // its jobs call back into this object
}

void GraphvizLayouter::request(const LayoutKey& key, LayoutInput input) {
    quint64 ticket = worker_.nextTicket();
    if (LayoutPtr layout = cache_.find(key)) {
        emit layoutReady(key, layout);
        return;
    }
    worker_.post([this, ticket, key, input = std::move(input)] {
        if (!worker_.isCurrent(ticket))
            return;
        Expected<LayoutPtr> result = graphview::runDotLayout(input);
        QMetaObject::invokeMethod(
            this, [this, key, result] { finish(key, result); }, Qt::QueuedConnection);
    });
}

void GraphvizLayouter::finish(const LayoutKey& key, const Expected<LayoutPtr>& result) {
    if (!result.ok()) {
        emit layoutFailed(key, QString::fromStdString(result.error().message()));
        return;
    }
    cache_.insert(key, *result);
    emit layoutReady(key, *result);
}

Expected<LayoutPtr> GraphvizLayouter::layoutNow(const LayoutInput& input) {
    return graphview::runDotLayout(input);
}

int64_t GraphvizLayouter::layoutsRun() {
    return graphview::dotLayoutsRun();
}

} // namespace stagecraft::views
