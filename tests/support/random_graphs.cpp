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

#include "ir/weight.h"

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

using ir::Shape;
using ir::TensorId;
using Ints = std::vector<int64_t>;

/// Adds ops with their output tensors; names are "<Type>_<n>" and "t<n>".
class Builder {
public:
    explicit Builder(ir::Graph& graph)
        : g_(graph) {}

    TensorId input(const Shape& shape) {
        TensorId id =
            g_.addTensor("input" + std::to_string(inputs_.size()), ir::DType::Float32, shape);
        inputs_.push_back(id);
        return id;
    }

    /// A float weight that reads as zeros, computed (allocated) only when read.
    TensorId weight(const Shape& shape) {
        int64_t bytes = ir::elementCount(shape) * ir::dtypeSize(ir::DType::Float32);
        auto zeros = [bytes]() -> Expected<std::vector<std::byte>> {
            return std::vector<std::byte>(static_cast<size_t>(bytes));
        };
        return g_.addTensor("w" + std::to_string(weights_++), ir::DType::Float32, shape,
                            ir::makeDerivedWeight(bytes, "zeros", zeros));
    }

    /// A copy: references into the graph die when tensors are added.
    Shape shape(TensorId id) const { return g_.tensor(id).shape; }
    int ops() const { return static_cast<int>(g_.opCount()); }

    std::vector<TensorId> emit(const std::string& type, std::vector<TensorId> inputs,
                               const std::vector<Shape>& outputs, ir::Attributes attrs = {}) {
        ir::Op op;
        op.name = type + "_" + std::to_string(g_.opCount());
        op.type = type;
        op.attrs = std::move(attrs);
        op.inputs = std::move(inputs);
        for (const Shape& shape : outputs) {
            std::string name = std::to_string(g_.tensorCount());
            name.insert(name.begin(), 't'); // "t" + ... trips GCC 12's -Wrestrict
            op.outputs.push_back(g_.addTensor(std::move(name), ir::DType::Float32, shape));
        }
        std::vector<TensorId> results = op.outputs;
        g_.addOp(std::move(op));
        return results;
    }
    TensorId emit1(const std::string& type, std::vector<TensorId> inputs, const Shape& output,
                   ir::Attributes attrs = {}) {
        return emit(type, std::move(inputs), {output}, std::move(attrs))[0];
    }

    /// Graph inputs as added; outputs: every op output nobody reads.
    void finish() {
        g_.setInputs(inputs_);
        std::vector<TensorId> outputs;
        for (size_t i = 0; i < g_.tensorCount(); ++i) {
            const ir::Tensor& t = g_.tensor(static_cast<TensorId>(i));
            if (t.producer != ir::kNoOp && t.uses.empty())
                outputs.push_back(static_cast<TensorId>(i));
        }
        g_.setOutputs(std::move(outputs));
    }

private:
    ir::Graph& g_;
    std::vector<TensorId> inputs_;
    int weights_ = 0;
};

ir::Attributes attrs(std::initializer_list<std::pair<const char*, ir::AttrValue>> entries) {
    ir::Attributes a;
    for (const auto& [name, value] : entries)
        a.set(name, value);
    return a;
}

Shape broadcast(const Shape& a, const Shape& b) {
    Shape out(std::max(a.size(), b.size()), 1);
    for (size_t i = 0; i < out.size(); ++i) {
        int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
        int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
        SC_ASSERT(da == db || da == 1 || db == 1, "shapes do not broadcast");
        out[out.size() - 1 - i] = std::max(da, db);
    }
    return out;
}

int64_t windowOut(int64_t in, int64_t kernel, int64_t stride, int64_t pad) {
    return (in + 2 * pad - kernel) / stride + 1;
}

// --- one op each ----------------------------------------------------------

TensorId conv(Builder& b, TensorId x, int64_t cout, int64_t k, int64_t stride, int64_t pad,
              int64_t group, bool bias) {
    Shape in = b.shape(x);
    Shape out{in[0], cout, windowOut(in[2], k, stride, pad), windowOut(in[3], k, stride, pad)};
    std::vector<TensorId> inputs{x, b.weight({cout, in[1] / group, k, k})};
    if (bias)
        inputs.push_back(b.weight({cout}));
    return b.emit1("Conv", inputs, out,
                   attrs({{"dilations", Ints{1, 1}},
                          {"group", group},
                          {"kernel_shape", Ints{k, k}},
                          {"pads", Ints{pad, pad, pad, pad}},
                          {"strides", Ints{stride, stride}}}));
}

