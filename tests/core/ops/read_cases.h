#pragma once
// The brute-force cases of test_op_reads: one-op graphs with, per input, a
// reference that states what the op reads the way a textbook writes the op.

#include "ops_testing.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stagecraft::test {

using Read = std::function<void(const Coord&)>;

struct SlotCheck {
    int slot;
    Reference ref;
};

struct ReadCase {
    std::string name;
    OpGraph graph;
    int nest = 0;
    std::vector<SlotCheck> checks;
    /// The map may read more than the reference (ConvTranspose with stride > 1,
    /// Pad in reflect mode).
    bool conservative = false;
};

/// numpy broadcasting of an input of shape \p in onto the output.
Reference broadcastRef(ir::Shape in);
/// A reshape: output element k is input element k in row-major order.
Reference sameFlatRef(ir::Shape in, ir::Shape out);
/// Reads input coordinate \p pick(out).
Reference pickRef(std::function<Coord(const Coord&)> pick);
/// Reads what a scatter-style reference recorded per output flat index.
Reference scatterRef(std::shared_ptr<const std::map<int64_t, std::vector<Coord>>> table,
                     ir::Shape out);

/// Conv, ConvTranspose, pools, MatMul, Gemm (read_cases_compute.cpp).
std::vector<ReadCase> computeReadCases();
/// Reshapes, Transpose, Concat, Split, Slice, Pad, Tile, Expand, gathers,
/// DepthToSpace, SpaceToDepth (read_cases_movement.cpp).
std::vector<ReadCase> movementReadCases();
/// Resize, reductions, normalizations, elementwise (read_cases_other.cpp).
std::vector<ReadCase> otherReadCases();

} // namespace stagecraft::test
