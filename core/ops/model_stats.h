#pragma once
/// \file
/// Whole-model figures for reports (`stagecraft inspect`, the GUI's
/// inspector): counts, parameters, MACs, FLOPs, activation bytes, the
/// op-type histogram and the opaque ops.

#include "ir/graph.h"
#include "ops/semantics.h"
#include "support/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::ops {

struct OpTypeCount {
    std::string type;
    Category category = Category::Opaque;
    int64_t count = 0;
};

struct ModelStats {
    int64_t ops = 0;
    int64_t tensors = 0;
    /// Learned parameters: elements of floating-point constant tensors that
    /// ops read, except BatchNormalization's running mean and variance
    /// (statistics, not parameters) and quantization scales, plus the
    /// integer weights and biases of quantized ops.
    int64_t params = 0;
    int64_t paramBytes = 0;
    /// Bytes of every constant tensor ops read (parameters, statistics, indices).
    int64_t constantBytes = 0;
    int64_t macs = 0;
    int64_t flops = 0;
    /// Bytes of every non-constant tensor (graph inputs and op outputs).
    int64_t activationBytes = 0;
    /// By count, most frequent first, then by name.
    std::vector<OpTypeCount> opTypes;
    /// Ops Stagecraft has no semantics for, in graph order.
    std::vector<ir::OpId> opaqueOps;
};

/// Figures of \p graph; fails only when an op contradicts its canonical form.
Expected<ModelStats> computeModelStats(const ir::Graph& graph);

} // namespace stagecraft::ops
