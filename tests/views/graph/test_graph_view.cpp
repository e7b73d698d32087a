// The graph view as a user meets it: the figure chain opens expanded with a
// cluster per group, a graph of more than 2,000 ops opens collapsed, find
// selects and centers (expanding a collapsed group), clicks select ops and
// groups, a selection made elsewhere lights up its op or group, a new split
// updates the labels without a new Graphviz run, and the exports write files
// that load.

#include "graph/graph_canvas.h"
#include "graph/graph_items.h"
#include "graph/graph_minimap.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/graphviz_layouter.h"
#include "graph/overlay_legend.h"
#include "graph_fixture.h"

#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace stagecraft::views::graphview;
using namespace Qt::StringLiterals;

namespace {

constexpr int kTimeoutMs = 120000;

bool waitForLayout(GraphView& view) {
    if (!view.isLayingOut())
        return true;
    QSignalSpy finished(&view, &GraphView::layoutFinished);
    return finished.wait(kTimeoutMs);
}

QPoint viewportPoint(GraphView& view, const QPointF& scenePoint) {
    return view.canvas()->mapFromScene(scenePoint);
}

void click(GraphView& view, const QPointF& scenePoint) {
    QTest::mouseClick(view.canvas()->viewport(), Qt::LeftButton, {},
                      viewportPoint(view, scenePoint));
}

/// The figure chain with group \p group split \p factor ways along dim 0.
ResultPtr fig3WithSplit(partition::GroupId group, int64_t factor) {
    test::ResultSpec spec = test::specOf("fig3-chain");
    ResultPtr base = test::resultFor(spec);
    ir::OpId op = base->eval.schedule.partition.ops(group).front();
    spec.overrides.splits.push_back({base->graph->op(op).name, 0, factor});
    Expected<ResultPtr> result = runPipeline(test::requestFor(spec), base.get(), 2);
    if (!result.ok())
        qFatal("split override: %s", result.error().message().c_str());
    return *result;
}

} // namespace

class TestGraphView : public QObject {
    Q_OBJECT

private:
    /// A shown view of the figure chain, laid out, sharing \p selection.
    void openFig3(GraphView& view, SelectionModel& selection) {
        view.resize(900, 700);
        view.setSelectionModel(&selection);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setResult(test::resultOf("fig3-chain"));
        QVERIFY(waitForLayout(view));
    }

private slots:
    void showsClustersAndNodesAfterLayout() {
        GraphView view;
        QCOMPARE(view.objectName(), u"graphView"_s);
        view.setResult(test::resultOf("fig3-chain"));
        QVERIFY(view.isLayingOut());
        QCOMPARE(view.message(), u"laying out…"_s);
        QVERIFY(waitForLayout(view));
        QVERIFY(view.message().isEmpty());
        QCOMPARE(view.scene()->nodes().size(), size_t(18));
        QCOMPARE(view.scene()->clusters().size(), size_t(4));
        QCOMPARE(view.scene()->edges().size(), size_t(17));
        for (partition::GroupId g : IdRange<partition::GroupId>(4)) {
            QVERIFY(view.isGroupExpanded(g));
            QVERIFY(view.scene()->clusterItem(g));
            QVERIFY(!view.scene()->groupNodeItem(g));
        }
        QVERIFY(
            view.scene()->clusterItem(partition::GroupId(0))->lines().front().startsWith(u"a"_s));
    }

    void largeGraphOpensCollapsed() {
        ResultPtr result = test::syntheticResult(2100);
        QVERIFY(result->graph->opCount() > GraphView::kCollapseAbove);
        GraphView view;
        view.setResult(result);
        QVERIFY(waitForLayout(view));
        size_t groups = result->eval.schedule.partition.groupCount();
        QVERIFY(view.scene()->clusters().empty());
        QVERIFY(view.scene()->nodes().size() > groups);
        for (partition::GroupId g : result->eval.schedule.partition.groupIds()) {
            QVERIFY(!view.isGroupExpanded(g));
            QVERIFY(view.scene()->groupNodeItem(g));
        }
    }

