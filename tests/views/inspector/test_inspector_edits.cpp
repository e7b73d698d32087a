// The inspector's edits as the pipeline judges them: each control emits one
// EditRequest (QSignalSpy) whose overrides are run through runPipeline —
// a split choice, "unsplit", merges (accepted on fig3-chain, refused as a
// cycle on fig2-blocks), ungroup, an op put on the host CPU and back, order
// moves (accepted, and refused naming the dependency) and scope pins.

#include "inspector/edit_requests.h"
#include "inspector/inspector_widget.h"
#include "inspector/instance_order_model.h"
#include "inspector_fixture.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QtTest>

#include <memory>

using namespace stagecraft;
using namespace Qt::StringLiterals;
using views::Selection;

namespace {

const test::ResultSpec kFig3 = test::specFor("fig3-chain", "teaching");
const test::ResultSpec kFig2 = test::specFor("fig2-blocks", "teaching");

Expected<views::ResultPtr> rerun(test::ResultSpec spec, const schedule::Overrides& overrides) {
    spec.overrides = overrides;
    return views::runPipeline(test::requestFor(spec), nullptr, 2);
}

views::ResultPtr resultWith(test::ResultSpec spec, const schedule::Overrides& overrides) {
    auto result = rerun(std::move(spec), overrides);
    if (!result.ok())
        qFatal("pipeline: %s", result.error().message().c_str());
    return std::move(result).value();
}

/// An inspector showing \p result, with a spy on its requests.
struct Inspector {
    views::SelectionModel selection;
    views::InspectorWidget widget;
    QSignalSpy spy{&widget, &views::InspectorWidget::editRequested};

    explicit Inspector(views::ResultPtr result) {
        widget.setSelectionModel(&selection);
        widget.setResult(std::move(result));
    }
    template <typename T>
    T* child(const QString& name) {
        auto* found = widget.findChild<T*>(name);
        if (!found)
            qFatal("no child %s", qPrintable(name));
        return found;
    }
    views::EditRequest request(int i = 0) const {
        return spy.at(i).at(0).value<views::EditRequest>();
    }
};

int itemStartingWith(QComboBox* combo, const QString& prefix) {
    for (int i = 0; i < combo->count(); ++i)
        if (combo->itemText(i).startsWith(prefix))
            return i;
    return -1;
}

schedule::GroupId groupOfOp(const views::PipelineResult& result, const std::string& op) {
    return result.eval.schedule.partition.groupOf(*result.graph->findOp(op));
}

} // namespace

class TestInspectorEdits : public QObject {
    Q_OBJECT
private slots:
    void splitCandidateIsForced();
    void unsplitIsFactorOne();
    void mergeOfAdjacentGroupsIsAccepted();
    void mergeThroughAThirdGroupIsACycle();
    void ungroupAtOp();
    void hostMovesAnOpToTheCpuAndBack();
    void orderMoveIsAcceptedOrRefused();
    void scopePinChangesScope();
    void structuralEditsDropTheUserOrder();
};

// fig2-blocks is one group on teaching; Algorithm 1 splits its batch in two,
// the spatial dims 2 and 3 in two are the other candidates.
void TestInspectorEdits::splitCandidateIsForced() {
    Inspector inspector(test::resultFor(kFig2));
    inspector.selection.select({Selection::Kind::Group, 0});
    auto* split = inspector.child<QComboBox>(u"inspectorSplit"_s);
    QVERIFY(split->isEnabled());
    QCOMPARE(split->currentText(), u"dim 0 × 2, 16 KiB each"_s);
    auto* items = qobject_cast<QStandardItemModel*>(split->model());
    QVERIFY(!items->item(0)->isEnabled()); // 32 KiB whole, over the 28 KiB LB
    int dim2 = itemStartingWith(split, u"dim 2 × 2"_s);
    QVERIFY(dim2 > 0);
    split->setCurrentIndex(dim2);
    QCOMPARE(inspector.spy.count(), 1);
    views::EditRequest request = inspector.request();
    QCOMPARE(request.description, u"Split group a: dim 2 × 2"_s);
    QCOMPARE(request.overrides.splits.size(), size_t{1});
    QCOMPARE(request.overrides.splits[0], (schedule::Overrides::Split{"conv_block.conv1", 2, 2}));
    auto rerunResult = rerun(kFig2, request.overrides);
    QVERIFY2(rerunResult.ok(), rerunResult.ok() ? "" : rerunResult.error().message().c_str());
    const auto& group = (*rerunResult)->eval.schedule.groups[partition::GroupId(0)];
    QVERIFY(group.split);
    QCOMPARE(group.split->dim, 2);
    QCOMPARE(group.split->factor, int64_t{2});
    QVERIFY(group.splitOverridden);
}