/// MaxPool or AveragePool; with ceil_mode the last window may hang over
/// (and is dropped when it would start in the end padding, as ONNX does).
TensorId pool(Builder& b, TensorId x, bool isMax, int64_t k, int64_t stride, int64_t pad,
              bool ceil) {
    Shape out = b.shape(x);
    for (size_t i = 2; i < 4; ++i) {
        int64_t span = out[i] + 2 * pad - k;
        int64_t extent = span / stride + 1;
        if (ceil) {
            extent = (span + stride - 1) / stride + 1;
            if ((extent - 1) * stride >= out[i] + pad)
                --extent;
        }
        out[i] = extent;
    }
    ir::Attributes a = attrs({{"ceil_mode", int64_t{ceil}},
                              {"dilations", Ints{1, 1}},
                              {"kernel_shape", Ints{k, k}},
                              {"pads", Ints{pad, pad, pad, pad}},
                              {"strides", Ints{stride, stride}}});
    if (!isMax)
        a.set("count_include_pad", int64_t{pad > 0 && stride == 1});
    return b.emit1(isMax ? "MaxPool" : "AveragePool", {x}, out, a);
}

TensorId unary(Builder& b, const char* type, TensorId x) {
    return b.emit1(type, {x}, b.shape(x));
}

TensorId binary(Builder& b, const char* type, TensorId x, TensorId y) {
    return b.emit1(type, {x, y}, broadcast(b.shape(x), b.shape(y)));
}

TensorId batchNorm(Builder& b, TensorId x) {
    int64_t c = b.shape(x)[1];
    return b.emit1("BatchNormalization",
                   {x, b.weight({c}), b.weight({c}), b.weight({c}), b.weight({c})}, b.shape(x),
                   attrs({{"epsilon", 1e-5}}));
}

TensorId globalAveragePool(Builder& b, TensorId x) {
    Shape in = b.shape(x);
    return b.emit1("GlobalAveragePool", {x}, {in[0], in[1], 1, 1});
}

/// MatMul of [.., M, K] by [.., K, N] (batch dims broadcast).
TensorId matmul(Builder& b, TensorId x, TensorId y) {
    Shape a = b.shape(x), c = b.shape(y);
    Shape batch = broadcast(Shape(a.begin(), a.end() - 2), Shape(c.begin(), c.end() - 2));
    batch.push_back(a[a.size() - 2]);
    batch.push_back(c.back());
    return b.emit1("MatMul", {x, y}, batch);
}

TensorId gemm(Builder& b, TensorId x, int64_t n, bool transB) {
    Shape a = b.shape(x);
    TensorId w = b.weight(transB ? Shape{n, a[1]} : Shape{a[1], n});
    return b.emit1(
        "Gemm", {x, w, b.weight({n})}, {a[0], n},
        attrs(
            {{"alpha", 1.0}, {"beta", 1.0}, {"transA", int64_t{0}}, {"transB", int64_t{transB}}}));
}

TensorId reshape(Builder& b, TensorId x, const Shape& shape) {
    SC_ASSERT(ir::elementCount(shape) == ir::elementCount(b.shape(x)), "reshape changes size");
    return b.emit1("Reshape", {x}, shape, attrs({{"shape", Ints(shape)}}));
}

TensorId flatten(Builder& b, TensorId x, int64_t axis) {
    Shape in = b.shape(x);
    auto mid = in.begin() + axis;
    Shape out{ir::elementCount(Shape(in.begin(), mid)), ir::elementCount(Shape(mid, in.end()))};
    return b.emit1("Flatten", {x}, out, attrs({{"axis", axis}}));
}

TensorId transpose(Builder& b, TensorId x, const Ints& perm) {
    Shape in = b.shape(x), out;
    for (int64_t p : perm)
        out.push_back(in[static_cast<size_t>(p)]);
    return b.emit1("Transpose", {x}, out, attrs({{"perm", perm}}));
}

