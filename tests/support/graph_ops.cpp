// The ops of the seeded test graphs (graph_ops.h): each computes its output
// shape as the importer's shape inference would and adds the op in canonical
// form, weights as zero-reading derived weights (never allocated unless read).

#include "graph_ops.h"

#include <algorithm>

namespace stagecraft::test::graphops {

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

} // namespace stagecraft::test::graphops
