#pragma once
// Internal to core/codegen: which elementwise ops after a contraction in its
// layer form its epilogue (epilogue_chain.cpp): the lowering applies them
// to the sums in registers (lower_epilogue.cpp), and the host's tiles merge
// without counting the fused tensors such a chain never stores
// (host_layer.cpp).

#include "codegen/code_plan.h"

#include <cstddef>
#include <span>
#include <vector>

namespace stagecraft::codegen::detail {

/// How many of the steps after \p steps[first] of \p layer form its
/// epilogue (docs/codegen.md, "Epilogues in registers"): a Conv,
/// ConvTranspose or MatMul followed by elementwise ops of the same region and
/// floating-point type, each reading the tensor before it once, which no
/// other op reads and which lives only in the tile (Home::Fused); a
/// QLinearConv or QLinearMatMul first dequantized, a ConvInteger or
/// MatMulInteger first cast to f32; any chain may end quantized.
size_t epilogueLength(const ir::Graph& graph, const LayerCode& layer, std::span<const OpStep> steps,
                      size_t first);

/// The fused tensors of \p layer that an epilogue keeps in registers and
/// the lowering so never stores: the sums of a float Conv of one group
/// whose kernel has more than one tap (whose reduction so never runs in
/// chunks, which store partial sums) and every tensor of its epilogue but
/// the last. (Where the register-blocked lowering does not take such a
/// Conv, its chain runs as ops of their own and does store them.)
std::vector<ir::TensorId> registerOnlyTensors(const ir::Graph& graph, const LayerCode& layer);

} // namespace stagecraft::codegen::detail
