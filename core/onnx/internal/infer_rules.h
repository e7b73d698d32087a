#pragma once
// Internal to core/onnx: the shape-inference rules, one per op family. Each
// sets its outputs' types and static shapes and rewrites the op's attributes
// into canonical form (docs/ir.md).

#include "onnx/internal/infer_context.h"
#include "onnx/onnx_types.h"

namespace stagecraft::onnxio {

// infer_elementwise.cpp
Status inferUnary(InferContext& ctx);
Status inferUnaryToBool(InferContext& ctx);
Status inferCast(InferContext& ctx);
Status inferBroadcast(InferContext& ctx);
Status inferCompare(InferContext& ctx);
Status inferWhere(InferContext& ctx);
Status inferClip(InferContext& ctx);
Status inferBatchNorm(InferContext& ctx);
Status inferDropout(InferContext& ctx);
Status inferTrilu(InferContext& ctx);

// infer_indexed.cpp
Status inferCumSum(InferContext& ctx);
Status inferOneHot(InferContext& ctx);
Status inferGatherNd(InferContext& ctx);
Status inferScatterElements(InferContext& ctx);
Status inferScatterNd(InferContext& ctx);

// infer_conv.cpp
Status inferConv(InferContext& ctx);
/// Conv's rule with X, W and the bias at the given slots, the output of \p type.
Status inferConvAt(InferContext& ctx, int slotX, int slotW, int slotBias, ir::DType type);
Status inferConvTranspose(InferContext& ctx);
Status inferPool(InferContext& ctx);
Status inferGlobalPool(InferContext& ctx);

// infer_linalg.cpp
Status inferMatMul(InferContext& ctx);
/// MatMul's rule with A and B at the given slots, the output of \p type.
Status inferMatMulAt(InferContext& ctx, int slotA, int slotB, ir::DType type);

// infer_quantized.cpp
Status inferQuantizeLinear(InferContext& ctx);
Status inferDequantizeLinear(InferContext& ctx);
Status inferConvInteger(InferContext& ctx);
Status inferQLinearConv(InferContext& ctx);
Status inferMatMulInteger(InferContext& ctx);
Status inferQLinearMatMul(InferContext& ctx);
Status inferGemm(InferContext& ctx);

// infer_reduce.cpp
Status inferReduce(InferContext& ctx);
Status inferArgReduce(InferContext& ctx);
Status inferSoftmax(InferContext& ctx);
Status inferLayerNorm(InferContext& ctx);
Status inferInstanceNorm(InferContext& ctx);
Status inferTopK(InferContext& ctx);

// infer_reshape.cpp
Status inferReshape(InferContext& ctx);
Status inferFlatten(InferContext& ctx);
Status inferSqueeze(InferContext& ctx);
Status inferUnsqueeze(InferContext& ctx);
Status inferExpand(InferContext& ctx);

// infer_movement.cpp
Status inferTranspose(InferContext& ctx);
Status inferConcat(InferContext& ctx);
Status inferSplit(InferContext& ctx);
Status inferSlice(InferContext& ctx);
Status inferPad(InferContext& ctx);
Status inferTile(InferContext& ctx);
Status inferGather(InferContext& ctx);
Status inferGatherElements(InferContext& ctx);
Status inferDepthToSpace(InferContext& ctx);
Status inferSpaceToDepth(InferContext& ctx);

// infer_resize.cpp
Status inferResize(InferContext& ctx);

// infer_grid_sample.cpp
Status inferGridSample(InferContext& ctx);

// infer_constants.cpp: ops whose outputs are known at import time
Status inferShape(InferContext& ctx);
Status inferSize(InferContext& ctx);
Status inferConstantOfShape(InferContext& ctx);
Status inferRange(InferContext& ctx);
Status inferEyeLike(InferContext& ctx);

} // namespace stagecraft::onnxio