    void findExpandsAndSelects() {
        ResultPtr result = test::syntheticResult(2100);
        SelectionModel selection;
        GraphView view;
        view.setSelectionModel(&selection);
        view.setResult(result);
        QVERIFY(waitForLayout(view));
        ir::OpId op = ir::OpId::at(result->graph->opCount() / 2);
        partition::GroupId group = result->eval.schedule.partition.groupOf(op);
        QVERIFY(!view.scene()->opItem(op));
        QVERIFY(view.findOp(QString::fromStdString(result->graph->op(op).name)));
        QCOMPARE(selection.current(), (Selection{Selection::Kind::Op, op.value()}));
        QVERIFY(view.isGroupExpanded(group));
        QVERIFY(waitForLayout(view));
        QVERIFY(view.scene()->opItem(op));
        QVERIFY(view.scene()->opItem(op)->isHighlighted());
        QVERIFY(view.scene()->clusterItem(group));
        QCOMPARE(view.scene()->clusters().size(), size_t(1));

        QVERIFY(!view.findOp(u"no such op"_s));
        QCOMPARE(selection.current(), (Selection{Selection::Kind::Op, op.value()}));
    }

    void findMarksEveryMatch() {
        SelectionModel selection;
        GraphView view;
        openFig3(view, selection);
        const ResultPtr result = view.result();
        auto* find = view.findChild<QLineEdit*>(u"graphFind"_s);
        QVERIFY(find);
        find->setText(u"RELU"_s);
        std::vector<ir::OpId> expected;
        std::set<partition::GroupId> groups;
        for (ir::OpId op : result->graph->opIds())
            if (QString::fromStdString(result->graph->op(op).name).contains(u"relu"_s)) {
                expected.push_back(op);
                groups.insert(result->eval.schedule.partition.groupOf(op));
            }
        QVERIFY(expected.size() > 2 && groups.size() > 1);
        QCOMPARE(view.matches(), expected);
        QCOMPARE(view.scene()->matchedItems().size(), expected.size());
        for (ir::OpId op : expected)
            QVERIFY(view.scene()->opItem(op)->isMatched());
        // Enter steps through the matches, selecting each.
        QTest::keyClick(find, Qt::Key_Return);
        QCOMPARE(selection.current(), (Selection{Selection::Kind::Op, expected[0].value()}));
        QTest::keyClick(find, Qt::Key_Return);
        QCOMPARE(selection.current(), (Selection{Selection::Kind::Op, expected[1].value()}));
        // Collapsed, a group's node stands for the matches it hides.
        view.collapseAll();
        QVERIFY(waitForLayout(view));
        QCOMPARE(view.scene()->matchedItems().size(), groups.size());
        for (partition::GroupId g : groups)
            QVERIFY(view.scene()->groupNodeItem(g)->isMatched());
        find->clear();
        QVERIFY(view.matches().empty() && view.scene()->matchedItems().empty());
    }

    void theMinimapFramesTheViewAndMovesIt() {
        SelectionModel selection;
        GraphView view;
        openFig3(view, selection);
        view.canvas()->zoomBy(4); // far from fitting: the minimap shows
        GraphMinimap* minimap = view.minimap();
        QTRY_VERIFY(minimap->isVisible());
        QVERIFY(minimap->width() <= GraphMinimap::kMaxWidth + 2 &&
                minimap->height() <= GraphMinimap::kMaxHeight + 2);
        // Zoomed in, the frame is a part of the picture's height (a narrow
        // graph may be narrower than the view).
        QVERIFY(minimap->frame().intersects(QRectF(minimap->rect())));
        QVERIFY(minimap->frame().height() < minimap->height() / 2.0);
        // A click near the bottom brings the graph's bottom into view.
        const QPoint bottom(minimap->width() / 2, minimap->height() - 4);
        QTest::mouseClick(minimap, Qt::LeftButton, {}, bottom);
        const QRectF shown =
            view.canvas()->mapToScene(view.canvas()->viewport()->rect()).boundingRect();
        const QRectF scene = view.canvas()->sceneRect();
        QVERIFY2(shown.bottom() > scene.bottom() - scene.height() / 4,
                 qPrintable(QStringLiteral("%1 of %2").arg(shown.bottom()).arg(scene.bottom())));
        QVERIFY(minimap->frame().center().y() > minimap->height() / 2.0);
        // Fitted whole, there is nothing to navigate: it hides.
        view.fitToView();
        QTRY_VERIFY(!minimap->isVisible());
    }

