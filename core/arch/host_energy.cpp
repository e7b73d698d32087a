// The host-cpu preset's energy table (docs/arch.md, "Energy"). The rule is
// scripts/energy-table's for the presets, with a CPU's own assumptions:
// a core at 14 nm and 1.0 V (Horowitz's 45 nm figures x 14/45 x (1.0/0.9)^2),
// an instruction's overhead of 70 pJ at 45 nm spread over the lanes it
// computes (one for the scalar pipe), caches per byte by the square root of
// their size, DDR4 at 120 pJ per byte. Leakage is 20 % of the packages'
// power: RAPL's long-term power limit where /sys/class/powercap offers it,
// else an assumed 6 W per logical CPU (a server core's share of its TDP).

#include "arch/internal/host_energy.h"

#include "support/strings.h"

#include <cmath>
#include <fstream>

namespace stagecraft::arch::detail {

namespace {

namespace fs = std::filesystem;

constexpr double kScale = 14.0 / 45.0 * (1.0 / 0.9) * (1.0 / 0.9);
constexpr double kInstructionPj = 70;
constexpr double kSram8KiBPjPerByte = 1.25;
constexpr double kDramPjPerByte = 120;
constexpr double kWirePjPerByte = 0.8 * 5; // 5 mm at 0.8 pJ per byte per mm
constexpr double kLeakShare = 0.2;
constexpr double kAssumedWattsPerCpu = 6;

/// Horowitz's 45 nm add of a dtype's width (an element operation).
double addPj(ir::DType dtype) {
    if (ir::isFloatingPoint(dtype))
        return ir::dtypeSize(dtype) >= 4 ? 0.9 * static_cast<double>(ir::dtypeSize(dtype)) / 4
                                         : 0.4;
    return 0.1 * std::max(0.25, static_cast<double>(ir::dtypeSize(dtype)) / 4);
}

double sramPj(int64_t bytes) {
    return kSram8KiBPjPerByte * std::sqrt(static_cast<double>(bytes) / 8192.0) * kScale;
}

/// Watts of the RAPL package limits under \p powercap; 0 when none reads.
double raplWatts(const fs::path& powercap) {
    double watts = 0;
    std::error_code ec;
    for (int package = 0; package < 64; ++package) {
        fs::path zone = powercap / ("intel-rapl:" + std::to_string(package));
        std::ifstream limit(zone / "constraint_0_power_limit_uw");
        std::string line;
        if (!limit || !std::getline(limit, line))
            break;
        std::optional<int64_t> microwatts = parseInt(trim(line));
        if (microwatts && *microwatts > 0)
            watts += static_cast<double>(*microwatts) * 1e-6;
    }
    return watts;
}

MemoryEnergy memory(double pjPerByte, double staticMw) {
    return {pjPerByte, pjPerByte, staticMw};
}

} // namespace

EnergyModel hostEnergy(const Arch& arch, const fs::path& powercap) {
    const CoreGroup& cpus = arch.cluster.coreGroups.front();
    double rapl = raplWatts(powercap);
    double watts = rapl > 0 ? rapl : kAssumedWattsPerCpu * static_cast<double>(cpus.count);
    double leakMw = watts * kLeakShare * 1000;
    double cores = static_cast<double>(cpus.count);
    EnergyModel e;
    e.source = std::string("host-cpu assumptions (docs/arch.md): Horowitz ISSCC 2014 at 14 nm, "
                           "1.0 V, 70 pJ per instruction over its lanes, DDR4 120 pJ/B; leakage "
                           "20 % of ") +
               (rapl > 0 ? "RAPL's package power limit" : "an assumed 6 W per logical CPU");
    for (const ComputeUnit& unit : cpus.units) {
        UnitEnergy u;
        for (const auto& [dtype, rate] : unit.opsPerCycle) {
            double lanes = unit.kind == UnitKind::Scalar ? 1 : std::max(1.0, rate / 2);
            u.pjPerOp[dtype] = (kInstructionPj / lanes + addPj(dtype)) * kScale;
        }
        u.staticMw = leakMw * 0.5 / cores / static_cast<double>(cpus.units.size());
        e.units[unit.name] = u;
    }
    if (cpus.localBuffer)
        e.memories[Memory::LB] = memory(sramPj(cpus.localBuffer->bytes), leakMw * 0.15 / cores);
    if (arch.cluster.globalBuffer)
        e.memories[Memory::GB] = memory(sramPj(arch.cluster.globalBuffer->bytes), leakMw * 0.1);
    e.memories[Memory::DDR] = memory(kDramPjPerByte, leakMw * 0.25);
    for (const Path& p : arch.paths)
        e.paths.push_back({p.from, p.to, kWirePjPerByte * kScale});
    return e;
}

} // namespace stagecraft::arch::detail
