// The graph opens on an overview: overviewGroups expands small groups,
// smallest first, within the node budget, and every large one is a box; a
// model so drawn fits the view, and expanded, a long chain shows at a
// readable zoom from its top.

#include "graph/graph_canvas.h"
#include "graph/graph_model.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph_fixture.h"

#include <QSignalSpy>
#include <QtTest>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace stagecraft::views::graphview;

namespace {

bool waitForLayout(GraphView& view) {
    if (!view.isLayingOut())
        return true;
    QSignalSpy finished(&view, &GraphView::layoutFinished);
    return finished.wait(120000);
}

} // namespace

class TestGraphOverview : public QObject {
    Q_OBJECT

private slots:
    void smallGroupsExpandWithinTheBudget() {
        auto fig3 = test::resultOf("fig3-chain");
        QCOMPARE(overviewGroups(*fig3), allGroups(*fig3)); // 16 ops in 4 groups of 4
        auto resnet = test::resultOf("resnet50", 1, "stcp920");
        const ExpandedGroups open = overviewGroups(*resnet);
        const partition::Partition& partition = resnet->eval.schedule.partition;
        size_t nodes = partition.groupCount();
        for (partition::GroupId g : open) {
            QVERIFY(partition.ops(g).size() <= kOverviewGroupOps);
            nodes += partition.ops(g).size() - 1;
        }
        QVERIFY(nodes <= kOverviewNodes);
        // Smallest first: a small group left a box would not have fitted.
        for (partition::GroupId g : partition.groupIds())
            if (!open.contains(g) && partition.ops(g).size() <= kOverviewGroupOps)
                QVERIFY(nodes + partition.ops(g).size() - 1 > kOverviewNodes);
    }

    // ResNet-50 opens on an overview: its one group of 122 ops is one box
    // and the whole drawing is in sight. Expanded it is a chain far taller
    // than wide: fitting it whole would make text unreadable, so it shows
    // at a readable zoom at its top.
    void longChainOpensReadableAtTheTop() {
        SelectionModel selection;
        GraphView view;
        view.resize(900, 700);
        view.setSelectionModel(&selection);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setResult(test::resultOf("resnet50", 1, "stcp920"));
        QVERIFY(waitForLayout(view));
        GraphCanvas* canvas = view.canvas();
        const partition::Partition& partition = view.result()->eval.schedule.partition;
        size_t boxes = 0;
        for (partition::GroupId g : partition.groupIds()) {
            if (partition.ops(g).size() > kOverviewGroupOps)
                QVERIFY2(!view.isGroupExpanded(g), "a large group opens as one box");
            boxes += view.isGroupExpanded(g) ? 0 : 1;
        }
        QVERIFY(boxes > 0);
        QVERIFY(canvas->mapToScene(canvas->viewport()->rect())
                    .boundingRect()
                    .adjusted(-1, -1, 1, 1)
                    .contains(view.scene()->sceneRect()));
        view.expandAll();
        QVERIFY(waitForLayout(view));
        QVERIFY2(canvas->zoom() >= GraphCanvas::kReadableZoom,
                 qPrintable(QString::number(canvas->zoom())));
        QRectF shown = canvas->mapToScene(canvas->viewport()->rect()).boundingRect();
        QRectF all = view.scene()->sceneRect();
        QVERIFY(!shown.contains(all));
        QVERIFY(shown.top() <= all.top() + 1);
        view.fitToView();
        QVERIFY(canvas->zoom() < GraphCanvas::kReadableZoom);
    }
};

QTEST_MAIN(TestGraphOverview)
#include "test_graph_overview.moc"
