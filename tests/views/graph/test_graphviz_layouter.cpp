// The Graphviz adapter on the figure chain: positions land inside the
// bounding box, clusters hold their nodes, y points down (producers above
// consumers), sizes survive the inch conversion; the asynchronous path
// delivers through the signal, a cached key answers with the same layout and
// no dot run, and a malformed request fails with a message instead of
// reaching Graphviz.

#include "graph/graph_model.h"
#include "graph/graphviz_layouter.h"
#include "graph_fixture.h"

#include <QSignalSpy>
#include <QtTest>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace stagecraft::views::graphview;

namespace {

constexpr int kTimeoutMs = 60000;

GraphModel fig3Model(const ExpandedGroups* expanded = nullptr) {
    auto result = test::resultOf("fig3-chain");
    return buildGraphModel(*result, expanded ? *expanded : allGroups(*result));
}

LayoutInput malformed() {
    LayoutInput input;
    input.nodes = {{{40, 20}, NodeShape::Box}};
    input.edges = {{0, 3}};
    return input;
}

} // namespace

class TestGraphvizLayouter : public QObject {
    Q_OBJECT

private slots:
    void layoutOfTheFigureChain() {
        GraphModel model = fig3Model();
        Expected<LayoutPtr> laidOut = GraphvizLayouter::layoutNow(model.layout);
        QVERIFY2(laidOut.ok(), laidOut.ok() ? "" : laidOut.error().message().c_str());
        const GraphLayout& layout = **laidOut;
        QCOMPARE(layout.nodes.size(), model.layout.nodes.size());
        QCOMPARE(layout.edges.size(), model.layout.edges.size());
        QCOMPARE(layout.clusters.size(), model.layout.clusters.size());
        QVERIFY(layout.bounds.width() > 0 && layout.bounds.height() > 0);
        QCOMPARE(layout.bounds.top(), 0.0);
        QRectF inside = layout.bounds.adjusted(-0.5, -0.5, 0.5, 0.5);
        for (size_t n = 0; n < layout.nodes.size(); ++n) {
            QVERIFY(inside.contains(layout.nodes[n].center));
            QVERIFY(qAbs(layout.nodes[n].size.width() - model.layout.nodes[n].size.width()) < 1);
            QVERIFY(qAbs(layout.nodes[n].size.height() - model.layout.nodes[n].size.height()) < 1);
        }
        for (size_t c = 0; c < layout.clusters.size(); ++c) {
            QVERIFY(inside.contains(layout.clusters[c].rect));
            QVERIFY(layout.clusters[c].rect.contains(layout.clusters[c].labelCenter));
            for (int node : model.layout.clusters[c].nodes)
                QVERIFY(layout.clusters[c].rect.contains(
                    layout.nodes[static_cast<size_t>(node)].center));
        }
    }

    void edgesPointDown() {
        GraphModel model = fig3Model();
        Expected<LayoutPtr> laidOut = GraphvizLayouter::layoutNow(model.layout);
        QVERIFY(laidOut.ok());
        const GraphLayout& layout = **laidOut;
        for (size_t e = 0; e < layout.edges.size(); ++e) {
            const NodeGeometry& tail =
                layout.nodes[static_cast<size_t>(model.layout.edges[e].from)];
            const NodeGeometry& head = layout.nodes[static_cast<size_t>(model.layout.edges[e].to)];
            QVERIFY(tail.center.y() < head.center.y());
            const EdgeGeometry& edge = layout.edges[e];
            QVERIFY(!edge.path.isEmpty());
            QVERIFY(edge.hasArrow);
            // The spline leaves the tail near its bottom and the arrow ends at the head.
            QVERIFY(edge.path.elementAt(0).y >= tail.center.y());
            QVERIFY(head.rect().adjusted(-2, -2, 2, 2).contains(edge.arrowTip));
        }
    }

    void collapsedLayout() {
        ExpandedGroups none;
        GraphModel model = fig3Model(&none);
        Expected<LayoutPtr> laidOut = GraphvizLayouter::layoutNow(model.layout);
        QVERIFY(laidOut.ok());
        QCOMPARE((*laidOut)->nodes.size(), size_t(6));
        QVERIFY((*laidOut)->clusters.empty());
    }

    void asyncRequestAndCacheHit() {
        GraphModel model = fig3Model();
        GraphvizLayouter layouter;
        QSignalSpy ready(&layouter, &GraphvizLayouter::layoutReady);
        QSignalSpy failed(&layouter, &GraphvizLayouter::layoutFailed);
        LayoutKey key{1, 2, 3};
        int64_t before = GraphvizLayouter::layoutsRun();
        layouter.request(key, model.layout);
        QCOMPARE(ready.count(), 0);
        QVERIFY(ready.wait(kTimeoutMs));
        QCOMPARE(failed.count(), 0);
        QCOMPARE(GraphvizLayouter::layoutsRun(), before + 1);
        QCOMPARE(ready.at(0).at(0).value<LayoutKey>(), key);
        auto first = ready.at(0).at(1).value<LayoutPtr>();
        QVERIFY(first);
        QCOMPARE(first->nodes.size(), model.layout.nodes.size());

        layouter.request(key, model.layout);
        QCOMPARE(ready.count(), 2);
        QCOMPARE(ready.at(1).at(1).value<LayoutPtr>().get(), first.get());
        QCOMPARE(layouter.cached(key).get(), first.get());
        QCOMPARE(GraphvizLayouter::layoutsRun(), before + 1);
    }

    void newerRequestWins() {
        GraphModel expanded = fig3Model();
        ExpandedGroups none;
        GraphModel collapsed = fig3Model(&none);
        GraphvizLayouter layouter;
        QSignalSpy ready(&layouter, &GraphvizLayouter::layoutReady);
        layouter.request({1, 1, 1}, expanded.layout);
        layouter.request({1, 1, 2}, collapsed.layout);
        auto newestArrived = [&] {
            return !ready.isEmpty() && ready.last().at(0).value<LayoutKey>() == LayoutKey{1, 1, 2};
        };
        QTRY_VERIFY_WITH_TIMEOUT(newestArrived(), kTimeoutMs);
        QCOMPARE(ready.last().at(1).value<LayoutPtr>()->nodes.size(), size_t(6));
    }

    void malformedInputFails() {
        Expected<LayoutPtr> now = GraphvizLayouter::layoutNow(malformed());
        QVERIFY(!now.ok());
        QVERIFY(now.error().message().find("edge 0") != std::string::npos);

        GraphvizLayouter layouter;
        QSignalSpy ready(&layouter, &GraphvizLayouter::layoutReady);
        QSignalSpy failed(&layouter, &GraphvizLayouter::layoutFailed);
        layouter.request({9, 9, 9}, malformed());
        QVERIFY(failed.wait(kTimeoutMs));
        QCOMPARE(ready.count(), 0);
        QVERIFY(failed.at(0).at(1).toString().contains(QStringLiteral("edge 0")));
        QVERIFY(!layouter.cached({9, 9, 9}));
    }

    void emptyInput() {
        Expected<LayoutPtr> laidOut = GraphvizLayouter::layoutNow({});
        QVERIFY(laidOut.ok());
        QVERIFY((*laidOut)->nodes.empty());
    }
};

QTEST_MAIN(TestGraphvizLayouter)
#include "test_graphviz_layouter.moc"
