// Seeded random graphs in canonical form (docs/ir.md, docs/op-semantics.md)
// for the scheduling property tests and benchmarks.
//
// Note on the generator: values live in one of three domains chosen by rank,
// NCHW images (rank 4), [N, S, H] sequences (rank 3) and [N, F] vectors
// (rank 2). A layer is one op that maps a value of a domain to a value
// (possibly of another domain); `keep` layers return the input's shape, so
// that paths can be joined by Add. Blocks build GraphTurbo Fig. 4's patterns
// out of layers: straight chains, diamonds (fork, paths, Add/Concat join),
// branches (residual and squeeze-excitation shortcuts) and Split fans. Each
// block is told its op budget up front and never exceeds it, and steps go on
// until the budget is spent, so a graph has exactly the ops asked for.
// Extents stay small (inputs of 4..64 positions, up-sampling only up to 64,
// channels and widths of a few hundred) so that the scheduler's per-dim
// search of split factors (GraphTurbo §3.1) stays cheap in Debug builds.
//
// Determinism: every random draw is a statement of its own or the only
// draw of a call, because C++ leaves the order in which function arguments
// are evaluated unspecified (two draws in one call differ between compilers).
// Weights are derived weights of the right byte size whose recipe yields
// zeros: nothing is allocated unless someone reads them (scheduling never does).

#include "random_graphs.h"

#include "graph_ops.h"

#include <algorithm>
#include <array>
#include <string>

namespace stagecraft::test {

int64_t Rng::uniform(int64_t lo, int64_t hi) {
    SC_ASSERT(lo <= hi, "uniform() needs lo <= hi");
    uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    if (range == 0) // the whole 64-bit range
        return static_cast<int64_t>(engine_());
    uint64_t reject = (0 - range) % range; // 2^64 mod range: the biased low draws
    uint64_t draw = engine_();
    while (draw < reject)
        draw = engine_();
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + draw % range);
}

std::string_view graphKindName(GraphKind kind) {
    switch (kind) {
    case GraphKind::Chain:
        return "chain";
    case GraphKind::Diamond:
        return "diamond";
    case GraphKind::Branch:
        return "branch";
    case GraphKind::MultiOutput:
        return "multi-output";
    case GraphKind::Mix:
        return "mix";
    }
    return "?";
}

std::span<const GraphKind> graphKinds() {
    static constexpr std::array kinds{GraphKind::Chain, GraphKind::Diamond, GraphKind::Branch,
                                      GraphKind::MultiOutput, GraphKind::Mix};
    return kinds;
}

namespace {

using namespace graphops;

/// Draws layers and blocks within an op budget (ops asked - ops so far).
class Generator {
public:
    Generator(Builder& b, Rng& rng, int maxOps)
        : b_(b)
        , rng_(rng)
        , maxOps_(maxOps) {}

    int budget() const { return maxOps_ - b_.ops(); }

    TensorId randomInput() {
        int64_t n = rng_.uniform(1, 16);
        int64_t domain = rng_.uniform(0, 9);
        if (domain < 6) {
            int64_t h = rng_.uniform(4, 64);
            int64_t w = rng_.chance(50) ? h : rng_.uniform(4, 64);
            return b_.input({n, pick({1, 3, 4, 8, 16, 32, 64}), h, w});
        }
        if (domain < 9)
            return b_.input({n, rng_.uniform(4, 64), pick({8, 16, 24, 32, 48, 64, 96, 128})});
        return b_.input({n, rng_.uniform(16, 512)});
    }

    /// One step of a graph of \p kind; emits at least one op and at most budget().
    TensorId step(GraphKind kind, TensorId x) {
        switch (kind) {
        case GraphKind::Chain:
            return budget() >= 2 && rng_.chance(10) ? transition(x) : layer(x, false);
        case GraphKind::Diamond:
            return budget() >= 3 && !rng_.chance(20) ? diamond(x) : layer(x, false);
        case GraphKind::Branch:
            return budget() >= 2 && !rng_.chance(20) ? branch(x) : layer(x, false);
        case GraphKind::MultiOutput:
            return budget() >= 2 && !rng_.chance(20) ? multiOutput(x) : layer(x, false);
        case GraphKind::Mix:
            return mixStep(x);
        }
        return layer(x, false);
    }

private:
    int64_t pick(std::initializer_list<int64_t> values) {
        return rng_.pick(std::vector<int64_t>(values));
    }
    size_t rank(TensorId x) const { return b_.shape(x).size(); }
    int64_t minSpatial(TensorId x) const {
        Shape s = b_.shape(x);
        return std::min(s[2], s[3]);
    }

