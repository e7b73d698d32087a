#pragma once
/// \file
/// Energy of a simulated run (docs/simulator.md, "Energy"), Accelergy-style:
/// the count of every action the simulator times, times the energy per
/// action of the architecture's energy table (arch::EnergyModel), plus
/// leakage over the run's latency. Actions: the compute units' operations
/// (MACs or element operations, at the precision simulated), the operands a
/// layer reads from and the results it writes to its core's LB, every
/// transfer hop's read at its source level, write at its destination level
/// and the wires of its path, and the static power of every unit and memory.
/// Totals are for the whole batch, like the report; the groups' and the
/// kernels' energies add up to the run's.

#include "arch/arch.h"
#include "kernel/streams.h"
#include "schedule/schedule.h"
#include "sim/breakdown.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::sim {

enum class EnergyAction : uint8_t {
    ComputeMatrix,
    ComputeVector,
    ComputeScalar,
    ComputeFallback,
    LbRead,
    LbWrite,
    GbRead,
    GbWrite,
    DdrRead,
    DdrWrite,
    /// Wires of paths with DDR at one end.
    DdrLink,
    /// Wires of on-chip paths (GB and LB).
    ChipLink,
    StaticCompute,
    StaticLb,
    StaticGb,
    StaticDdr,
};
inline constexpr size_t kEnergyActionCount = 16;

/// "compute_matrix", "lb_read", "ddr_link", "static_ddr"...
std::string_view energyActionName(EnergyAction action);
bool isStaticAction(EnergyAction action);

/// Energy split by action, in picojoules.
struct Energy {
    std::array<double, kEnergyActionCount> pj{};

    double at(EnergyAction action) const { return pj[static_cast<size_t>(action)]; }
    double totalPj() const;
    double dynamicPj() const;
    double staticPj() const;
    /// Energy of moving bytes to and from DDR: its reads, writes and links.
    double ddrTrafficPj() const;
    /// Dynamic energy of one level, "compute" (the units' operations), "LB",
    /// "GB", "DDR" (reads and writes) or "links" (the paths' wires), or
    /// "static" (all leakage): the parts of energyLevels() add up to the total.
    double levelPj(std::string_view level) const;
    Energy& operator+=(const Energy& other);
};

struct KernelEnergy {
    int32_t kernel = 0;
    /// The instance's label, e.g. "a3".
    std::string label;
    schedule::GroupId group;
    Energy energy;
};

struct GroupEnergy {
    schedule::GroupId group;
    std::string label;
    Energy energy;
};

/// A run's energy, scaled to the whole batch. Leakage is spread over the
/// groups and kernels by their share of the run's time (the attribution's
/// exclusive time), so the parts add up to the run.
struct EnergyReport {
    Energy run;
    IdVector<schedule::GroupId, GroupEnergy> groups;
    std::vector<KernelEnergy> kernels;
    /// Static power of the whole chip, milliwatts.
    double staticMw = 0;
};

/// The energy levels of Energy::levelPj, in report order.
std::span<const std::string_view> energyLevels();

/// The energy of the simulated run \p tasks of \p program (whose
/// attribution is \p attribution) of \p graph on \p arch, repeated
/// \p iterations times on every cluster; nullopt when \p arch has no
/// energy table. An op's operations are priced at its compute type
/// (ops::computeTypeOf), or at the unit's dearest dtype when the unit has no
/// figure for it (the rate the simulator runs it at is the slowest).
std::optional<EnergyReport> estimateEnergy(const ir::Graph& graph, const arch::Arch& arch,
                                           const kernel::Program& program,
                                           const kernel::TaskGraph& tasks,
                                           const Attribution& attribution, int64_t iterations);

/// Millijoules of \p energy.
inline double millijoules(const Energy& energy) {
    return energy.totalPj() * 1e-9;
}

} // namespace stagecraft::sim