    void drawsByNameScopesAndUnfoldsThem() {
        GraphView view;
        view.resize(1200, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setResult(test::resultOf("bert-2layer"));
        QVERIFY(waitForLayout(view));
        QVERIFY(!view.scene()->clusters().empty());
        view.setFoldByName(true);
        QVERIFY(waitForLayout(view));
        QVERIFY(view.scene()->clusters().empty());
        std::vector<const NodeItem*> scopeNodes;
        for (const NodeItem* node : view.scene()->nodes())
            if (node->ref().kind == NodeRef::Kind::Scope)
                scopeNodes.push_back(node);
        QVERIFY(!scopeNodes.empty());
        QVERIFY(view.legend()->texts().join(u'\n').contains(u"name scopes"_s));
        // Find marks the scope nodes that hold matching ops.
        QVERIFY(view.findAll(u"layer.1.attention"_s) > 0);
        for (const NodeItem* node : view.scene()->matchedItems())
            QVERIFY(node->ref().kind != NodeRef::Kind::Scope ||
                    QString::fromStdString(view.nameScopes().scopes[node->ref().id].name)
                        .startsWith(u"encoder.layer.1"_s));
        // Going to an op inside a folded scope unfolds it and draws the op.
        const NameScopes& scopes = view.nameScopes();
        const int scope = scopeNodes.front()->ref().id;
        const ir::OpId op = scopes.opsUnder(scope).front();
        QVERIFY(!view.scene()->opItem(op));
        QVERIFY(view.findOp(QString::fromStdString(view.result()->graph->op(op).name)));
        QVERIFY(waitForLayout(view));
        QVERIFY(view.scene()->opItem(op));
        QCOMPARE(foldedScopeOf(scopes, view.foldedScopes(), op), -1);
        // Folding it again draws one node for the scope.
        view.setScopeFolded(scopes.scopeOfOp[op], true);
        QVERIFY(waitForLayout(view));
        QVERIFY(!view.scene()->opItem(op));
        const auto* carrier =
            qgraphicsitem_cast<const NodeItem*>(view.scene()->opOrGroupItem(op, *view.result()));
        QVERIFY(carrier && carrier->ref().kind == NodeRef::Kind::Scope);
        // Groups have no box here: selecting one outlines what draws its ops.
        SelectionModel selection;
        view.setSelectionModel(&selection);
        const partition::GroupId group = view.result()->eval.schedule.partition.groupOf(op);
        selection.select({Selection::Kind::Group, group.value()});
        QVERIFY(carrier->isHighlighted());
        for (const NodeItem* node : view.scene()->nodes())
            if (node->ref().kind == NodeRef::Kind::Op)
                QCOMPARE(node->isHighlighted(), view.result()->eval.schedule.partition.groupOf(
                                                    ir::OpId(node->ref().id)) == group);
        view.setSelectionModel(nullptr);
        // Back to groups: clusters again, the op's group as a box or a cluster.
        view.setFoldByName(false);
        QVERIFY(waitForLayout(view));
        QVERIFY(!view.scene()->clusters().empty());
        QVERIFY(view.scene()->opItem(op) || view.scene()->groupNodeItem(group));
    }

    void clicksSelect() {
        SelectionModel selection;
        GraphView view;
        openFig3(view, selection);
        NodeItem* op = view.scene()->opItem(ir::OpId(5));
        QVERIFY(op);
        click(view, op->sceneBoundingRect().center());
        QCOMPARE(selection.current(), (Selection{Selection::Kind::Op, 5}));
        QVERIFY(op->isHighlighted());

        ClusterItem* cluster = view.scene()->clusterItem(partition::GroupId(2));
        click(view, cluster->labelRect().center());
        QCOMPARE(selection.current(), (Selection{Selection::Kind::Group, 2}));
        QVERIFY(cluster->isHighlighted());
        QVERIFY(!op->isHighlighted());
    }

    void doubleClicksCollapseAndExpand() {
        SelectionModel selection;
        GraphView view;
        openFig3(view, selection);
        QTest::mouseDClick(
            view.canvas()->viewport(), Qt::LeftButton, {},
            viewportPoint(view,
                          view.scene()->clusterItem(partition::GroupId(1))->labelRect().center()));
        QVERIFY(!view.isGroupExpanded(partition::GroupId(1)));
        QVERIFY(waitForLayout(view));
        NodeItem* node = view.scene()->groupNodeItem(partition::GroupId(1));
        QVERIFY(node);
        QCOMPARE(view.scene()->clusters().size(), size_t(3));
        click(view, node->sceneBoundingRect().center());
        QCOMPARE(selection.current(), (Selection{Selection::Kind::Group, 1}));
        QTest::mouseDClick(view.canvas()->viewport(), Qt::LeftButton, {},
                           viewportPoint(view, node->sceneBoundingRect().center()));
        QVERIFY(view.isGroupExpanded(partition::GroupId(1)));
        QVERIFY(waitForLayout(view));
        QCOMPARE(view.scene()->clusters().size(), size_t(4));
    }

    void externalSelectionHighlights() {
        SelectionModel selection;
        GraphView view;
        openFig3(view, selection);
        selection.select({Selection::Kind::Group, 2});
        QVERIFY(view.scene()->clusterItem(partition::GroupId(2))->isHighlighted());
        QVERIFY(!view.scene()->clusterItem(partition::GroupId(1))->isHighlighted());

        const schedule::Schedule& schedule = view.result()->eval.schedule;
        schedule::InstanceId instance = schedule.groups[partition::GroupId(1)].instances.front();
        selection.select({Selection::Kind::Instance, instance.value()});
        QVERIFY(view.scene()->clusterItem(partition::GroupId(1))->isHighlighted());
        QVERIFY(!view.scene()->clusterItem(partition::GroupId(2))->isHighlighted());

        selection.select({Selection::Kind::Op, 9});
        QVERIFY(view.scene()->opItem(ir::OpId(9))->isHighlighted());
        QVERIFY(!view.scene()->clusterItem(partition::GroupId(1))->isHighlighted());

        view.collapseAll();
        QVERIFY(waitForLayout(view));
        QVERIFY(
            view.scene()->groupNodeItem(schedule.partition.groupOf(ir::OpId(9)))->isHighlighted());
    }

    void highlightsMarkOpsGroupsAndInstances() {
        SelectionModel selection;
        HighlightModel marks;
        GraphView view;
        view.setHighlightModel(&marks);
        openFig3(view, selection);
        const schedule::Schedule& schedule = view.result()->eval.schedule;
        const schedule::InstanceId instance =
            schedule.groups[partition::GroupId(3)].instances.back();
        Highlights wanted;
        wanted.ops = {9};
        wanted.groups = {1};
        wanted.instances = {instance.value()};
        wanted.caption = u"Step 2/9"_s;
        marks.set(wanted);
        QVERIFY(view.scene()->opItem(ir::OpId(9))->isMarked());
        QVERIFY(view.scene()->clusterItem(partition::GroupId(1))->isMarked());
        QVERIFY(view.scene()->clusterItem(partition::GroupId(3))->isMarked());
        QVERIFY(!view.scene()->clusterItem(partition::GroupId(0))->isMarked());
        QCOMPARE(view.scene()->markedItems().size(), size_t(3));
        auto* caption = view.findChild<QLabel*>(u"graphMarkCaption"_s);
        QVERIFY(caption);
        QCOMPARE(caption->text(), u"Step 2/9"_s);
        // Marks and the selection are independent.
        selection.select({Selection::Kind::Group, 0});
        QVERIFY(view.scene()->clusterItem(partition::GroupId(1))->isMarked());
        // Collapsed, an op marks its group's node.
        view.collapseAll();
        QVERIFY(waitForLayout(view));
        QVERIFY(view.scene()->groupNodeItem(schedule.partition.groupOf(ir::OpId(9)))->isMarked());
        marks.clear();
        QVERIFY(view.scene()->markedItems().empty());
        QVERIFY(caption->text().isEmpty());
    }

    void followsADarkPaletteButExportsOnPaper() {
        SelectionModel selection;
        GraphView view;
        openFig3(view, selection);
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(30, 30, 30));
        dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
        dark.setColor(QPalette::Base, QColor(20, 20, 20));
        dark.setColor(QPalette::Text, QColor(235, 235, 235));
        view.setPalette(dark);
        QVERIFY(view.scene()->colors().dark);
        const QImage shown = view.canvas()->viewport()->grab().toImage();
        QVERIFY(qGray(shown.pixel(2, 2)) < 60);
        QTemporaryDir dir;
        const QString png = dir.filePath(u"dark.png"_s);
        QVERIFY(view.exportPng(png));
        QCOMPARE(QImage(png).pixelColor(0, 0), QColor(Qt::white));
        QVERIFY(view.scene()->colors().dark); // restored after the export
        view.setPalette(QPalette());
        QVERIFY(!view.scene()->colors().dark);
    }

