#pragma once
// The asynchronous face of the Graphviz adapter: dot runs on one worker
// thread owned by the layouter (and, like every Graphviz call, under the
// process-wide mutex of graphviz_run.h); finished layouts come back as
// signals on the layouter's thread and are kept in a small LRU cache by key.
// One layouter serves one view: a request still waiting when a newer one
// arrives is dropped, because only the newest matters to its view.

#include "common/latest_worker.h"
#include "graph/graph_layout.h"
#include "graph/layout_cache.h"
#include "support/expected.h"

#include <QObject>
#include <QString>

#include <cstdint>

namespace stagecraft::views {

class GraphvizLayouter : public QObject {
    Q_OBJECT
public:
    explicit GraphvizLayouter(QObject* parent = nullptr, size_t cacheCapacity = 8);
    /// Waits for a running layout to finish (dot cannot be interrupted).
    ~GraphvizLayouter() override;

    /// Lays \p input out on the worker; layoutReady or layoutFailed follow
    /// with \p key. A cached key is answered before request returns.
    void request(const graphview::LayoutKey& key, graphview::LayoutInput input);

    /// The cached layout of \p key; null when there is none.
    graphview::LayoutPtr cached(const graphview::LayoutKey& key) { return cache_.find(key); }

    /// Lays \p input out on the calling thread (tests, benchmarks).
    static Expected<graphview::LayoutPtr> layoutNow(const graphview::LayoutInput& input);

    /// Dot layouts run by this process so far.
    static int64_t layoutsRun();

signals:
    void layoutReady(const stagecraft::views::graphview::LayoutKey& key,
                     const stagecraft::views::graphview::LayoutPtr& layout);
    void layoutFailed(const stagecraft::views::graphview::LayoutKey& key, const QString& message);

private:
    void finish(const graphview::LayoutKey& key, const Expected<graphview::LayoutPtr>& result);

    LatestWorker worker_{QStringLiteral("graphviz")};
    graphview::LayoutCache cache_;
};

} // namespace stagecraft::views
