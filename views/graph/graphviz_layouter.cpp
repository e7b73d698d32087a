// Jobs travel to the worker as queued functors and come back the same way;
// the worker object only gives them a thread. Tickets let the worker skip a
// job that a newer request has made pointless before dot starts on it.

#include "graph/graphviz_layouter.h"

#include "graph/graphviz_run.h"

#include <utility>

namespace stagecraft::views {

using graphview::LayoutInput;
using graphview::LayoutKey;
using graphview::LayoutPtr;

GraphvizLayouter::GraphvizLayouter(QObject* parent, size_t cacheCapacity)
    : QObject(parent)
    , worker_(new QObject)
    , cache_(cacheCapacity) {
    thread_.setObjectName(QStringLiteral("graphviz"));
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.start();
}

GraphvizLayouter::~GraphvizLayouter() {
    thread_.quit();
    thread_.wait();
}

void GraphvizLayouter::request(const LayoutKey& key, LayoutInput input) {
    uint64_t ticket = ++latestTicket_;
    if (LayoutPtr layout = cache_.find(key)) {
        emit layoutReady(key, layout);
        return;
    }
    QMetaObject::invokeMethod(
        worker_,
        [this, ticket, key, input = std::move(input)] {
            if (ticket != latestTicket_.load())
                return;
            Expected<LayoutPtr> result = graphview::runDotLayout(input);
            QMetaObject::invokeMethod(
                this, [this, key, result] { finish(key, result); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
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
