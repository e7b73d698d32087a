#pragma once
// One point of `stagecraft sweep`: its architecture variant, its model at
// the batch the strategy runs with, the level (auto as `compare` picks it)
// and the strategy's simulation, as a record. Models and auto levels are
// shared between points through a cache that several threads may use.

#include "arch/arch.h"
#include "sweep/records.h"

#include <memory>

namespace stagecraft::cli {

class PointCache;

/// Makes the cache the points of one sweep share.
std::shared_ptr<PointCache> makePointCache();

/// Schedules and simulates \p point; a failure is a result with its error,
/// never an exception.
sweep::PointResult evaluatePoint(const sweep::SweepSpec& spec, const arch::Arch& base,
                                 const sweep::SweepPoint& point, PointCache& cache);

} // namespace stagecraft::cli
