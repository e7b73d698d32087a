#include "zoo/layers.h"

namespace stagecraft::zoo {

ConvSpec conv2d(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t pad, bool bias) {
    ConvSpec spec;
    spec.in = in;
    spec.out = out;
    spec.kernel = {kernel, kernel};
    spec.stride = stride;
    spec.pads = {pad, pad, pad, pad};
    spec.bias = bias;
    return spec;
}

ConvSpec conv2dRect(int64_t in, int64_t out, int64_t kh, int64_t kw, int64_t ph, int64_t pw) {
    ConvSpec spec;
    spec.in = in;
    spec.out = out;
    spec.kernel = {kh, kw};
    spec.pads = {ph, pw, ph, pw};
    return spec;
}

std::string conv(Net& net, const std::string& x, const std::string& scope, const ConvSpec& spec) {
    SC_ASSERT(spec.groups > 0 && spec.in % spec.groups == 0 && spec.out % spec.groups == 0,
              "conv channels divide into groups");
    auto rank = static_cast<int64_t>(spec.kernel.size());
    ir::Shape weightShape = {spec.out, spec.in / spec.groups};
    weightShape.insert(weightShape.end(), spec.kernel.begin(), spec.kernel.end());
    std::vector<std::string> inputs = {x, net.param(scope + ".weight", weightShape)};
    if (spec.bias)
        inputs.push_back(net.param(scope + ".bias", {spec.out}));
    std::vector<int64_t> pads =
        spec.pads.empty() ? std::vector<int64_t>(static_cast<size_t>(2 * rank), 0) : spec.pads;
    SC_ASSERT(static_cast<int64_t>(pads.size()) == 2 * rank, "two pads per spatial dimension");
    Added node = net.add("Conv", inputs, scope);
    node.node.attr("dilations", std::vector<int64_t>(static_cast<size_t>(rank), 1))
        .attr("group", spec.groups)
        .attr("kernel_shape", spec.kernel)
        .attr("pads", pads)
        .attr("strides", std::vector<int64_t>(static_cast<size_t>(rank), spec.stride));
    return node.output;
}

std::string batchNorm(Net& net, const std::string& x, const std::string& scope, int64_t channels,
                      float epsilon) {
    std::vector<std::string> inputs = {
        x,
        net.param(scope + ".weight", {channels}),
        net.param(scope + ".bias", {channels}),
        net.buffer(scope + ".running_mean", {channels}),
        net.positiveBuffer(scope + ".running_var", {channels}),
    };
    Added node = net.add("BatchNormalization", inputs, scope);
    node.node.attr("epsilon", epsilon).attr("momentum", 0.9f);
    return node.output;
}

std::string relu(Net& net, const std::string& x, const std::string& name) {
    return unary(net, "Relu", x, name);
}

std::string relu6(Net& net, const std::string& x, const std::string& name) {
    return net.add("Clip", {x, net.scalar(0.0f), net.scalar(6.0f)}, name).output;
}

std::string linear(Net& net, const std::string& x, const std::string& scope, int64_t in,
                   int64_t out, const std::string& output) {
    std::string product =
        net.add("MatMul", {x, net.param(scope + ".weight", {in, out})}, scope + "/MatMul").output;
    return binary(net, "Add", net.param(scope + ".bias", {out}), product, scope + "/Add", output);
}

std::string gemm(Net& net, const std::string& x, const std::string& scope, int64_t in, int64_t out,
                 const std::string& output) {
    std::vector<std::string> inputs = {x, net.param(scope + ".weight", {out, in}),
                                       net.param(scope + ".bias", {out})};
    Added node = net.add("Gemm", inputs, scope, output);
    node.node.attr("alpha", 1.0f).attr("beta", 1.0f).attr("transB", int64_t{1});
    return node.output;
}

std::string binary(Net& net, const std::string& opType, const std::string& a, const std::string& b,
                   const std::string& name, const std::string& output) {
    return net.add(opType, {a, b}, name, output).output;
}

std::string unary(Net& net, const std::string& opType, const std::string& x,
                  const std::string& name, const std::string& output) {
    return net.add(opType, {x}, name, output).output;
}

std::string maxPool(Net& net, const std::string& x, const std::string& name, int64_t kernel,
                    int64_t stride, int64_t pad, bool ceilMode) {
    Added node = net.add("MaxPool", {x}, name);
    node.node.attr("ceil_mode", int64_t{ceilMode ? 1 : 0})
        .attr("kernel_shape", std::vector<int64_t>{kernel, kernel})
        .attr("pads", std::vector<int64_t>{pad, pad, pad, pad})
        .attr("strides", std::vector<int64_t>{stride, stride});
    return node.output;
}

std::string averagePool(Net& net, const std::string& x, const std::string& name, int64_t kernel,
                        int64_t stride, int64_t pad, bool countIncludePad) {
    Added node = net.add("AveragePool", {x}, name);
    node.node.attr("ceil_mode", int64_t{0})
        .attr("count_include_pad", int64_t{countIncludePad ? 1 : 0})
        .attr("kernel_shape", std::vector<int64_t>{kernel, kernel})
        .attr("pads", std::vector<int64_t>{pad, pad, pad, pad})
        .attr("strides", std::vector<int64_t>{stride, stride});
    return node.output;
}

std::string poolAndFlatten(Net& net, const std::string& x, const std::string& scope) {
    std::string pooled = unary(net, "GlobalAveragePool", x, scope + "/GlobalAveragePool");
    Added flat = net.add("Flatten", {pooled}, scope + "/Flatten");
    flat.node.attr("axis", int64_t{1});
    return flat.output;
}

std::string reshape(Net& net, const std::string& x, const std::vector<int64_t>& shape,
                    const std::string& name) {
    return net.add("Reshape", {x, net.ints(shape)}, name).output;
}

std::string transpose(Net& net, const std::string& x, const std::vector<int64_t>& perm,
                      const std::string& name) {
    Added node = net.add("Transpose", {x}, name);
    node.node.attr("perm", perm);
    return node.output;
}

std::string concat(Net& net, const std::vector<std::string>& inputs, int64_t axis,
                   const std::string& name) {
    Added node = net.add("Concat", inputs, name);
    node.node.attr("axis", axis);
    return node.output;
}

std::string gatherIndex(Net& net, const std::string& x, int64_t index, int64_t axis,
                        const std::string& name) {
    Added node = net.add("Gather", {x, net.scalarInt(index)}, name);
    node.node.attr("axis", axis);
    return node.output;
}

} // namespace stagecraft::zoo
