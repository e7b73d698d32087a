#pragma once
// Internal to core/codegen: how a contraction reads a weight, which decides
// the layout the host stores it in (host_reads.cpp, used by host_layer.cpp),
// and the rules the lowering shares with that decision (blocked_plan.cpp,
// blocked_integer.cpp).

#include "ir/shape.h"
#include "ops/loop_nest.h"
#include "support/id.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace stagecraft::ir {
struct Tensor;
class Graph;
struct TensorTag;
using TensorId = Id<TensorTag>;
} // namespace stagecraft::ir
namespace stagecraft::partition {
class SemanticsCache;
} // namespace stagecraft::partition

namespace stagecraft::codegen::detail {

/// Elements per block of a weight stored blocked (GlobalTensor::hostBlock):
/// a 512-bit vector of f32, two of 256 bits.
inline constexpr int64_t kBlockElements = 16;
/// Elements per block of a Conv's weight whose host tiles start at no whole
/// block of kBlockElements (host_layer.cpp): a 256-bit vector of f32.
inline constexpr int64_t kHalfBlockElements = 8;
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

/// Steps of \p nest's loops from \p first to the last, all unrolled: the
/// tap steps of a padded Conv along channels, which the layout
/// (paddingKnownAlongChannels) and the lowering (chooseColumnTaps) bound
/// alike by kMaxPaddedChannelTaps.
int64_t stepsFrom(const ops::LoopNest& nest, int first);

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

/// The one dim of input \p slot that reads loop \p loop, exactly (a single
/// term of coefficient 1), where no other dim reads it; else nullopt.
std::optional<size_t> dimReadingAlone(const ops::LoopNest& nest, int slot, int loop);

/// Whether \p tensor of \p graph is a constant of zeros (a zero point).
bool zeroConstant(const ir::Graph& graph, ir::TensorId tensor);

/// How the host stores a weight for byte dot products
/// (GlobalTensor::hostBlock, hostBlockGroup): in blocks of \p block of dim
/// \p blockDim, kDotGroup elements of dim \p groupDim interleaved.
struct DotLayout {
    int64_t block = 0;
    int blockDim = 0;
    int groupDim = 0;
};
/// The layout of \p t of \p graph for byte dot products, or nullopt: an s8
/// weight (zero point absent or 0) every reader multiplies by u8. A 2-D
/// one that MatMulInteger or QLinearMatMul read along its rows (B, whole
/// blocks of 16 columns and groups of 4 rows): [n / 16][k / 4][16][4]. A
/// 4-D one that QLinearConv reads, its input's zero point 0 too or its
/// input read without padding, the input channels one reduction loop of
/// both factors, in whole groups or fewer than one (padded with zero
/// weights to a group): [oc][ic / 4][kh][kw][4].
std::optional<DotLayout> dotLayout(const ir::Graph& graph,
                                   const partition::SemanticsCache& semantics, const ir::Tensor& t);

} // namespace stagecraft::codegen::detail