// With stage 4 forced into two instances (the example of
// docs/schedule-format.md), "unsplit" asks for factor 1: one instance again,
// still marked as an override. Every divisor of a candidate dim at or above
// Algorithm 1's factor that the pipeline accepts is offered (batch 8: 2, 4,
// 8), with its instance bytes.
void TestInspectorEdits::unsplitIsFactorOne() {
    schedule::Overrides forced;
    forced.splits.push_back({"stage4.conv1", 0, 2});
    Inspector inspector(resultWith(kFig3, forced));
    inspector.selection.select(test::opNamed(*test::fig3Chain(), "stage4.relu1"));
    auto* split = inspector.child<QComboBox>(u"inspectorSplit"_s);
    QCOMPARE(split->currentText(), u"dim 0 × 2, 8 KiB each"_s);
    QVERIFY(itemStartingWith(split, u"dim 0 × 4"_s) > 0);
    QVERIFY(itemStartingWith(split, u"dim 0 × 8"_s) > 0);
    QCOMPARE(itemStartingWith(split, u"dim 0 × 3"_s), -1);
    split->setCurrentIndex(0);
    QCOMPARE(inspector.spy.count(), 1);
    views::EditRequest request = inspector.request();
    QCOMPARE(request.description, u"Unsplit group d"_s);
    QCOMPARE(request.overrides.splits,
             std::vector<schedule::Overrides::Split>({{"stage4.conv1", 0, 1}}));
    auto rerunResult = rerun(kFig3, request.overrides);
    QVERIFY(rerunResult.ok());
    const auto& group = (*rerunResult)->eval.schedule.groups[partition::GroupId(3)];
    QCOMPARE(group.instances.size(), size_t{1});
    QVERIFY(group.splitOverridden);
    QCOMPARE(group.split->factor, int64_t{1});
}

void TestInspectorEdits::mergeOfAdjacentGroupsIsAccepted() {
    Inspector inspector(test::fig3Chain());
    inspector.selection.select({Selection::Kind::Group, 1}); // b
    auto* target = inspector.child<QComboBox>(u"inspectorMergeTarget"_s);
    QCOMPARE(target->count(), 2); // a and c: a chain
    QCOMPARE(target->itemData(0).toInt(), 0);
    QCOMPARE(target->itemData(1).toInt(), 2);
    target->setCurrentIndex(1);
    inspector.child<QPushButton>(u"inspectorMerge"_s)->click();
    QCOMPARE(inspector.spy.count(), 1);
    views::EditRequest request = inspector.request();
    QCOMPARE(request.description, u"Merge groups b and c"_s);
    QCOMPARE(request.overrides.merges,
             std::vector<schedule::Overrides::Merge>({{"stage2.conv1", "stage3.conv1"}}));
    auto rerunResult = rerun(kFig3, request.overrides);
    QVERIFY(rerunResult.ok());
    const auto& merged = **rerunResult;
    QCOMPARE(merged.eval.schedule.groups.size(), size_t{3});
    QCOMPARE(groupOfOp(merged, "stage2.conv1"), groupOfOp(merged, "stage3.relu2"));
}