    TensorId mixStep(TensorId x) {
        int64_t choice = rng_.uniform(0, 9);
        if (choice == 0 && budget() >= 17 && rank(x) == 3)
            return attention(x);
        if (choice == 1 && budget() >= 3 && rank(x) == 3)
            return sequenceGemm(x);
        if (choice == 2 && budget() >= 2 && rng_.chance(50))
            return transition(x);
        if (choice == 3 && budget() >= 3)
            return diamond(x);
        if (choice == 4 && budget() >= 2)
            return branch(x);
        if (choice == 5 && budget() >= 2)
            return multiOutput(x);
        return layer(x, false);
    }

    /// A constant the shape of \p x broadcasts against, for Add and Mul.
    TensorId broadcastOperand(TensorId x) {
        Shape s = b_.shape(x);
        int64_t last = s.back();
        switch (rng_.uniform(0, 3)) {
        case 0:
            return b_.weight({last});
        case 1:
            return b_.weight({1});
        case 2:
            if (s.size() == 4)
                return b_.weight({s[1], 1, 1});
            return b_.weight(Shape(s.begin() + 1, s.end()));
        default:
            if (s.size() == 4)
                return b_.weight({1, s[1], 1, 1});
            return b_.weight({1, last});
        }
    }

    /// A shape-keeping op that any domain has.
    TensorId commonKeep(TensorId x) {
        switch (rng_.uniform(0, 3)) {
        case 0:
            return unary(b_, "Relu", x);
        case 1:
            return unary(b_, "Sigmoid", x);
        default: {
            TensorId c = broadcastOperand(x);
            bool add = rng_.chance(50);
            return rng_.chance(50) ? binary(b_, add ? "Add" : "Mul", x, c)
                                   : binary(b_, add ? "Add" : "Mul", c, x);
        }
        }
    }

    /// A channel count for a new conv: any value, or a multiple of \p group.
    int64_t channels(int64_t group) {
        int64_t c = pick({4, 8, 16, 24, 32, 48, 64, 96, 128});
        return group == 1 ? c : group * std::max<int64_t>(1, c / group);
    }

    TensorId imageConv(TensorId x, bool keep) {
        Shape s = b_.shape(x);
        int64_t cin = s[1], k = pick({1, 3}), stride = 1, pad = k / 2;
        int64_t group = 1;
        int64_t groupKind = rng_.uniform(0, 3);
        if (groupKind == 1)
            group = cin; // depthwise
        else if (groupKind == 2 && cin % 4 == 0)
            group = pick({2, 4});
        int64_t cout = cin;
        if (!keep) {
            cout = group == cin ? cin * pick({1, 2}) : channels(group);
            if (minSpatial(x) >= 8 && rng_.chance(40))
                stride = 2;
            if (k == 3 && minSpatial(x) >= 6 && rng_.chance(20))
                pad = 0;
        }
        return conv(b_, x, cout, k, stride, pad, group, rng_.chance(50));
    }

    TensorId imageLayer(TensorId x, bool keep) {
        Shape s = b_.shape(x);
        int64_t choice = rng_.uniform(0, keep ? 6 : 13);
        switch (choice) {
        case 0:
            return commonKeep(x);
        case 1:
            return batchNorm(b_, x);
        case 2:
        case 3:
            return imageConv(x, keep);
        case 4:
            return softmax(b_, x, rng_.chance(70) ? 1 : 3);
        case 5:
            return pool(b_, x, rng_.chance(50), 3, 1, 1, false);
        case 6:
            return commonKeep(x);
        case 7:
            if (minSpatial(x) >= 8) {
                bool isMax = rng_.chance(50);
                int64_t k = pick({2, 3});
                return pool(b_, x, isMax, k, 2, 0, rng_.chance(40));
            }
            break;
        case 8:
            if (std::max(s[2], s[3]) <= 32)
                return resize(b_, x, 2.0, rng_.chance(50));
            if (minSpatial(x) >= 8)
                return resize(b_, x, 0.5, false);
            break;
        case 9: {
            int64_t axis = rng_.uniform(1, 3), extent = s[static_cast<size_t>(axis)];
            if (extent >= 4) {
                int64_t start = rng_.uniform(0, extent / 4);
                int64_t end = extent - rng_.uniform(0, extent / 4);
                return slice(b_, x, axis, start, end, pick({1, 1, 2}));
            }
            break;
        }
        case 10:
            return transpose(b_, x, {0, 1, 3, 2});
        case 11:
            if (rng_.chance(30))
                return reduceMean(b_, x, {2, 3}, false); // to a vector
            return imageConv(x, false);
        default:
            return imageConv(x, false);
        }
        return commonKeep(x);
    }

