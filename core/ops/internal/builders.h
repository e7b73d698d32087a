#pragma once
/// \file
/// Internal to core/ops: one nest builder per op family. Each returns one
/// loop nest per output of the op, or an Error naming the op when its shapes
/// or canonical attributes are inconsistent. registry.cpp maps op types to
/// builders; docs/op-semantics.md describes every map.

#include "ops/internal/op_context.h"

#include <vector>

namespace stagecraft::ops::detail {

using Nests = Expected<std::vector<LoopNest>>;
using NestBuilder = Nests (*)(const OpContext&);

// elementwise.cpp
Nests buildElementwise(const OpContext& ctx);
Nests buildBatchNormalization(const OpContext& ctx);

// conv.cpp
/// The input slots of a convolution's operands (QLinearConv's differ).
struct ConvSlots {
    int x = 0;
    int w = 1;
    int bias = 2;
};
Nests buildConv(const OpContext& ctx);
/// A Conv's nest with its operands at \p slots (input counts not checked).
Nests buildConvAt(const OpContext& ctx, ConvSlots slots);
Nests buildConvTranspose(const OpContext& ctx);

// pool.cpp
Nests buildPool(const OpContext& ctx);
Nests buildGlobalPool(const OpContext& ctx);

// matmul.cpp
Nests buildMatMul(const OpContext& ctx);
/// A MatMul's nest with A and B at \p slotA and \p slotB (counts not checked).
Nests buildMatMulAt(const OpContext& ctx, int slotA, int slotB);
Nests buildGemm(const OpContext& ctx);

// quantized.cpp: QuantizeLinear, DequantizeLinear and the integer contractions
Nests buildQuantize(const OpContext& ctx);
Nests buildConvInteger(const OpContext& ctx);
Nests buildQLinearConv(const OpContext& ctx);
Nests buildMatMulInteger(const OpContext& ctx);
Nests buildQLinearMatMul(const OpContext& ctx);

// reduce.cpp
Nests buildReduce(const OpContext& ctx);
Nests buildArgReduce(const OpContext& ctx);

// normalize.cpp
Nests buildSoftmax(const OpContext& ctx);
Nests buildLayerNormalization(const OpContext& ctx);
Nests buildInstanceNormalization(const OpContext& ctx);

// reshape.cpp: Reshape, Flatten, Squeeze, Unsqueeze
Nests buildReshape(const OpContext& ctx);

// movement.cpp
Nests buildTranspose(const OpContext& ctx);
Nests buildConcat(const OpContext& ctx);
Nests buildSplit(const OpContext& ctx);
Nests buildExpand(const OpContext& ctx);
Nests buildTile(const OpContext& ctx);

// slice_pad.cpp
Nests buildSlice(const OpContext& ctx);
Nests buildPad(const OpContext& ctx);

// depth_space.cpp
Nests buildDepthToSpace(const OpContext& ctx);
Nests buildSpaceToDepth(const OpContext& ctx);

// gather.cpp
Nests buildGather(const OpContext& ctx);
Nests buildGatherElements(const OpContext& ctx);

// indexed.cpp: CumSum, OneHot, GatherND, ScatterElements and ScatterND
Nests buildCumSum(const OpContext& ctx);
Nests buildOneHot(const OpContext& ctx);
Nests buildGatherNd(const OpContext& ctx);
Nests buildScatter(const OpContext& ctx);

// resize.cpp
Nests buildResize(const OpContext& ctx);

// grid_sample.cpp
Nests buildGridSample(const OpContext& ctx);

// opaque.cpp
Nests buildTopK(const OpContext& ctx);
/// Unknown ops: output dims, not bindable, every input read whole.
Nests buildOpaque(const OpContext& ctx);

} // namespace stagecraft::ops::detail
