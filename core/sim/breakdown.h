#pragma once
/// \file
/// Attribution (docs/simulator.md, "Attribution"): where a run's simulated
/// time and moved bytes go, by cause — compute per unit kind, weight loads,
/// activation loads and stores, spills out and back, inserted data movement
/// (§3.5 redistributes), kernel launches and synchronization — for the whole
/// run, per group and per kernel.
///
/// Time is attributed exclusively, so the parts add up to the latency: an
/// instant in which some unit computes is compute time (split evenly among
/// the unit kinds busy then); an instant in which no unit computes but DMA
/// runs is time the units wait for DMA, split among the causes of the
/// transfers in flight; then launches, syncs, and idle. `activeNs` is the
/// time a cause was in progress at all, so activeNs - ns of a transfer cause
/// is the part of it that compute hid.

#include "arch/arch.h"
#include "kernel/streams.h"
#include "schedule/schedule.h"
#include "sim/simulator.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::sim {

enum class Cause : uint8_t {
    ComputeMatrix,
    ComputeVector,
    ComputeScalar,
    ComputeFallback,
    WeightLoad,
    ActivationLoad,
    ActivationStore,
    SpillOut,
    SpillBack,
    DataMovement,
    Launch,
    Sync,
    Idle,
};
inline constexpr size_t kCauseCount = 13;

/// "compute_matrix", "weight_load", "spill_back", "idle"...
std::string_view causeName(Cause cause);
bool isComputeCause(Cause cause);
bool isTransferCause(Cause cause);

struct Breakdown {
    /// Exclusive time per cause (ns); the parts add up to totalNs.
    std::array<double, kCauseCount> ns{};
    /// Time each cause was in progress at all (ns), overlaps included.
    std::array<double, kCauseCount> activeNs{};
    /// Bytes moved per transfer cause, each hop of a routed transfer counted.
    std::array<int64_t, kCauseCount> bytes{};
    double totalNs = 0;

    double at(Cause cause) const { return ns[static_cast<size_t>(cause)]; }
    /// Time no unit computed while DMA ran: the sum over transfer causes.
    double dmaWaitNs() const;
    int64_t totalBytes() const;
    Breakdown& operator+=(const Breakdown& other);
};

/// The cause that took most of \p b's time (the first of equals).
Cause dominantCause(const Breakdown& b);

struct KernelBreakdown {
    int32_t kernel = 0;
    /// The instance's label, e.g. "a3".
    std::string label;
    schedule::GroupId group;
    Breakdown breakdown;
};

struct GroupBreakdown {
    schedule::GroupId group;
    /// The group's label, e.g. "a".
    std::string label;
    int32_t kernels = 0;
    Breakdown breakdown;
};

/// A run's attribution, scaled to the whole batch like the report: time
/// times the iterations, bytes times iterations and clusters. The groups'
/// and the kernels' breakdowns add up to the run's.
struct Attribution {
    Breakdown run;
    IdVector<schedule::GroupId, GroupBreakdown> groups;
    std::vector<KernelBreakdown> kernels;
};

/// Attributes the simulated run \p sim of \p tasks (lowered from \p program
/// and \p schedule) on \p arch.
Attribution attribute(const arch::Arch& arch, const schedule::Schedule& schedule,
                      const kernel::Program& program, const kernel::TaskGraph& tasks,
                      const SimResult& sim);

} // namespace stagecraft::sim