    TensorId sequenceLayer(TensorId x, bool keep) {
        Shape s = b_.shape(x);
        int64_t choice = rng_.uniform(0, keep ? 4 : 10);
        switch (choice) {
        case 0:
        case 1:
            return commonKeep(x);
        case 2:
            return softmax(b_, x, rng_.chance(80) ? 2 : 1);
        case 3:
            return matmul(b_, x, b_.weight({s[2], s[2]}));
        case 4:
            return batchNorm(b_, x);
        case 5:
        case 6:
            return matmul(b_, x, b_.weight({s[2], pick({16, 32, 48, 64, 96, 128})}));
        case 7:
            return transpose(b_, x, {0, 2, 1});
        case 8: {
            int64_t axis = rng_.uniform(1, 2), extent = s[static_cast<size_t>(axis)];
            if (extent >= 4) {
                int64_t start = rng_.uniform(0, extent / 4);
                return slice(b_, x, axis, start, extent, pick({1, 2}));
            }
            break;
        }
        case 9:
            return rng_.chance(50) ? reduceMean(b_, x, {2}, true) : reduceMean(b_, x, {1}, false);
        default:
            if (s[1] * s[2] <= 4096)
                return flatten(b_, x, 1);
        }
        return commonKeep(x);
    }

    TensorId vectorLayer(TensorId x, bool keep) {
        Shape s = b_.shape(x);
        int64_t choice = rng_.uniform(0, keep ? 4 : 7);
        switch (choice) {
        case 0:
        case 1:
            return commonKeep(x);
        case 2:
            return softmax(b_, x, 1);
        case 3:
            return gemm(b_, x, s[1], rng_.chance(50));
        case 4:
            return batchNorm(b_, x);
        case 5: {
            int64_t n = pick({16, 32, 64, 128, 256, 512});
            return gemm(b_, x, n, rng_.chance(50));
        }
        case 6:
            return matmul(b_, x, b_.weight({s[1], pick({16, 32, 64, 128})}));
        default:
            for (int64_t k : {16, 8, 4})
                if (s[1] % k == 0 && s[1] / k <= 64)
                    return reshape(b_, x, {s[0], s[1] / k, k}); // to a sequence
        }
        return commonKeep(x);
    }

    /// One op; with \p keep its output has the input's shape.
    TensorId layer(TensorId x, bool keep) {
        switch (rank(x)) {
        case 4:
            return imageLayer(x, keep);
        case 3:
            return sequenceLayer(x, keep);
        default:
            return vectorLayer(x, keep);
        }
    }

    /// One op changing only the size of \p axis (concatAxis()).
    TensorId axisLayer(TensorId x) {
        Shape s = b_.shape(x);
        if (s.size() == 4) {
            int64_t k = pick({1, 3});
            return conv(b_, x, channels(1), k, 1, k / 2, 1, true);
        }
        if (s.size() == 3)
            return matmul(b_, x, b_.weight({s[2], pick({16, 32, 64})}));
        int64_t n = pick({16, 32, 64});
        return gemm(b_, x, n, rng_.chance(50));
    }
    static int64_t concatAxis(size_t rank) { return rank == 3 ? 2 : 1; }

    /// Two ops moving to another domain.
    TensorId transition(TensorId x) {
        Shape s = b_.shape(x);
        if (s.size() == 4) {
            if (s[2] * s[3] <= 64 && rng_.chance(60)) {
                TensorId flat = reshape(b_, x, {s[0], s[1], s[2] * s[3]});
                return transpose(b_, flat, {0, 2, 1});
            }
            return flatten(b_, globalAveragePool(b_, x), 1);
        }
        if (s.size() == 3) {
            int64_t a = 1;
            for (int64_t i = 1; i * i <= s[1]; ++i)
                if (s[1] % i == 0)
                    a = i;
            TensorId t = transpose(b_, x, {0, 2, 1});
            return reshape(b_, t, {s[0], s[2], a, s[1] / a});
        }
        return layer(layer(x, false), false);
    }

    /// A fork into paths joined by a chain of Adds or one Concat.
    TensorId diamond(TensorId x) {
        int64_t axis = concatAxis(rank(x));
        int64_t extent = b_.shape(x)[static_cast<size_t>(axis)];
        bool useConcat = extent * 4 <= 256 && rng_.chance(50);
        // Every path but the first has at least one op; the join costs 1 or paths - 1.
        int64_t paths = rng_.uniform(2, std::min(4, useConcat ? budget() - 1 : (budget() + 1) / 2));
        int64_t joinCost = useConcat ? 1 : paths - 1;
        int64_t room = budget() - joinCost;
        std::vector<TensorId> ends;
        for (int64_t p = 0; p < paths; ++p) {
            int64_t pathsLeft = paths - p - 1;
            int64_t most = std::min<int64_t>(3, room - pathsLeft);
            int64_t length = p == 0 && rng_.chance(30) ? 0 : rng_.uniform(1, most);
            room -= length;
            TensorId y = x;
            for (int64_t i = 0; i < length; ++i)
                y = useConcat && rng_.chance(40) ? axisLayer(y) : layer(y, true);
            ends.push_back(y);
        }
        if (useConcat)
            return concat(b_, ends, axis);
        TensorId sum = ends[0];
        for (size_t i = 1; i < ends.size(); ++i)
            sum = binary(b_, "Add", sum, ends[i]);
        return sum;
    }

