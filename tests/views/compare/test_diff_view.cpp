// The schedule diff view on ResNet-50 (batch 1, "stcp920"): graphturbo against
// tvm lists exactly the ops whose co-membership differs (checked pair by
// pair), highlights exactly those ops in A, and a click on a tree item narrows
// the highlights to that item and selects it.

#include "compare/comparison_model.h"
#include "compare/comparison_runner.h"
#include "compare/comparison_view.h"
#include "compare/diff_items.h"
#include "compare/diff_view.h"
#include "compare/side_by_side.h"
#include "graph/graph_canvas.h"
#include "graph/graph_items.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "result_fixture.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTreeWidget>
#include <QtTest>

#include <array>
#include <map>
#include <set>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace Qt::StringLiterals;

namespace {

test::ResultSpec resnet(const std::string& strategy) {
    test::ResultSpec spec;
    spec.zoo = "resnet50";
    spec.batch = 1;
    spec.arch = "stcp920";
    spec.strategy = strategy;
    return spec;
}

/// Ops x for which some op y shares x's group in one schedule only.
std::vector<int32_t> coMembershipDiffers(const PipelineResult& a, const PipelineResult& b) {
    const auto& pa = a.eval.schedule.partition;
    const auto& pb = b.eval.schedule.partition;
    std::vector<int32_t> ops;
    for (ir::OpId x : a.graph->opIds())
        for (ir::OpId y : a.graph->opIds())
            if ((pa.groupOf(x) == pa.groupOf(y)) != (pb.groupOf(x) == pb.groupOf(y))) {
                ops.push_back(x.value());
                break;
            }
    return ops;
}

QTreeWidgetItem* category(const DiffView& view, int index) {
    return view.tree()->topLevelItem(index);
}

void click(DiffView& view, QTreeWidgetItem* item) {
    view.tree()->scrollToItem(item);
    QRect rect = view.tree()->visualItemRect(item);
    QTest::mouseClick(view.tree()->viewport(), Qt::LeftButton, {}, rect.center());
}

} // namespace

