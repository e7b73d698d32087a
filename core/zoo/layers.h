#pragma once
/// \file
/// Layer helpers shared by the zoo's models: convolutions, batch norm,
/// activations, linear layers, pooling and shape ops, each emitted the way
/// torch.onnx (opset 13) exports the matching torch module. Weight names are
/// "<scope>.weight" / "<scope>.bias" as in the module's state_dict.

#include "zoo/net.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::zoo {

/// A Conv1d/Conv2d module.
struct ConvSpec {
    int64_t in = 0;
    int64_t out = 0;
    /// {k} for a 1-D conv, {kh, kw} for a 2-D conv.
    std::vector<int64_t> kernel;
    int64_t stride = 1;
    /// ONNX pads: all begins, then all ends; empty means no padding.
    std::vector<int64_t> pads;
    int64_t groups = 1;
    bool bias = false;
};

/// A square 2-D conv with the same padding \p pad on every side.
ConvSpec conv2d(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t pad,
                bool bias = false);
/// A 2-D conv of kernel \p kh x \p kw padded by \p ph rows and \p pw columns
/// on each side, without bias (Inception's 1x7, 7x1, 1x3 and 3x1 convs).
ConvSpec conv2dRect(int64_t in, int64_t out, int64_t kh, int64_t kw, int64_t ph, int64_t pw);

/// Conv node \p scope with "<scope>.weight" [out, in/groups, kernel...].
std::string conv(Net& net, const std::string& x, const std::string& scope, const ConvSpec& spec);

/// BatchNormalization (eps \p epsilon, torch's default 1e-5; momentum 0.9 as
/// torch exports it) with "<scope>.weight", ".bias", ".running_mean",
/// ".running_var".
std::string batchNorm(Net& net, const std::string& x, const std::string& scope, int64_t channels,
                      float epsilon = 1e-5f);

std::string relu(Net& net, const std::string& x, const std::string& name);
/// ReLU6 as opset 13 exports it: Clip with min 0 and max 6 inputs.
std::string relu6(Net& net, const std::string& x, const std::string& name);

/// A Linear on a rank >= 3 input as torch exports it: MatMul with the weight
/// stored transposed, "<scope>.weight" [in, out], then Add "<scope>.bias".
std::string linear(Net& net, const std::string& x, const std::string& scope, int64_t in,
                   int64_t out, const std::string& output = {});

/// A Linear on a 2-D input: Gemm(transB=1) with "<scope>.weight" [out, in].
std::string gemm(Net& net, const std::string& x, const std::string& scope, int64_t in, int64_t out,
                 const std::string& output = {});

/// Two-input elementwise op \p opType (Add, Mul, Sub, Div...) named \p name.
std::string binary(Net& net, const std::string& opType, const std::string& a, const std::string& b,
                   const std::string& name, const std::string& output = {});
/// One-input op without attributes (Relu, Sigmoid, Tanh, Erf, Sqrt...).
std::string unary(Net& net, const std::string& opType, const std::string& x,
                  const std::string& name, const std::string& output = {});

/// MaxPool; \p ceilMode rounds the output extent up (torch's ceil_mode).
std::string maxPool(Net& net, const std::string& x, const std::string& name, int64_t kernel,
                    int64_t stride, int64_t pad, bool ceilMode = false);
/// AveragePool padded by \p pad on every side; \p countIncludePad divides by
/// the whole window (torch's default) rather than by its taps inside the input.
std::string averagePool(Net& net, const std::string& x, const std::string& name, int64_t kernel,
                        int64_t stride, int64_t pad = 0, bool countIncludePad = true);
/// GlobalAveragePool then Flatten(axis 1): [N,C,H,W] -> [N,C].
std::string poolAndFlatten(Net& net, const std::string& x, const std::string& scope);

/// Reshape to the static \p shape (a Constant shape tensor).
std::string reshape(Net& net, const std::string& x, const std::vector<int64_t>& shape,
                    const std::string& name);
std::string transpose(Net& net, const std::string& x, const std::vector<int64_t>& perm,
                      const std::string& name);
std::string concat(Net& net, const std::vector<std::string>& inputs, int64_t axis,
                   const std::string& name);
/// Gather with a rank-0 index: drops dimension \p axis.
std::string gatherIndex(Net& net, const std::string& x, int64_t index, int64_t axis,
                        const std::string& name);

} // namespace stagecraft::zoo
