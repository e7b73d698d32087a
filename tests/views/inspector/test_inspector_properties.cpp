// The properties tree of fig3-chain on teaching, against values worked out
// by hand from the model (zoo/figures.cpp) and its schedule.

#include "inspector/properties_model.h"
#include "inspector_fixture.h"

#include <QtTest>

#include <memory>

using namespace stagecraft;
using namespace Qt::StringLiterals;
using views::Selection;

class TestInspectorProperties : public QObject {
    Q_OBJECT
private slots:
    void propertiesOfOp();
    void propertiesOfInstance();
    void instanceOnOneCoreAndOverCapacity();
    void propertiesOfGroupAndTensor();
    void overviewForNoSelection();
};

// stage2.conv1: Conv 3x3 stride 2, 16 -> 32 channels with bias, on
// [8,16,16,16] -> [8,32,8,8]. MACs = 8*32*8*8 outputs x 16*3*3 = 2,359,296;
// FLOPs = 2 x MACs = 4,718,592. Its stage is group b (the second of four).
void TestInspectorProperties::propertiesOfOp() {
    auto result = test::fig3Chain();
    views::PropertiesModel model;
    model.setResult(result);
    model.setSelection(test::opNamed(*result, "stage2.conv1"));
    QCOMPARE(test::valueAt(model, {u"Name"_s}).toString(), u"stage2.conv1"_s);
    QCOMPARE(test::valueAt(model, {u"Type"_s}).toString(), u"Conv"_s);
    QCOMPARE(test::childNames(model, {u"Inputs"_s}),
             QStringList(
                 {u"stage1.relu2_output_0"_s, u"stage2.conv1.weight"_s, u"stage2.conv1.bias"_s}));
    QCOMPARE(test::valueAt(model, {u"Inputs"_s, u"stage1.relu2_output_0"_s}).toString(),
             u"[8x16x16x16] f32"_s);
    QCOMPARE(test::valueAt(model, {u"Inputs"_s, u"stage2.conv1.weight"_s}).toString(),
             u"[32x16x3x3] f32, weight"_s);
    QCOMPARE(test::valueAt(model, {u"Outputs"_s, u"stage2.conv1_output_0"_s}).toString(),
             u"[8x32x8x8] f32"_s);
    QCOMPARE(test::valueAt(model, {u"Attributes"_s, u"kernel_shape"_s}).toString(), u"[3,3]"_s);
    QCOMPARE(test::valueAt(model, {u"Attributes"_s, u"strides"_s}).toString(), u"[2,2]"_s);
    QCOMPARE(test::valueAt(model, {u"Group"_s}).toString(), u"b"_s);
    QCOMPARE(test::valueAt(model, {u"MACs"_s}).toString(), u"2.36 M"_s);
    QCOMPARE(test::valueAt(model, {u"FLOPs"_s}).toString(), u"4.72 M"_s);
}

// a3: stage 1 splits along the batch into 8 instances of one sample each,
// [1,16,16,16] f32 = 16,384 B (the largest tensor of the stage, under the
// 28,672 B of teaching's LB). The plain binding puts teaching's 4 cores on
// the first dim with room for them: [1,4]. Stage 2 splits in 4 (two samples
// each), so a3 (sample 3) feeds b2 only and reads nothing produced. The
// order is Algorithm 3's: a8 a7 b4 a6 a5 b3 c2 a4 a3 … — a3 runs 9th of 15.
void TestInspectorProperties::propertiesOfInstance() {
    auto result = test::fig3Chain();
    views::PropertiesModel model;
    model.setResult(result);
    model.setSelection(test::instanceLabelled(*result, "a3"));
    QCOMPARE(test::valueAt(model, {u"Label"_s}).toString(), u"a3"_s);
    QCOMPARE(test::valueAt(model, {u"Group"_s}).toString(), u"a"_s);
    QCOMPARE(test::valueAt(model, {u"Index"_s}).toString(), u"3 of 8"_s);
    QCOMPARE(test::valueAt(model, {u"Shape"_s}).toString(), u"1x16x16x16"_s);
    // Footprint and capacity say what they count: the instance's 16 KiB are
    // over its 4 cores, the capacity is the cluster's LB less the weights'.
    QCOMPARE(test::valueAt(model, {u"Footprint, all its cores"_s}).toString(), u"16 KiB"_s);
    QCOMPARE(test::valueAt(model, {u"Footprint per core"_s}).toString(),
             u"4 KiB on each of 4 cores"_s);
    QCOMPARE(test::valueAt(model, {u"Level capacity"_s}).toString(),
             u"LB of the cluster: 28 KiB, 4 cores × 7 KiB (+ 1 KiB each for weights)"_s);
    QCOMPARE(test::valueAt(model, {u"Fits the level"_s}).toString(), u"yes"_s);
    QCOMPARE(test::valueAt(model, {u"Binding"_s}).toString(),
             u"[1,4]: 4 cores, output dim 1 over 4"_s);
    QCOMPARE(test::valueAt(model, {u"Scope"_s}).toString(), u"LB"_s);
    QCOMPARE(test::valueAt(model, {u"Position in order"_s}).toString(), u"9 of 15"_s);
    QCOMPARE(test::valueAt(model, {u"Predecessors"_s}).toString(), u"0"_s);
    QCOMPARE(test::childNames(model, {u"Successors"_s}), QStringList({u"b2"_s}));
    QCOMPARE(test::valueAt(model, {u"Successors"_s, u"b2"_s}).toString(),
             u"b2 (group b, slice 2)"_s);
}