// Algorithm 2 makes fig2-blocks one group; TVM's fusion rules keep the
// blocks apart: the conv block's conv3 + Add + Relu (A) feeds the identity
// block's first conv (B), whose path leads to the identity Add (C), and A
// feeds C directly along the identity shortcut. Merging A and C would put
// B both before and after the merged group: the inspector does not offer C
// (the pipeline's rule, core/schedule/edits.h), and the pipeline refuses the
// merge when it is asked for anyway (a hand-written document).
void TestInspectorEdits::mergeThroughAThirdGroupIsACycle() {
    test::ResultSpec spec = kFig2;
    spec.strategy = "tvm";
    views::ResultPtr result = test::resultFor(spec);
    const auto& partition = result->eval.schedule.partition;
    schedule::GroupId a = groupOfOp(*result, "conv_block.add");
    schedule::GroupId b = groupOfOp(*result, "identity_block.conv1");
    schedule::GroupId c = groupOfOp(*result, "identity_block.add");
    QVERIFY(a != b && b != c && a != c);
    auto reaches = [&](schedule::GroupId from, schedule::GroupId to) {
        std::vector<schedule::GroupId> stack{from};
        while (!stack.empty()) {
            schedule::GroupId g = stack.back();
            stack.pop_back();
            for (schedule::GroupId next : partition.consumers(g)) {
                if (next == to)
                    return true;
                stack.push_back(next);
            }
        }
        return false;
    };
    auto consumersOfA = partition.consumers(a);
    QVERIFY(std::find(consumersOfA.begin(), consumersOfA.end(), c) != consumersOfA.end());
    QVERIFY(reaches(a, b) && reaches(b, c));

    Inspector inspector(result);
    inspector.selection.select({Selection::Kind::Group, a.value()});
    auto* target = inspector.child<QComboBox>(u"inspectorMergeTarget"_s);
    QCOMPARE(target->findData(c.value()), -1);
    QVERIFY(target->findData(b.value()) >= 0);
    auto rerunResult = rerun(spec, views::inspector::mergeRequest(*result, a, c).overrides);
    QVERIFY(!rerunResult.ok());
    QString reason = QString::fromStdString(rerunResult.error().message());
    qInfo("refused: %s", qPrintable(reason));
    QVERIFY(reason.contains(u"cycle"_s));

    inspector.widget.showRefusal(reason);
    auto* refusal = inspector.child<QLabel>(u"inspectorRefusal"_s);
    QVERIFY(!refusal->isHidden());
    QCOMPARE(refusal->text(), reason);
    inspector.widget.setResult(result);
    QVERIFY(refusal->isHidden());
}

void TestInspectorEdits::ungroupAtOp() {
    Inspector inspector(test::fig3Chain());
    auto* ungroup = inspector.child<QPushButton>(u"inspectorUngroup"_s);
    inspector.selection.select(test::opNamed(*test::fig3Chain(), "stage3.conv1"));
    QVERIFY(!ungroup->isEnabled()); // every op of the stage follows its first
    inspector.selection.select({Selection::Kind::Group, 2});
    QVERIFY(!ungroup->isEnabled());
    inspector.selection.select(test::opNamed(*test::fig3Chain(), "stage3.relu1"));
    QVERIFY(ungroup->isEnabled());
    ungroup->click();
    QCOMPARE(inspector.spy.count(), 1);
    views::EditRequest request = inspector.request();
    QCOMPARE(request.description, u"Ungroup c at stage3.relu1"_s);
    QCOMPARE(request.overrides.ungroups,
             std::vector<schedule::Overrides::Ungroup>({{"stage3.relu1"}}));
    auto rerunResult = rerun(kFig3, request.overrides);
    QVERIFY(rerunResult.ok());
    QCOMPARE((*rerunResult)->eval.schedule.groups.size(), size_t{5});
    QVERIFY(groupOfOp(**rerunResult, "stage3.conv1") != groupOfOp(**rerunResult, "stage3.relu1"));
}

