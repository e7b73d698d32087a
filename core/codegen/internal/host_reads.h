#pragma once
// Internal to core/codegen: how a contraction reads a weight, which decides
// the layout the host stores it in (host_reads.cpp, used by host_layer.cpp).

#include "ir/shape.h"
#include "ops/loop_nest.h"

#include <cstddef>
#include <cstdint>

namespace stagecraft::codegen::detail {

/// Output positions per channel (a Conv's oh x ow) up to which a padded
/// Conv reads its blocked weight along output channels, and its taps (kh x
/// kw) at most: the lowering (blocked_plan.cpp) then unrolls the positions'
/// tiles and the taps, and skips each padding tap when compiling. 256 takes
/// ResNet-50's stride-2 3 x 3 Convs into 7 x 7 and 14 x 14; its 28 x 28 one
/// as well (1,024) cost 1.5 s more compiling (docs/decisions.md).
inline constexpr int64_t kMaxPaddedChannelPositions = 256;
inline constexpr int64_t kMaxPaddedChannelTaps = 16;

/// Whether \p nest reads its input \p slot's dim \p alongDim as the
/// output's last loop and its other dim along reduction loops alone.
bool readsAlongRow(const ops::LoopNest& nest, int slot, size_t alongDim);

/// Whether \p nest reads input \p slot (rank 3 or more) as a convolution
/// whose vectors run best along its output channels: its dim 0 is exactly an
/// output loop before the last (the channel), its other dims reduction loops
/// alone; the other factor, of shape \p otherShape, reads that loop nowhere,
/// stays inside its input or reads padding known per position (few output
/// positions per channel and few taps: kMaxPaddedChannelPositions,
/// kMaxPaddedChannelTaps; ResNet-50's stride-2 3 x 3 Convs into 7 x 7 and
/// 14 x 14), and reads the output's last loop with a stride above 1 (a
/// row's lanes then gather with shuffles). The register-blocked lowering
/// then runs its vectors along the channels (blocked_plan.cpp).
bool readsAcrossChannels(const ops::LoopNest& nest, int slot, const ir::Shape& otherShape);

} // namespace stagecraft::codegen::detail