class TestDiffView : public QObject {
    Q_OBJECT
    ResultPtr gt = test::resultFor(resnet("graphturbo"));
    ResultPtr tvm = test::resultFor(resnet("tvm"));
    HighlightModel highlights;
    SelectionModel selection;
    DiffView view;

private slots:
    void initTestCase() {
        QCOMPARE(gt->graph, tvm->graph);
        view.setHighlightModel(&highlights);
        view.setSelectionModel(&selection);
        view.resize(700, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QElapsedTimer timer;
        timer.start();
        view.setPair(gt, QStringLiteral("graphturbo"), tvm, QStringLiteral("tvm"));
        qInfo("diff graphturbo vs tvm on resnet50 (diff, tree, highlights): %.2f ms",
              static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }

    void mapsEveryGroupByTheOpsItShares() {
        const auto& pa = gt->eval.schedule.partition;
        const auto& pb = tvm->eval.schedule.partition;
        const std::vector<GroupMapping> mapping = mapGroups(*gt, *tvm);
        QCOMPARE(mapping.size(), pa.groupCount());
        std::set<partition::GroupId> reached;
        std::array<int, 4> kinds{};
        for (const GroupMapping& m : mapping) {
            int64_t ops = 0;
            for (const auto& [group, shared] : m.shared) {
                ops += shared;
                reached.insert(group);
                QVERIFY(shared <= static_cast<int64_t>(pb.ops(group).size()));
            }
            QCOMPARE(ops, static_cast<int64_t>(pa.ops(m.a).size()));
            QVERIFY(
                std::is_sorted(m.shared.begin(), m.shared.end(),
                               [](const auto& x, const auto& y) { return x.second > y.second; }));
            const bool whole = static_cast<int64_t>(pb.ops(m.shared.front().first).size()) ==
                               m.shared.front().second;
            switch (m.kind) {
            case GroupMapping::Kind::Kept:
                QVERIFY(m.shared.size() == 1 && whole);
                break;
            case GroupMapping::Kind::Merged:
                QVERIFY(m.shared.size() == 1 && !whole);
                break;
            case GroupMapping::Kind::Split:
                QVERIFY(m.shared.size() > 1);
                for (const auto& [group, shared] : m.shared)
                    QCOMPARE(static_cast<int64_t>(pb.ops(group).size()), shared);
                break;
            case GroupMapping::Kind::Regrouped:
                QVERIFY(m.shared.size() > 1);
                break;
            }
            ++kinds[static_cast<size_t>(m.kind)];
        }
        QCOMPARE(reached.size(), pb.groupCount());
        // tvm fuses less than graphturbo: most of graphturbo's groups split.
        QVERIFY(kinds[static_cast<size_t>(GroupMapping::Kind::Split)] > 0);
        const QString line = mappingSummary(mapping, static_cast<int64_t>(pb.groupCount()),
                                            QStringLiteral("graphturbo"), QStringLiteral("tvm"));
        QVERIFY2(view.summary().endsWith(line), qPrintable(view.summary()));
        QVERIFY(line.contains(QStringLiteral("%1 split").arg(kinds[1])));
        // The tree lists every group that changed, last.
        QTreeWidgetItem* last = view.tree()->topLevelItem(view.tree()->topLevelItemCount() - 1);
        QCOMPARE(last->childCount(), static_cast<int>(pa.groupCount()) - kinds[0]);
        QVERIFY(last->text(0).startsWith(QStringLiteral("Group mapping")));
    }

    void listsTheRegroupedOps() {
        std::vector<int32_t> expected = coMembershipDiffers(*gt, *tvm);
        QVERIFY(!expected.empty());
        qInfo("%s", qPrintable(view.summary()));
        QTreeWidgetItem* regrouped = category(view, 0);
        QCOMPARE(regrouped->childCount(), static_cast<int>(expected.size()));
        for (int i = 0; i < regrouped->childCount(); ++i) {
            const std::string& name =
                gt->graph->op(ir::OpId(expected[static_cast<size_t>(i)])).name;
            QVERIFY2(regrouped->child(i)->text(0).startsWith(QString::fromStdString(name + ":")),
                     qPrintable(regrouped->child(i)->text(0)));
        }
        QVERIFY(view.summary().contains(QString::number(expected.size()) +
                                        QStringLiteral(" ops are regrouped")));
    }

    void highlightsExactlyTheRegroupedOps() {
        std::vector<int32_t> expected = coMembershipDiffers(*gt, *tvm);
        QCOMPARE(highlights.current().ops, expected);
        std::set<int32_t> groups;
        for (int32_t op : expected)
            groups.insert(gt->eval.schedule.partition.groupOf(ir::OpId(op)).value());
        for (int32_t g : groups)
            QVERIFY(std::binary_search(highlights.current().groups.begin(),
                                       highlights.current().groups.end(), g));
        QVERIFY(highlights.current().caption.contains(QStringLiteral("tvm")));
    }

    void clickingAnOpNarrowsTheHighlights() {
        QTreeWidgetItem* item = category(view, 0)->child(0);
        click(view, item);
        int32_t op = coMembershipDiffers(*gt, *tvm).front();
        QCOMPARE(highlights.current().ops, std::vector<int32_t>{op});
        schedule::GroupId group = gt->eval.schedule.partition.groupOf(ir::OpId(op));
        QCOMPARE(highlights.current().groups, std::vector<int32_t>{group.value()});
        const auto& instances = gt->eval.schedule.groups[group].instances;
        std::vector<int32_t> instanceValues;
        for (schedule::InstanceId id : instances)
            instanceValues.push_back(id.value());
        QCOMPARE(highlights.current().instances, instanceValues);
        QCOMPARE(selection.current(), (Selection{Selection::Kind::Op, op, -1}));
    }

    void clickingASplitChangeSelectsItsGroup() {
        const schedule::ScheduleDiff& diff = view.diff();
        if (diff.splits.empty())
            QSKIP("graphturbo splits no group of resnet50 that tvm groups alike");
        QTreeWidgetItem* splits = category(view, 3);
        QCOMPARE(splits->childCount(), static_cast<int>(diff.splits.size()));
        splits->setExpanded(true);
        click(view, splits->child(0));
        int32_t group = diff.splits.front().group.a.value();
        QVERIFY(highlights.current().ops.empty());
        QCOMPARE(highlights.current().groups, std::vector<int32_t>{group});
        QCOMPARE(selection.current(), (Selection{Selection::Kind::Group, group, -1}));
    }

    void clickingACategoryHighlightsItsItems() {
        click(view, category(view, 0));
        QCOMPARE(highlights.current().ops, coMembershipDiffers(*gt, *tvm));
    }

    void sideBySideSynchronizesSelection() {
        view.resize(1400, 900);
        view.setSideBySide(true);
        SideBySideDiff* pair = view.sideBySide();
        QVERIFY(pair && pair->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!pair->graphA()->isLayingOut() && !pair->graphB()->isLayingOut() &&
                                     !pair->graphB()->scene()->isEmpty(),
                                 120000);
        QVERIFY(pair->headingA().contains(u"A: graphturbo"_s));
        QVERIFY(pair->headingB().contains(u"B: tvm"_s));
        QVERIFY(pair->headingB().contains(
            QString::number(tvm->eval.schedule.partition.groupCount()) + u" groups"_s));
        // B marks the ops the diff marks in A.
        QCOMPARE(pair->graphB()->scene()->markedItems().empty(), highlights.current().ops.empty());
        const auto& pa = gt->eval.schedule.partition;
        const auto& pb = tvm->eval.schedule.partition;
        // An op is the same op on both sides.
        const ir::OpId op(static_cast<int32_t>(gt->graph->opCount()) - 1);
        selection.select({Selection::Kind::Op, op.value()});
        QCOMPARE(pair->selectionB()->current(), selection.current());
        // A group of B selects the group of A holding most of its ops.
        const partition::GroupId b = pb.groupOf(op);
        std::map<partition::GroupId, int> inA;
        for (ir::OpId x : pb.ops(b))
            ++inA[pa.groupOf(x)];
        int most = 0;
        for (const auto& [group, count] : inA)
            most = std::max(most, count);
        pair->selectionB()->select({Selection::Kind::Group, b.value()});
        QCOMPARE(selection.current().kind, Selection::Kind::Group);
        QCOMPARE(inA[partition::GroupId(selection.current().id)], most);
        // Which is passed back to B as the group of B sharing most of it.
        const Selection back = pair->selectionB()->current();
        QCOMPARE(back.kind, Selection::Kind::Group);
        QVERIFY(pb.hasGroup(partition::GroupId(back.id)));
        // A click on an op in B's graph selects it everywhere (its group
        // expanded first: the graph opens on an overview).
        const ir::OpId first(0);
        pair->graphB()->setGroupExpanded(pb.groupOf(first), true);
        QTRY_VERIFY_WITH_TIMEOUT(!pair->graphB()->isLayingOut(), 120000);
        graphview::NodeItem* item = pair->graphB()->scene()->opItem(first);
        QVERIFY(item);
        pair->graphB()->canvas()->centerOn(item);
        const QPoint at =
            pair->graphB()->canvas()->mapFromScene(item->sceneBoundingRect().center());
        QTest::mouseClick(pair->graphB()->canvas()->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(selection.current(), (Selection{Selection::Kind::Op, first.value()}));
        // An instance follows its op, or without one its group's counterpart.
        const Selection instance =
            translateSelection({Selection::Kind::Instance, 0, -1}, *gt, mapGroups(*gt, *tvm));
        QCOMPARE(instance.kind, Selection::Kind::Group);
        QCOMPARE(translateSelection({Selection::Kind::Instance, 0, first.value()}, *gt, {}),
                 (Selection{Selection::Kind::Op, first.value()}));
        // Closing the window unchecks the button; while hidden, a new pair
        // waits for the window to show again before it is drawn.
        auto* button = view.findChild<QPushButton*>(u"diffSideBySide"_s);
        QVERIFY(button && button->isChecked());
        pair->close();
        QVERIFY(!button->isChecked());
        QVERIFY(!pair->isVisible());
        view.setPair(tvm, u"tvm"_s, gt, u"graphturbo"_s);
        QCOMPARE(pair->graphA()->result(), gt);
        view.setSideBySide(true);
        QCOMPARE(pair->graphA()->result(), tvm);
        QVERIFY(pair->headingA().contains(u"A: tvm"_s));
        QTRY_VERIFY_WITH_TIMEOUT(!pair->graphA()->isLayingOut() && !pair->graphB()->isLayingOut(),
                                 120000);
        view.setPair(gt, u"graphturbo"_s, tvm, u"tvm"_s);
        view.setSideBySide(false);
        QVERIFY(!pair->isVisible());
        view.resize(700, 900);
    }

    void aResultAgainstItselfHasNoDifference() {
        DiffView self;
        HighlightModel marks;
        self.setHighlightModel(&marks);
        self.setPair(gt, QStringLiteral("A"), gt, QStringLiteral("B"));
        QVERIFY(self.diff().empty());
        QVERIFY(marks.current().empty());
        QVERIFY(self.summary().contains(QStringLiteral("identical")));
        for (int i = 0; i < self.tree()->topLevelItemCount(); ++i)
            QCOMPARE(self.tree()->topLevelItem(i)->childCount(), 0);
    }

    // Done-when of the issue: switching the compared strategy on ResNet-50
    // updates the table, chart, diff and highlights from kept results.
    void switchingTheComparedStrategyOnResnet50() {
        ComparisonRunner runner;
        QSignalSpy finished(&runner, &ComparisonRunner::finished);
        runner.setRequest(test::requestFor(resnet("graphturbo")));
        QVERIFY(finished.wait(300000));
        ComparisonView table;
        DiffView diff;
        HighlightModel marks;
        table.setRunner(&runner);
        diff.setRunner(&runner);
        diff.setHighlightModel(&marks);
        ResultPtr shown = runner.result(QStringLiteral("graphturbo"));
        diff.setPair(shown, QStringLiteral("graphturbo"), runner.result(QStringLiteral("tvm")),
                     QStringLiteral("tvm"));
        QCOMPARE(diff.compareWith()->count(), static_cast<int>(sim::strategies().size()));
        connect(&table, &ComparisonView::strategyChosen, &diff,
                [&](const QString& name, ResultPtr b) {
                    diff.setPair(shown, QStringLiteral("graphturbo"), b, name);
                });
        table.resize(900, 400);
        diff.resize(600, 800);
        table.show();
        diff.show();
        QVERIFY(QTest::qWaitForWindowExposed(&diff));
        int runs = runner.runCount();
        for (int row = 0; row < table.model()->rowCount(); ++row) {
            QRect cell = table.table()->visualRect(table.model()->index(row, 0));
            QTest::mouseClick(table.table()->viewport(), Qt::LeftButton, {}, cell.center());
            table.repaint();
            diff.repaint();
            QCOMPARE(diff.compareWith()->currentText(), table.model()->strategyAt(row));
        }
        QCOMPARE(runner.runCount(), runs); // every switch reads the cached results
        diff.compareWith()->setCurrentIndex(0);
        emit diff.compareWith()->activated(0);
        QCOMPARE(diff.compareWith()->currentText(), QStringLiteral("tvm"));
        QCOMPARE(marks.current().ops,
                 coMembershipDiffers(*shown, *runner.result(QStringLiteral("tvm"))));
    }
};

QTEST_MAIN(TestDiffView)
#include "test_diff_view.moc"
