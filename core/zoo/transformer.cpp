#include "zoo/transformer.h"

#include "zoo/layers.h"

#include <cmath>

namespace stagecraft::zoo {

namespace {

std::string reduceMeanLast(Net& net, const std::string& x, const std::string& name) {
    Added node = net.add("ReduceMean", {x}, name);
    node.node.attr("axes", std::vector<int64_t>{-1}).attr("keepdims", int64_t{1});
    return node.output;
}

} // namespace

std::string layerNorm(Net& net, const std::string& x, const std::string& scope, int64_t dim,
                      float eps, const std::string& output) {
    std::string mean = reduceMeanLast(net, x, scope + "/ReduceMean");
    std::string centered = binary(net, "Sub", x, mean, scope + "/Sub");
    std::string squared = binary(net, "Pow", centered, net.scalar(2.0f), scope + "/Pow");
    std::string variance = reduceMeanLast(net, squared, scope + "/ReduceMean");
    std::string shifted = binary(net, "Add", variance, net.scalar(eps), scope + "/Add");
    std::string deviation = unary(net, "Sqrt", shifted, scope + "/Sqrt");
    std::string normalized = binary(net, "Div", centered, deviation, scope + "/Div");
    std::string scaled =
        binary(net, "Mul", normalized, net.param(scope + ".weight", {dim}), scope + "/Mul");
    return binary(net, "Add", scaled, net.param(scope + ".bias", {dim}), scope + "/Add", output);
}

std::string gelu(Net& net, const std::string& x, const std::string& scope) {
    auto sqrt2 = static_cast<float>(std::sqrt(2.0));
    std::string divided = binary(net, "Div", x, net.scalar(sqrt2), scope + "/Div");
    std::string erf = unary(net, "Erf", divided, scope + "/Erf");
    std::string plusOne = binary(net, "Add", erf, net.scalar(1.0f), scope + "/Add");
    std::string product = binary(net, "Mul", x, plusOne, scope + "/Mul");
    return binary(net, "Mul", product, net.scalar(0.5f), scope + "/Mul");
}

std::string swish(Net& net, const std::string& x, const std::string& scope) {
    std::string gate = unary(net, "Sigmoid", x, scope + "/Sigmoid");
    return binary(net, "Mul", x, gate, scope + "/Mul");
}

std::string attention(Net& net, const AttentionShape& shape, const std::string& q,
                      const std::string& k, const std::string& v, const std::string& scope,
                      const std::string& mask) {
    SC_ASSERT(shape.heads > 0 && shape.hidden % shape.heads == 0, "hidden splits into heads");
    const std::vector<int64_t> split = {shape.batch, shape.seq, shape.heads, shape.headDim()};
    auto heads = [&](const std::string& x, const std::vector<int64_t>& perm) {
        std::string split4 = reshape(net, x, split, scope + "/Reshape");
        return transpose(net, split4, perm, scope + "/Transpose");
    };
    std::string qh = heads(q, {0, 2, 1, 3}); // [N,h,S,d]
    std::string kt = heads(k, {0, 2, 3, 1}); // [N,h,d,S]
    std::string vh = heads(v, {0, 2, 1, 3}); // [N,h,S,d]
    std::string scores = net.add("MatMul", {qh, kt}, scope + "/MatMul").output;
    auto scale = static_cast<float>(std::sqrt(static_cast<double>(shape.headDim())));
    scores = binary(net, "Div", scores, net.scalar(scale), scope + "/Div");
    if (!mask.empty())
        scores = binary(net, "Add", scores, mask, scope + "/Add");
    Added probs = net.add("Softmax", {scores}, scope + "/Softmax");
    probs.node.attr("axis", int64_t{-1});
    std::string context = net.add("MatMul", {probs.output, vh}, scope + "/MatMul").output;
    std::string merged = transpose(net, context, {0, 2, 1, 3}, scope + "/Transpose");
    return reshape(net, merged, {shape.batch, shape.seq, shape.hidden}, scope + "/Reshape");
}

} // namespace stagecraft::zoo
