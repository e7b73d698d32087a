#pragma once
/// \file
/// Transformer pieces shared by BERT, ViT and the Conformer, decomposed into
/// primitive ops as torch.onnx exports them at opset 13 (it has no LayerNorm
/// or Gelu op): LayerNorm, exact GELU, Swish and multi-head attention.

#include "zoo/net.h"

#include <cstdint>
#include <string>

namespace stagecraft::zoo {

/// LayerNorm over the last axis: ReduceMean, Sub, Pow 2, ReduceMean, Add eps,
/// Sqrt, Div, Mul "<scope>.weight", Add "<scope>.bias".
std::string layerNorm(Net& net, const std::string& x, const std::string& scope, int64_t dim,
                      float eps, const std::string& output = {});

/// Exact GELU: x * 0.5 * (1 + erf(x / sqrt(2))) as Div, Erf, Add, Mul, Mul.
std::string gelu(Net& net, const std::string& x, const std::string& scope);

/// Swish (SiLU): x * Sigmoid(x).
std::string swish(Net& net, const std::string& x, const std::string& scope);

/// The static shape of a self-attention: [batch, seq, hidden] in and out.
struct AttentionShape {
    int64_t batch = 0;
    int64_t seq = 0;
    int64_t hidden = 0;
    int64_t heads = 0;

    int64_t headDim() const { return hidden / heads; }
};

/// Scaled dot-product attention over projected \p q, \p k, \p v (each
/// [N,S,hidden]): heads split by Reshape + Transpose, Softmax(QK^T/sqrt(d) +
/// \p mask) V, heads merged back. \p mask, when given, is added to the scores
/// (an additive [N,1,1,S] mask). \returns the context [N,S,hidden], before
/// the output projection.
std::string attention(Net& net, const AttentionShape& shape, const std::string& q,
                      const std::string& k, const std::string& v, const std::string& scope,
                      const std::string& mask = {});

} // namespace stagecraft::zoo
