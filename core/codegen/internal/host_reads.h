#pragma once
// Internal to core/codegen: how a contraction reads a weight, which decides
// the layout the host stores it in (host_reads.cpp, used by host_layer.cpp).

#include "ir/shape.h"
#include "ops/loop_nest.h"

#include <cstddef>
#include <cstdint>

namespace stagecraft::ir {
struct Tensor;
class Graph;
} // namespace stagecraft::ir
namespace stagecraft::partition {
class SemanticsCache;
} // namespace stagecraft::partition

namespace stagecraft::codegen::detail {

/// Elements per block of a weight stored blocked (GlobalTensor::hostBlock):
/// a 512-bit vector of f32, two of 256 bits.
inline constexpr int64_t kBlockElements = 16;
/// Reduction steps one byte dot product sums per lane, interleaved in the
/// blocks of a weight stored for it (GlobalTensor::hostBlockGroup).
inline constexpr int64_t kDotGroup = 4;

/// Output positions per channel (a Conv's oh x ow) up to which a padded
/// Conv along output channels runs its positions flattened across rows, and
/// its taps (kh x kw) at most: the lowering (blocked_plan.cpp) unrolls the
/// positions' tiles and the taps, and leaves each padding tap out when
/// compiling; past it, positions run by rows, the tiles of a row unrolled,
/// and a tap in the padding rows is tested once per tile at run time.
inline constexpr int64_t kMaxFlatPaddedPositions = 64;
inline constexpr int64_t kMaxPaddedChannelTaps = 16;

/// Whether \p nest reads its input \p slot's dim \p alongDim as the
/// output's last loop and its other dim along reduction loops alone.
bool readsAlongRow(const ops::LoopNest& nest, int slot, size_t alongDim);

/// Whether \p nest reads input \p slot (rank 3 or more) as a convolution
/// whose vectors run best along its output channels: its dim 0 is exactly an
/// output loop before the last (the channel), its other dims reduction loops
/// alone; the other factor, of shape \p otherShape, reads that loop nowhere
/// and reads the output's last loop with a stride above 1 (a row's lanes
/// then gather with shuffles), or with stride 1 over padding (a row's edge
/// taps then load masked lanes: ResNet-50's 3 x 3 Convs); its padding, if
/// any, tested once per tile at most (kMaxPaddedChannelTaps taps). The
/// register-blocked lowering then runs its vectors along the channels
/// (blocked_plan.cpp).
bool readsAcrossChannels(const ops::LoopNest& nest, int slot, const ir::Shape& otherShape);

/// Whether the host stores 2-D weight \p t of \p graph in blocks of
/// columns with kDotGroup rows interleaved (GlobalTensor::hostBlockGroup):
/// s8, whole blocks and groups, and every reader reads it along its rows as
/// the weight of a byte dot product (a MatMulInteger or QLinearMatMul of a
/// u8 factor, the weight's zero point absent or 0).
bool groupsForDots(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                   const ir::Tensor& t);

} // namespace stagecraft::codegen::detail