// Group c (stage 3): output [8,64,4,4] f32 = 32,768 B, over the 28,672 B LB,
// so Algorithm 1 splits the batch in two. Its output feeds stage 4 only and
// stays in LB.
// The same instance a3 as if bound to one core and over the capacity: the
// text follows the binding and says where the output then lives.
void TestInspectorProperties::instanceOnOneCoreAndOverCapacity() {
    auto changed = std::make_shared<views::PipelineResult>(*test::fig3Chain());
    const Selection a3 = test::instanceLabelled(*changed, "a3");
    schedule::Instance& inst = changed->eval.schedule.instances[schedule::InstanceId(a3.id)];
    inst.bind = schedule::Binding{1, 1};
    inst.fitsLocalBuffer = false;
    inst.scope = schedule::Scope::GB;
    views::PropertiesModel model;
    model.setResult(changed);
    model.setSelection(a3);
    QCOMPARE(test::valueAt(model, {u"Footprint per core"_s}).toString(),
             u"16 KiB on its one core"_s);
    QCOMPARE(test::valueAt(model, {u"Fits the level"_s}).toString(),
             u"no: its output is kept in the GB"_s);
}

void TestInspectorProperties::propertiesOfGroupAndTensor() {
    auto result = test::fig3Chain();
    views::PropertiesModel model;
    model.setResult(result);
    model.setSelection(test::groupOfOp(*result, "stage3.conv1"));
    QCOMPARE(test::valueAt(model, {u"Label"_s}).toString(), u"c"_s);
    QCOMPARE(
        test::childNames(model, {u"Ops"_s}),
        QStringList({u"stage3.conv1"_s, u"stage3.relu1"_s, u"stage3.conv2"_s, u"stage3.relu2"_s}));
    QCOMPARE(test::valueAt(model, {u"Output shape"_s}).toString(), u"8x64x4x4"_s);
    QCOMPARE(test::valueAt(model, {u"Peak footprint, unsplit"_s}).toString(), u"32 KiB"_s);
    QCOMPARE(test::valueAt(model, {u"Split"_s}).toString(), u"dim 0 × 2 (Algorithm 1)"_s);
    QCOMPARE(test::valueAt(model, {u"Instances"_s}).toString(), u"2"_s);
    QCOMPARE(test::valueAt(model, {u"Split overridden"_s}).toString(), u"no"_s);

    model.setSelection(test::tensorNamed(*result, "stage3.relu2_output_0"));
    QCOMPARE(test::valueAt(model, {u"Shape"_s}).toString(), u"8x64x4x4"_s);
    QCOMPARE(test::valueAt(model, {u"Dtype"_s}).toString(), u"f32"_s);
    QCOMPARE(test::valueAt(model, {u"Bytes"_s}).toString(), u"32 KiB"_s);
    QCOMPARE(test::valueAt(model, {u"Producer"_s}).toString(), u"stage3.relu2"_s);
    QCOMPARE(test::childNames(model, {u"Consumers"_s}), QStringList({u"stage4.conv1"_s}));
    QCOMPARE(test::valueAt(model, {u"Output of group"_s}).toString(), u"c"_s);
    QCOMPARE(test::valueAt(model, {u"Scope"_s}).toString(), u"LB"_s);

    model.setSelection(test::tensorNamed(*result, "stage3.relu1_output_0"));
    QVERIFY(test::valueAt(model, {u"Scope"_s}).isNull()); // inside the group: no scope
}

// With nothing selected (or a selection the result no longer has) the tree
// is the schedule's overview, not an empty table: fig3-chain's four stages
// are four groups of 8, 4, 2 and 1 instances.
void TestInspectorProperties::overviewForNoSelection() {
    auto result = test::fig3Chain();
    views::PropertiesModel model;
    model.setResult(result);
    for (const Selection& none : {Selection{}, Selection{Selection::Kind::Op, 1000}}) {
        model.setSelection(none);
        QVERIFY(test::valueAt(model, {u"Selection"_s}).toString().startsWith(u"none: click"_s));
        QCOMPARE(test::valueAt(model, {u"Architecture"_s}).toString(), u"teaching"_s);
        QCOMPARE(test::valueAt(model, {u"Strategy"_s}).toString(), u"graphturbo"_s);
        QCOMPARE(test::valueAt(model, {u"Groups"_s}).toString(), u"4"_s);
        QCOMPARE(test::valueAt(model, {u"Instances"_s}).toString(), u"15"_s);
        QCOMPARE(test::valueAt(model, {u"Level capacity"_s}).toString(),
                 u"LB of the cluster: 28 KiB, 4 cores × 7 KiB (+ 1 KiB each for weights)"_s);
        QCOMPARE(test::valueAt(model, {u"Kernels per cluster"_s}).toString(),
                 QString::number(result->eval.report.kernels));
    }
}

QTEST_MAIN(TestInspectorProperties)
#include "test_inspector_properties.moc"
