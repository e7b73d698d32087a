#pragma once
// The spills of a result (GraphTurbo §4.3, Fig. 12): each move of a buffer to
// a slower pool, when it happens and where the tensor went, for the marks of
// the occupancy view ("t12 LB→GB").

#include "common/pipeline_result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stagecraft::views {

struct SpillMark {
    kernel::BufferId buffer;
    ir::TensorId tensor = ir::kNoTensor;
    std::string tensorName;
    /// Cores holding a piece while in LB (the LB marks show on cores
    /// [firstCore, firstCore + cores)).
    int32_t cores = 1;
    int32_t firstCore = 0;
    /// The pool it leaves and the one it goes to (kLbPool, kGbPool, kDdrPool).
    kernel::PoolId from = kernel::kLbPool;
    kernel::PoolId to = kernel::kGbPool;
    /// The computation task from which it lives in `to`, and its compute start.
    int32_t task = 0;
    double time = 0;
    /// Where it was in `from`; -1 when it never was resident there (the pool
    /// did not take the new tensor).
    int64_t fromOffset = -1;
    int64_t bytes = 0;
};

/// Every spill of the program, by buffer then task.
std::vector<SpillMark> spillMarks(const PipelineResult& result);

/// "t12 LB→GB".
std::string spillLabel(const SpillMark& mark);

} // namespace stagecraft::views