// DLA on stcp920 keeps fig3-chain as one part; an op put on the host CPU
// cuts it in three (before, the op alone, after). teaching has no fallback
// CPU, so there the button is disabled.
void TestInspectorEdits::hostMovesAnOpToTheCpuAndBack() {
    test::ResultSpec spec = test::specFor("fig3-chain", "stcp920");
    spec.strategy = "dla";
    views::ResultPtr whole = test::resultFor(spec);
    QCOMPARE(whole->eval.schedule.groups.size(), size_t{1});
    Inspector inspector(whole);
    auto* host = inspector.child<QPushButton>(u"inspectorHost"_s);
    QVERIFY(!host->isEnabled());
    inspector.selection.select(test::opNamed(*whole, "stage3.relu1"));
    QVERIFY(host->isEnabled());
    QCOMPARE(host->text(), u"Run on host CPU"_s);
    host->click();
    QCOMPARE(inspector.spy.count(), 1);
    views::EditRequest request = inspector.request();
    QCOMPARE(request.description, u"Run stage3.relu1 on the host CPU"_s);
    QCOMPARE(request.overrides.host, std::vector<std::string>{"stage3.relu1"});
    views::ResultPtr cut = resultWith(spec, request.overrides);
    QCOMPARE(cut->eval.schedule.groups.size(), size_t{3});
    schedule::GroupId alone = groupOfOp(*cut, "stage3.relu1");
    QCOMPARE(cut->eval.schedule.partition.ops(alone).size(), size_t{1});

    Inspector back(cut);
    auto* undo = back.child<QPushButton>(u"inspectorHost"_s);
    back.selection.select(test::opNamed(*cut, "stage3.relu1"));
    QCOMPARE(undo->text(), u"Run on the accelerator"_s);
    undo->click();
    QVERIFY(back.request().overrides.host.empty());

    Inspector teaching(test::fig3Chain());
    teaching.selection.select(test::opNamed(*test::fig3Chain(), "stage3.relu1"));
    QVERIFY(!teaching.child<QPushButton>(u"inspectorHost"_s)->isEnabled());
}

// fig3-chain's order starts a8 a7 b4: a7 may run before a8 (both read the
// input only), but b4 reads a7 and a8 and cannot run first.
void TestInspectorEdits::orderMoveIsAcceptedOrRefused() {
    views::ResultPtr result = test::fig3Chain();
    Inspector inspector(result);
    views::InstanceOrderModel* order = inspector.widget.orderModel();
    QStringList original = order->labels();
    QCOMPARE(original.mid(0, 3), QStringList({u"a8"_s, u"a7"_s, u"b4"_s}));

    QVERIFY(order->moveRows({}, 1, 1, {}, 0));
    QVERIFY(inspector.spy.wait(1000)); // queued: the view finishes its drop first
    views::EditRequest accepted = inspector.request(0);
    QCOMPARE(accepted.description, u"Move a7 before a8"_s);
    QCOMPARE(accepted.overrides.order.front(), std::string("a7"));
    auto rerunResult = rerun(kFig3, accepted.overrides);
    QVERIFY(rerunResult.ok());
    const auto& s = (*rerunResult)->eval.schedule;
    QCOMPARE(s.orderKind, schedule::OrderKind::User);
    QCOMPARE(s.instances[s.order[0]].label, std::string("a7"));

    inspector.widget.setResult(result);
    QVERIFY(order->moveRows({}, 2, 1, {}, 0)); // b4 first
    QVERIFY(inspector.spy.wait(1000));
    views::EditRequest refused = inspector.request(1);
    QCOMPARE(refused.description, u"Move b4 before a8"_s);
    auto refusedResult = rerun(kFig3, refused.overrides);
    QVERIFY(!refusedResult.ok());
    QString reason = QString::fromStdString(refusedResult.error().message());
    qInfo("refused: %s", qPrintable(reason));
    QVERIFY(reason.contains(u"'b4'"_s));
    QVERIFY(reason.contains(u"'a8'"_s) || reason.contains(u"'a7'"_s));
    inspector.widget.showRefusal(reason);
    QCOMPARE(order->labels(), original);
    QVERIFY(!inspector.child<QLabel>(u"inspectorRefusal"_s)->isHidden());
}

