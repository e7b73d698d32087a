#pragma once
// The exact-map cases of test_op_maps: one-op graphs with the loops and maps
// formatIndex must print for them.

#include "ops_testing.h"

#include <map>
#include <string>
#include <vector>

namespace stagecraft::test {

struct MapCase {
    std::string name;
    OpGraph graph;
    int nest = 0;
    std::string loops;
    /// Expected maps by input slot.
    std::map<int, std::string> maps;
    /// Parallel loops that must not be bindable, space-separated.
    std::string unbindable;
};

/// Conv, ConvTranspose, MatMul, Gemm, pools, reductions, normalizations,
/// elementwise (map_cases_compute.cpp). The first is the grouped, strided,
/// dilated Conv; the sixth the MatMul [2,1,3,4] x [5,4,6].
std::vector<MapCase> computeMapCases();
/// Reshapes, movement, gathers, DepthToSpace, Resize, TopK, opaque ops
/// (map_cases_movement.cpp).
std::vector<MapCase> movementMapCases();

} // namespace stagecraft::test
