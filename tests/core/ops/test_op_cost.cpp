// Op costs against hand formulas: MACs of complex ops, FLOPs of elementwise
// ops, reductions and normalizations, bytes read and written.

#include "ops_testing.h"

#include <QtTest>

using namespace stagecraft;
using namespace stagecraft::test;
using ir::Shape;

namespace {

OpGraph conv(Shape x, Shape w, Shape out, int64_t group, int64_t pad, bool transposed = false,
             int64_t stride = 1) {
    OpBuilder b(transposed ? "ConvTranspose" : "Conv", "conv");
    b.input(x).input(w).input({out[1]}).output(out);
    b.ints("kernel_shape", Shape(w.begin() + 2, w.end()))
        .ints("strides", {stride, stride})
        .ints("dilations", {1, 1})
        .ints("pads", {pad, pad, pad, pad})
        .i("group", group);
    if (transposed)
        b.ints("output_padding", {1, 1});
    return b.build();
}

ops::OpCost costOf(const OpGraph& g) {
    return semantics(g).cost;
}

} // namespace

class TestOpCost : public QObject {
    Q_OBJECT
private slots:
    void convMacs() {
        // N*Cout*OH*OW * Cin*KH*KW
        ops::OpCost cost = costOf(conv({1, 3, 8, 8}, {16, 3, 3, 3}, {1, 16, 8, 8}, 1, 1));
        QCOMPARE(cost.macs, int64_t(1 * 16 * 8 * 8 * 3 * 3 * 3));
        QCOMPARE(cost.flops, 2 * cost.macs);
    }

    void groupedConvMacs() {
        // N*Cout*OH*OW * (Cin/G)*KH*KW with G = 4
        ops::OpCost cost = costOf(conv({2, 8, 6, 6}, {8, 2, 3, 3}, {2, 8, 6, 6}, 4, 1));
        QCOMPARE(cost.macs, int64_t(2 * 8 * 6 * 6 * 2 * 3 * 3));
        // depthwise: one input channel per output channel
        ops::OpCost depthwise = costOf(conv({1, 8, 6, 6}, {8, 1, 3, 3}, {1, 8, 6, 6}, 8, 1));
        QCOMPARE(depthwise.macs, int64_t(8 * 6 * 6 * 3 * 3));
    }

    void matmulMacsWithBroadcast() {
        // [2,1,3,4] x [5,4,6] -> [2,5,3,6]: batch 2*5, M 3, N 6, K 4
        OpGraph g =
            OpBuilder("MatMul").input({2, 1, 3, 4}).input({5, 4, 6}).output({2, 5, 3, 6}).build();
        ops::OpCost cost = costOf(g);
        QCOMPARE(cost.macs, int64_t(2 * 5 * 3 * 6 * 4));
        QCOMPARE(cost.flops, int64_t(2 * 2 * 5 * 3 * 6 * 4));
    }

    void gemmMacs() {
        OpGraph g = OpBuilder("Gemm")
                        .input({7, 5})
                        .input({3, 7})
                        .input({1, 3})
                        .output({5, 3})
                        .i("transA", 1)
                        .i("transB", 1)
                        .build();
        QCOMPARE(costOf(g).macs, int64_t(5 * 3 * 7));
    }

    void convTransposeCountsRealMultiplies() {
        // N*Cin*H*W * (Cout/G)*KH*KW; out = 2*(3-1) + 1 + 3 - 2 = 6
        OpGraph g = conv({1, 4, 3, 3}, {4, 2, 3, 3}, {1, 4, 6, 6}, 2, 1, true, 2);
        ops::OpSemantics s = semantics(g);
        QCOMPARE(s.cost.macs, int64_t(1 * 4 * 3 * 3 * 2 * 3 * 3));
        int64_t loopPoints = 1;
        for (const ops::LoopDim& loop : s.nests[0].loops)
            loopPoints *= loop.extent;
        QVERIFY(loopPoints > s.cost.macs); // the gather form overcounts strided outputs
        QCOMPARE(s.cost.flops, 2 * s.cost.macs);
    }