    void newSplitUpdatesLabelsWithoutLayout() {
        SelectionModel selection;
        GraphView view;
        openFig3(view, selection);
        QCOMPARE(view.scene()->clusterItem(partition::GroupId(3))->lines().at(1).left(7),
                 u"unsplit"_s);
        int64_t layouts = GraphvizLayouter::layoutsRun();
        ClusterItem* cluster = view.scene()->clusterItem(partition::GroupId(3));
        view.canvas()->zoomBy(2);
        QTransform zoomed = view.canvas()->transform();
        ResultPtr split = fig3WithSplit(partition::GroupId(3), 2);
        QVERIFY(sameGrouping(*view.result(), *split));
        view.setResult(split);
        QVERIFY(!view.isLayingOut());
        QTest::qWait(50);
        QCOMPARE(GraphvizLayouter::layoutsRun(), layouts);
        // Not even a cached layout: the items stay, and so does the zoom.
        QCOMPARE(view.scene()->clusterItem(partition::GroupId(3)), cluster);
        QCOMPARE(view.canvas()->transform(), zoomed);
        QVERIFY(cluster->lines().at(1).startsWith(u"dim 0 × 2"_s));

        view.collapseAll();
        QVERIFY(waitForLayout(view));
        layouts = GraphvizLayouter::layoutsRun();
        view.setResult(test::resultOf("fig3-chain"));
        QVERIFY(!view.isLayingOut());
        QCOMPARE(GraphvizLayouter::layoutsRun(), layouts);
        QCOMPARE(view.scene()->groupNodeItem(partition::GroupId(3))->lines().at(2), u"unsplit"_s);
    }