TensorId concat(Builder& b, const std::vector<TensorId>& parts, int64_t axis) {
    Shape out = b.shape(parts[0]);
    auto a = static_cast<size_t>(axis);
    for (size_t i = 1; i < parts.size(); ++i)
        out[a] += b.shape(parts[i])[a];
    return b.emit1("Concat", parts, out, attrs({{"axis", axis}}));
}

std::vector<TensorId> split(Builder& b, TensorId x, int64_t axis, const Ints& sizes) {
    std::vector<Shape> outs;
    for (int64_t size : sizes) {
        outs.push_back(b.shape(x));
        outs.back()[static_cast<size_t>(axis)] = size;
    }
    return b.emit("Split", {x}, outs, attrs({{"axis", axis}, {"split", sizes}}));
}

/// Slice of one axis: [start, end) with a positive step; other dims whole.
TensorId slice(Builder& b, TensorId x, int64_t axis, int64_t start, int64_t end, int64_t step) {
    Shape in = b.shape(x), out = in;
    Ints starts(in.size(), 0), ends(in), steps(in.size(), 1);
    auto a = static_cast<size_t>(axis);
    starts[a] = start;
    ends[a] = end;
    steps[a] = step;
    out[a] = (end - start + step - 1) / step;
    return b.emit1("Slice", {x}, out,
                   attrs({{"ends", ends}, {"starts", starts}, {"steps", steps}}));
}

TensorId softmax(Builder& b, TensorId x, int64_t axis) {
    return b.emit1("Softmax", {x}, b.shape(x), attrs({{"axes", Ints{axis}}}));
}

TensorId reduceMean(Builder& b, TensorId x, const Ints& axes, bool keepdims) {
    Shape in = b.shape(x), out;
    for (size_t i = 0; i < in.size(); ++i) {
        bool reduced = std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) != axes.end();
        if (!reduced)
            out.push_back(in[i]);
        else if (keepdims)
            out.push_back(1);
    }
    return b.emit1("ReduceMean", {x}, out,
                   attrs({{"axes", axes}, {"keepdims", int64_t{keepdims}}}));
}

/// Resize of the spatial dims of an image by \p scale (2 or 0.5).
TensorId resize(Builder& b, TensorId x, double scale, bool linear) {
    Shape out = b.shape(x);
    for (size_t i = 2; i < 4; ++i)
        out[i] = static_cast<int64_t>(static_cast<double>(out[i]) * scale);
    return b.emit1("Resize", {x}, out,
                   attrs({{"coordinate_transformation_mode",
                           std::string(linear ? "half_pixel" : "asymmetric")},
                          {"cubic_coeff_a", -0.75},
                          {"exclude_outside", int64_t{0}},
                          {"extrapolation_value", 0.0},
                          {"mode", std::string(linear ? "linear" : "nearest")},
                          {"nearest_mode", std::string("floor")},
                          {"scales", std::vector<double>{1.0, 1.0, scale, scale}}}));
}

/// Multi-head self-attention with a residual Add on [N, S, H]: 17 ops
/// (projections, heads split by Reshape/Transpose, scaled scores, Softmax).
TensorId attentionBlock(Builder& b, TensorId x, int64_t heads) {
    Shape s = b.shape(x);
    Shape split4{s[0], s[1], heads, s[2] / heads};
    auto project = [&](const Ints& perm) {
        TensorId y = matmul(b, x, b.weight({s[2], s[2]}));
        return transpose(b, reshape(b, y, split4), perm);
    };
    TensorId q = project({0, 2, 1, 3}), k = project({0, 2, 3, 1}), v = project({0, 2, 1, 3});
    TensorId scale = b.weight({1});
    TensorId scores = binary(b, "Mul", matmul(b, q, k), scale);
    TensorId context = matmul(b, softmax(b, scores, 3), v);
    context = reshape(b, transpose(b, context, {0, 2, 1, 3}), s);
    return binary(b, "Add", x, matmul(b, context, b.weight({s[2], s[2]})));
}

// --- random layers and blocks ------------------------------------------------

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

// --- the synthetic benchmark graph -----------------------------------------

namespace {

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
