// The addresses of a weight the host stores otherwise than the graph does
// (host_layer.cpp; docs/decisions.md, "Host tiles"): transposed, with
// padded rows, or in blocks along one dim (with the other dim grouped within
// them: a byte dot product's weight). Only the strides of an access to
// the whole weight change; the elements an op reads, and the order it sums
// them in, do not.

#include "codegen/internal/lowering.h"

#include <algorithm>

namespace stagecraft::codegen::detail {

namespace {

/// [dim / block][the other dims in order][block]: the dim steps 1 within a
/// block, the others over whole blocks' lines; grouped, [dim /
/// block][the other dims, groupDim's in groups][block][group]: the dim
/// steps group within a block, groupDim's groups over whole groups' lines
/// (a last partial group padded to a whole one).
void blockStrides(Access& a, const std::vector<int64_t>& extents,
                  const KernelCode::HostBlock& blocked) {
    a.block = blocked.block;
    a.blockDim = static_cast<size_t>(blocked.dim);
    a.group = blocked.group;
    a.groupDim = static_cast<size_t>(blocked.groupDim);
    int64_t inner = a.block * a.group;
    for (size_t d = extents.size(); d-- > 0;) {
        if (d == a.blockDim)
            continue;
        a.strides[d] = extents[d] == 1 ? 0 : inner;
        inner *= a.group > 1 && d == a.groupDim ? (extents[d] + a.group - 1) / a.group : extents[d];
    }
    a.strides[a.blockDim] = a.group;
    a.blockStride = inner;
}

} // namespace

void applyStoredLayout(Access& a, const std::vector<int64_t>& extents, const KernelCode& kernel,
                       int64_t slot) {
    const auto blocked = std::find_if(kernel.hostBlocks.begin(), kernel.hostBlocks.end(),
                                      [&](const auto& b) { return b.slot == slot; });
    if (blocked != kernel.hostBlocks.end()) {
        blockStrides(a, extents, *blocked);
        return;
    }
    const bool transposed = std::find(kernel.hostTransposed.begin(), kernel.hostTransposed.end(),
                                      slot) != kernel.hostTransposed.end();
    int64_t pitch = 0;
    for (const auto& [stored, value] : kernel.hostRowPitches)
        if (stored == slot)
            pitch = value;
    if (transposed) {
        a.strides[0] = extents[0] == 1 ? 0 : 1;
        a.strides[1] = extents[1] == 1 ? 0 : (pitch > 0 ? pitch : extents[0]);
    } else if (pitch > 0) {
        a.strides[0] = extents[0] == 1 ? 0 : pitch;
    }
}

} // namespace stagecraft::codegen::detail