    void elementwiseFlops_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<qint64>("perElement");
        QTest::newRow("Relu") << QStringLiteral("Relu") << qint64(1);
        QTest::newRow("Clip") << QStringLiteral("Clip") << qint64(1);
        QTest::newRow("Cast") << QStringLiteral("Cast") << qint64(1);
        QTest::newRow("Exp") << QStringLiteral("Exp") << qint64(4);
        QTest::newRow("Sigmoid") << QStringLiteral("Sigmoid") << qint64(4);
        QTest::newRow("Erf") << QStringLiteral("Erf") << qint64(4);
        QTest::newRow("HardSwish") << QStringLiteral("HardSwish") << qint64(5);
        QTest::newRow("Gelu") << QStringLiteral("Gelu") << qint64(8);
    }
    void elementwiseFlops() {
        QFETCH(QString, type);
        QFETCH(qint64, perElement);
        OpGraph g = OpBuilder(type.toStdString()).input({2, 3, 4}).output({2, 3, 4}).build();
        QCOMPARE(costOf(g).flops, 24 * perElement);
        QCOMPARE(costOf(g).macs, int64_t(0));
    }

    void broadcastAddCountsOutputElements() {
        OpGraph g = OpBuilder("Add").input({2, 1, 4}).input({3, 1}).output({2, 3, 4}).build();
        QCOMPARE(costOf(g).flops, int64_t(24));
        OpGraph sum = OpBuilder("Sum").input({4}).input({4}).input({4}).output({4}).build();
        QCOMPARE(costOf(sum).flops, int64_t(4 * 2)); // two additions per element
    }

    void reductionFlops() {
        // one operation per element visited: the product of all loop extents
        OpGraph mean = OpBuilder("ReduceMean")
                           .input({2, 3, 4})
                           .output({2, 4})
                           .ints("axes", {1})
                           .i("keepdims", 0)
                           .build();
        QCOMPARE(costOf(mean).flops, int64_t(2 * 3 * 4));
        OpGraph pool = OpBuilder("MaxPool")
                           .input({1, 2, 8, 8})
                           .output({1, 2, 4, 4})
                           .ints("kernel_shape", {2, 2})
                           .ints("strides", {2, 2})
                           .ints("dilations", {1, 1})
                           .ints("pads", {0, 0, 0, 0})
                           .i("ceil_mode", 0)
                           .build();
        QCOMPARE(costOf(pool).flops, int64_t(2 * 4 * 4 * 2 * 2));
        QCOMPARE(costOf(pool).macs, int64_t(0));
    }

    void normalizationFlopsPerElement() {
        OpGraph softmax =
            OpBuilder("Softmax").input({2, 10}).output({2, 10}).ints("axes", {1}).build();
        QCOMPARE(costOf(softmax).flops, int64_t(20 * 8));
        OpGraph ln = OpBuilder("LayerNormalization")
                         .input({2, 10})
                         .input({10})
                         .output({2, 10})
                         .i("axis", 1)
                         .build();
        QCOMPARE(costOf(ln).flops, int64_t(20 * 7));
    }

    void injectiveAndOpaqueCostNoFlops() {
        OpGraph t =
            OpBuilder("Transpose").input({2, 3}).output({3, 2}).ints("perm", {1, 0}).build();
        QCOMPARE(costOf(t).flops, int64_t(0));
        OpGraph unknown = OpBuilder("NonMaxSuppression").input({2, 3}).output({5}).build();
        QCOMPARE(costOf(unknown).flops, int64_t(0));
        QCOMPARE(costOf(unknown).bytesRead, int64_t(2 * 3 * 4));
    }

    void bytesCountEachTensorOnce() {
        // x + x reads x once
        OpGraph twice = OpBuilder("Add").input({2, 3}).repeatInput(0).output({2, 3}).build();
        ops::OpCost cost = costOf(twice);
        QCOMPARE(cost.bytesRead, int64_t(2 * 3 * 4));
        QCOMPARE(cost.bytesWritten, int64_t(2 * 3 * 4));
        // Conv: X (f16) + W (f16) + B (f32), output f16
        OpGraph g = OpBuilder("Conv")
                        .input({1, 3, 4, 4}, ir::DType::Float16)
                        .input({2, 3, 1, 1}, ir::DType::Float16)
                        .input({2})
                        .output({1, 2, 4, 4}, ir::DType::Float16)
                        .ints("kernel_shape", {1, 1})
                        .ints("strides", {1, 1})
                        .ints("dilations", {1, 1})
                        .ints("pads", {0, 0, 0, 0})
                        .i("group", 1)
                        .build();
        cost = costOf(g);
        QCOMPARE(cost.bytesRead, int64_t(48 * 2 + 6 * 2 + 2 * 4));
        QCOMPARE(cost.bytesWritten, int64_t(32 * 2));
        // Split: every output counted
        OpGraph split = OpBuilder("Split")
                            .input({4, 6})
                            .output({4, 2})
                            .output({4, 4})
                            .i("axis", 1)
                            .ints("split", {2, 4})
                            .build();
        QCOMPARE(costOf(split).bytesWritten, int64_t(24 * 4));
    }
};

QTEST_GUILESS_MAIN(TestOpCost)
#include "test_op_cost.moc"