    void wheelZoomsAroundTheCursor() {
        SelectionModel selection;
        GraphView view;
        openFig3(view, selection);
        GraphCanvas* canvas = view.canvas();
        QPoint cursor =
            viewportPoint(view, view.scene()->opItem(ir::OpId(3))->sceneBoundingRect().center());
        QPointF under = canvas->mapToScene(cursor);
        double before = canvas->zoom();
        QWheelEvent wheel(cursor, canvas->viewport()->mapToGlobal(cursor), QPoint(), QPoint(0, 240),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(canvas->viewport(), &wheel);
        QVERIFY(canvas->zoom() > before * 1.3);
        QPointF after = canvas->mapToScene(cursor);
        // The chain is narrower than the view and stays centered; its height
        // scrolls, and the point under the cursor keeps its place.
        QVERIFY(qAbs(under.y() - after.y()) < 2 / canvas->zoom());
        view.fitToView();
        QVERIFY(canvas->zoom() <= 1.0);
        QVERIFY(canvas->mapToScene(canvas->viewport()->rect())
                    .boundingRect()
                    .adjusted(-1, -1, 1, 1)
                    .contains(view.scene()->sceneRect()));
    }

    void exportsWriteFiles() {
        QTemporaryDir dir;
        GraphView view;
        QString error;
        QVERIFY(!view.exportSvg(dir.filePath(u"empty.svg"_s), &error));
        QVERIFY(!error.isEmpty());
        view.setResult(test::resultOf("fig3-chain"));
        QVERIFY(waitForLayout(view));

        QString svgPath = dir.filePath(u"graph.svg"_s);
        QVERIFY2(view.exportSvg(svgPath, &error), qPrintable(error));
        QFile svg(svgPath);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QByteArray text = svg.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("</svg>"));

        QString pngPath = dir.filePath(u"graph.png"_s);
        QVERIFY2(view.exportPng(pngPath, &error), qPrintable(error));
        QImage image(pngPath);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 100 && image.height() > 100);
        QCOMPARE(image.pixelColor(0, 0), QColor(Qt::white));
        bool drawn = false;
        for (int y = 0; y < image.height() && !drawn; y += 4)
            for (int x = 0; x < image.width() && !drawn; x += 4)
                drawn = image.pixelColor(x, y) != QColor(Qt::white);
        QVERIFY(drawn);

        QVERIFY(!view.exportPng(dir.filePath(u"missing/dir/graph.png"_s), &error));
        QVERIFY(!error.isEmpty());
    }
};

QTEST_MAIN(TestGraphView)
#include "test_graph_view.moc"