void TestInspectorEdits::scopePinChangesScope() {
    views::ResultPtr result = test::fig3Chain();
    Inspector inspector(result);
    auto* scope = inspector.child<QComboBox>(u"inspectorScope"_s);
    inspector.selection.select(test::tensorNamed(*result, "stage2.relu1_output_0"));
    QVERIFY(!scope->isEnabled()); // inside group b: no scope of its own
    inspector.selection.select(test::opNamed(*result, "stage2.relu2"));
    QVERIFY(!scope->isEnabled());
    inspector.selection.select(test::instanceLabelled(*result, "c1"));
    QVERIFY(scope->isEnabled());
    QCOMPARE(inspector.child<QLabel>(u"inspectorScopeTensor"_s)->text(),
             u"stage3.relu2_output_0"_s);

    inspector.selection.select(test::tensorNamed(*result, "stage2.relu2_output_0"));
    QCOMPARE(scope->currentText(), u"LB"_s);
    scope->setCurrentIndex(scope->findText(u"GB"_s));
    QCOMPARE(inspector.spy.count(), 1);
    views::EditRequest request = inspector.request();
    QCOMPARE(request.description, u"Pin scope of stage2.relu2_output_0 to GB"_s);
    QCOMPARE(request.overrides.scopes, std::vector<schedule::Overrides::ScopePin>(
                                           {{"stage2.relu2_output_0", schedule::Scope::GB}}));
    auto rerunResult = rerun(kFig3, request.overrides);
    QVERIFY(rerunResult.ok());
    const auto& s = (*rerunResult)->eval.schedule;
    for (schedule::InstanceId id : s.groups[partition::GroupId(1)].instances)
        QCOMPARE(s.instances[id].scope, schedule::Scope::GB);
}

// Instance labels change with splits and groups, so such edits start the
// order afresh instead of handing the pipeline an order it must refuse.
void TestInspectorEdits::structuralEditsDropTheUserOrder() {
    views::ResultPtr base = test::fig3Chain();
    schedule::Overrides withOrder;
    for (schedule::InstanceId id : base->eval.schedule.order)
        withOrder.order.push_back(base->eval.schedule.instances[id].label);
    views::ResultPtr ordered = resultWith(kFig3, withOrder);
    QCOMPARE(ordered->eval.schedule.orderKind, schedule::OrderKind::User);
    views::EditRequest merge =
        views::inspector::mergeRequest(*ordered, schedule::GroupId(1), schedule::GroupId(2));
    QVERIFY(merge.overrides.order.empty());
    QVERIFY2(merge.description.endsWith(u"; drops the instance order set by hand"_s),
             qPrintable(merge.description));
    QVERIFY(rerun(kFig3, merge.overrides).ok());
    // A merge with a group split by hand says that split goes.
    views::EditRequest splitB = views::inspector::splitRequest(
        *base, schedule::GroupId(1), base->eval.schedule.groups[schedule::GroupId(1)].split);
    views::ResultPtr splitResult = resultWith(kFig3, splitB.overrides);
    views::EditRequest mergeSplit =
        views::inspector::mergeRequest(*splitResult, schedule::GroupId(1), schedule::GroupId(2));
    QVERIFY2(mergeSplit.description.contains(u"drops the split set on group b"_s),
             qPrintable(mergeSplit.description));
    QVERIFY(mergeSplit.overrides.splits.empty());
    views::EditRequest split =
        views::inspector::splitRequest(*ordered, schedule::GroupId(3), std::nullopt);
    QVERIFY(split.overrides.order.empty());
    views::EditRequest pin = views::inspector::scopePinRequest(
        *ordered, ir::TensorId(test::tensorNamed(*ordered, "stage2.relu2_output_0").id),
        schedule::Scope::GB);
    QCOMPARE(pin.overrides.order, withOrder.order); // a pin keeps the instances
    QVERIFY(rerun(kFig3, pin.overrides).ok());
}

QTEST_MAIN(TestInspectorEdits)
#include "test_inspector_edits.moc"
