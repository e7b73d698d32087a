// The synthetic benchmark graph (random_graphs.h, syntheticGraph): a CNN
// stem, then cycles of residual stages, transformer layers and an
// up-sampling with a long skip, cut to exactly the op count asked for.
// Shapes stay bounded, so the work per op does not grow with the size.

#include "graph_ops.h"
#include "random_graphs.h"

#include <algorithm>
#include <string>

namespace stagecraft::test {

namespace {

using namespace graphops;

/// One cycle of the synthetic network, step by step, each step with an exact
/// op count. A cycle starts and ends at [1, 64, 56, 56]: residual stages down
/// to 7x7 (ResNet), two transformer layers on the 49 positions (ViT), then
/// an 8x up-sampling and a long skip back to the cycle's input (U-Net).
class SyntheticNet {
public:
    static constexpr int kSteps = 14;

    SyntheticNet(Builder& b, Rng& rng)
        : b_(b)
        , rng_(rng) {}

    /// Conv 7x7/2, BatchNorm, Relu, MaxPool 3x3/2: [1,3,224,224] -> [1,64,56,56].
    TensorId stem(TensorId x) {
        TensorId y = convBn(x, 64, 7, 2, true);
        return pool(b_, y, true, 3, 2, 1, false);
    }
    static constexpr int kStemCost = 4;

    /// Draws the variant of the next cycle; \p x is its input.
    void startCycle(TensorId x) {
        cycleInput_ = x;
        bottleneck_ = rng_.chance(50);
        squeeze_ = rng_.chance(50);
        heads_ = rng_.chance(50) ? 8 : 4;
        hidden_ = rng_.chance(50) ? 1024 : 2048;
    }

    int cost(int step) const {
        static constexpr int costs[kSteps] = {7, 7, 9, 7, 9, 7, 9, 2, 17, 4, 17, 4, 2, 5};
        if (step == 1 && bottleneck_)
            return 10;
        if (step == 5 && squeeze_)
            return 6;
        return costs[step];
    }

    TensorId emit(int step, TensorId x) {
        switch (step) {
        case 1:
            return bottleneck_ ? bottleneck(x) : basic(x);
        case 2:
        case 4:
        case 6:
            return down(x, b_.shape(x)[1] * 2);
        case 5:
            return squeeze_ ? squeezeExcite(x) : basic(x);
        case 7: {
            Shape s = b_.shape(x);
            return transpose(b_, reshape(b_, x, {s[0], s[1], s[2] * s[3]}), {0, 2, 1});
        }
        case 8:
        case 10:
            return attentionBlock(b_, x, heads_);
        case 9:
        case 11: {
            int64_t width = b_.shape(x)[2];
            TensorId y = unary(b_, "Relu", matmul(b_, x, b_.weight({width, hidden_})));
            return binary(b_, "Add", x, matmul(b_, y, b_.weight({hidden_, width})));
        }
        case 12: {
            Shape s = b_.shape(x);
            return reshape(b_, transpose(b_, x, {0, 2, 1}), {s[0], s[2], 7, s[1] / 7});
        }
        case 13: {
            TensorId up = resize(b_, x, 8.0, false);
            TensorId y = convBn(up, b_.shape(cycleInput_)[1], 1, 1, false);
            return unary(b_, "Relu", binary(b_, "Add", y, cycleInput_));
        }
        default:
            return basic(x);
        }
    }

private:
    TensorId convBn(TensorId x, int64_t cout, int64_t k, int64_t stride, bool relu) {
        TensorId y = batchNorm(b_, conv(b_, x, cout, k, stride, k / 2, 1, false));
        return relu ? unary(b_, "Relu", y) : y;
    }

    /// ResNet basic block: 7 ops.
    TensorId basic(TensorId x) {
        int64_t c = b_.shape(x)[1];
        TensorId y = convBn(convBn(x, c, 3, 1, true), c, 3, 1, false);
        return unary(b_, "Relu", binary(b_, "Add", y, x));
    }

    /// ResNet bottleneck block (1x1 reduce, 3x3, 1x1 expand): 10 ops.
    TensorId bottleneck(TensorId x) {
        int64_t c = b_.shape(x)[1];
        TensorId y = convBn(convBn(x, c / 4, 1, 1, true), c / 4, 3, 1, true);
        y = convBn(y, c, 1, 1, false);
        return unary(b_, "Relu", binary(b_, "Add", y, x));
    }

    /// Down-sampling block with a projection shortcut: 9 ops.
    TensorId down(TensorId x, int64_t cout) {
        TensorId y = convBn(convBn(x, cout, 3, 2, true), cout, 3, 1, false);
        TensorId shortcut = convBn(x, cout, 1, 2, false);
        return unary(b_, "Relu", binary(b_, "Add", y, shortcut));
    }

    /// Squeeze-and-excitation gate: 6 ops.
    TensorId squeezeExcite(TensorId x) {
        int64_t c = b_.shape(x)[1];
        TensorId s = globalAveragePool(b_, x);
        s = unary(b_, "Relu", conv(b_, s, c / 16, 1, 1, 0, 1, true));
        s = unary(b_, "Sigmoid", conv(b_, s, c, 1, 1, 0, 1, true));
        return binary(b_, "Mul", x, s);
    }

    Builder& b_;
    Rng& rng_;
    TensorId cycleInput_ = ir::kNoTensor;
    bool bottleneck_ = false;
    bool squeeze_ = false;
    int64_t heads_ = 8;
    int64_t hidden_ = 1024;
};

} // namespace

ir::Graph syntheticGraph(int ops, uint64_t seed) {
    SC_ASSERT(ops >= 1, "a synthetic graph needs at least one op");
    Rng rng(seed);
    ir::Graph graph;
    graph.info.name = "synthetic-" + std::to_string(ops) + "-" + std::to_string(seed);
    graph.info.producer = "stagecraft random_graphs";
    Builder b(graph);
    SyntheticNet net(b, rng);
    TensorId x = b.input({1, 3, 224, 224});
    if (ops >= SyntheticNet::kStemCost) {
        x = net.stem(x);
        for (int step = 0;; step = (step + 1) % SyntheticNet::kSteps) {
            if (step == 0)
                net.startCycle(x);
            if (b.ops() + net.cost(step) > ops)
                break;
            int before = b.ops();
            x = net.emit(step, x);
            SC_ASSERT(b.ops() - before == net.cost(step), "a synthetic step miscounted its ops");
        }
    }
    while (b.ops() < ops)
        x = unary(b, "Relu", x);
    b.finish();
    return graph;
}

} // namespace stagecraft::test