    /// A path and a shortcut: residual (Add), projection, or a gate (Mul).
    TensorId branch(TensorId x) {
        Shape s = b_.shape(x);
        int64_t variant = rng_.uniform(0, 3);
        if (variant == 1 && s.size() == 4 && minSpatial(x) >= 8 && budget() >= 6) {
            int64_t cout = channels(1);
            TensorId y = conv(b_, x, cout, 3, 2, 1, 1, false);
            y = unary(b_, "Relu", batchNorm(b_, y));
            y = conv(b_, y, cout, 3, 1, 1, 1, true);
            return binary(b_, "Add", y, conv(b_, x, cout, 1, 2, 0, 1, true));
        }
        if (variant == 2 && s.size() == 4 && budget() >= 6) {
            TensorId squeeze =
                rng_.chance(50) ? globalAveragePool(b_, x) : reduceMean(b_, x, {2, 3}, true);
            int64_t reduced = std::max<int64_t>(1, s[1] / 4);
            TensorId y = unary(b_, "Relu", conv(b_, squeeze, reduced, 1, 1, 0, 1, true));
            y = unary(b_, "Sigmoid", conv(b_, y, s[1], 1, 1, 0, 1, true));
            return binary(b_, "Mul", x, y);
        }
        if (variant == 3 && s.size() == 3 && budget() >= 3) {
            TensorId gate = unary(b_, "Sigmoid", reduceMean(b_, x, {2}, true));
            return binary(b_, "Mul", gate, x);
        }
        int64_t length = rng_.uniform(1, std::min(4, budget() - 1));
        TensorId y = x;
        for (int64_t i = 0; i < length; ++i)
            y = layer(y, true);
        return rng_.chance(50) ? binary(b_, "Add", x, y) : binary(b_, "Add", y, x);
    }

    /// Split into parts, short paths on some, Concat of some of them.
    TensorId multiOutput(TensorId x) {
        Shape s = b_.shape(x);
        int64_t axis = s.size() == 2 ? 1 : rng_.uniform(1, static_cast<int64_t>(s.size()) - 1);
        int64_t extent = s[static_cast<size_t>(axis)];
        if (extent < 2)
            return layer(x, false);
        int64_t parts = rng_.uniform(2, std::min<int64_t>(4, extent));
        Ints sizes(static_cast<size_t>(parts), 1);
        for (int64_t rest = extent - parts; rest > 0; --rest)
            ++sizes[static_cast<size_t>(rng_.uniform(0, parts - 1))];
        std::vector<TensorId> outs = split(b_, x, axis, sizes);
        bool join = budget() >= 1 && rng_.chance(75);
        std::vector<TensorId> joined;
        for (TensorId part : outs) {
            int64_t room = budget() - (join ? 1 : 0);
            int64_t length = room <= 0 ? 0 : rng_.uniform(0, std::min<int64_t>(2, room));
            for (int64_t i = 0; i < length; ++i)
                part = layer(part, true);
            if (!join || rng_.chance(80) || joined.empty())
                joined.push_back(part);
        }
        if (!join || joined.size() < 2)
            return joined[0];
        return concat(b_, joined, axis);
    }

    TensorId attention(TensorId x) {
        int64_t width = b_.shape(x)[2], heads = 1;
        for (int64_t h : {8, 4, 2})
            if (width % h == 0 && rng_.chance(50)) {
                heads = h;
                break;
            }
        return attentionBlock(b_, x, heads);
    }

    /// Gemm on a sequence through 2-D reshapes: 3 ops.
    TensorId sequenceGemm(TensorId x) {
        Shape s = b_.shape(x);
        int64_t n = pick({16, 32, 64, 128});
        TensorId rows = reshape(b_, x, {s[0] * s[1], s[2]});
        TensorId y = gemm(b_, rows, n, rng_.chance(50));
        return reshape(b_, y, {s[0], s[1], n});
    }

    Builder& b_;
    Rng& rng_;
    int maxOps_;
};

} // namespace

ir::Graph randomGraph(uint64_t seed, const RandomGraphOptions& options) {
    SC_ASSERT(options.ops >= 1, "a random graph needs at least one op");
    Rng rng(seed);
    ir::Graph graph;
    graph.info.name = std::string(graphKindName(options.kind)) + "-" + std::to_string(seed);
    graph.info.producer = "stagecraft random_graphs";
    Builder b(graph);
    Generator gen(b, rng, options.ops);
    TensorId x = gen.randomInput();
    while (gen.budget() > 0)
        x = gen.step(options.kind, x);
    b.finish();
    return graph;
}

} // namespace stagecraft::test
