// validateArch: the semantic rules of an architecture description, checked on
// the C++ model so that descriptions built in code (host-cpu) obey the same
// rules as files. Messages name the field by its JSON path; parseArch puts
// the file name in front. Rules, in order: top-level numbers, core groups and
// their units, GB and DDR, paths (which pairs are data paths, which are
// required with and without a GB), overheads, the fallback CPU. Fig. 1 and
// §5 Eq. 2 of the GraphTurbo paper; docs/arch.md lists the rules.

#include "arch/arch.h"
#include "arch/internal/energy_json.h"
#include "support/strings.h"

#include <algorithm>
#include <charconv>

namespace stagecraft::arch {

namespace {

std::string number(double value) {
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc() ? std::string(buffer, end) : std::string("?");
}

Error fieldError(const std::string& path, const std::string& message) {
    return Error(path + ": " + message);
}

// The ranges below keep every derived quantity (times, byte counts, rates)
// finite and exact enough: a latency of 1e308 ns or a bandwidth of 5e-324
// GB/s describes no machine and would print inf or nan (docs/arch.md).
constexpr int64_t kMaxCount = 4096;                   // cores per group, clusters, channels
constexpr int64_t kMaxLocalBytes = int64_t{1} << 40;  // 1 TiB
constexpr int64_t kMaxMemoryBytes = int64_t{1} << 50; // 1 PiB
constexpr int64_t kMaxChipCores = 65536;
constexpr int64_t kMaxArraySide = 65536; // a matrix unit's rows or columns
constexpr double kMaxRate = 1e9;         // GHz, GB/s, ops per cycle, GFLOP/s
constexpr double kMinRate = 1e-6;
constexpr double kMaxTimeNs = 1e12; // 1000 s

Status positiveInt(const std::string& path, int64_t value, int64_t most) {
    if (value > 0 && value <= most)
        return {};
    if (value > 0)
        return fieldError(path, "must be at most " + std::to_string(most) + " (got " +
                                    std::to_string(value) + ")");
    return fieldError(path, "must be a positive integer (got " + std::to_string(value) + ")");
}

Status positiveNumber(const std::string& path, double value) {
    if (value >= kMinRate && value <= kMaxRate)
        return {};
    if (value > 0)
        return fieldError(path, "must be from " + number(kMinRate) + " to " + number(kMaxRate) +
                                    " (got " + number(value) + ")");
    return fieldError(path, "must be a positive number (got " + number(value) + ")");
}

Status nonNegativeNumber(const std::string& path, double value) {
    if (value >= 0 && value <= kMaxTimeNs)
        return {};
    if (value > 0)
        return fieldError(path,
                          "must be at most " + number(kMaxTimeNs) + " (got " + number(value) + ")");
    return fieldError(path, "must be a non-negative number (got " + number(value) + ")");
}

Status nonEmpty(const std::string& path, const std::string& value) {
    if (!value.empty())
        return {};
    return fieldError(path, "must be a non-empty string");
}

Status validateUnit(const ComputeUnit& unit, const std::string& path) {
    SC_RETURN_IF_ERROR(nonEmpty(path + ".name", unit.name));
    if (unit.categories.empty())
        return fieldError(path + ".categories", "must list at least one category");
    for (size_t i = 0; i < unit.categories.size(); ++i) {
        ir::OpCategory category = unit.categories[i];
        std::string at = path + ".categories[" + std::to_string(i) + "]";
        auto earlier = unit.categories.begin() + static_cast<std::ptrdiff_t>(i);
        if (std::find(unit.categories.begin(), earlier, category) != earlier)
            return fieldError(at, "duplicate category " + quote(ir::opCategoryName(category)));
    }
    if (unit.opsPerCycle.empty())
        return fieldError(path + ".ops_per_cycle", "must give at least one dtype");
    for (const auto& [dtype, ops] : unit.opsPerCycle) {
        std::string at = path + ".ops_per_cycle." + std::string(ir::dtypeName(dtype));
        if (!isComputeDType(dtype))
            return fieldError(at, "not a dtype a unit can compute");
        SC_RETURN_IF_ERROR(positiveNumber(at, ops));
    }
    for (const auto& [key, share] : unit.efficiency) {
        std::string at = path + ".efficiency." + key;
        std::optional<ir::OpCategory> category = ir::parseOpCategory(key);
        if (category && std::find(unit.categories.begin(), unit.categories.end(), *category) ==
                            unit.categories.end())
            return fieldError(at, "the unit does not run " + quote(key) + " ops");
        if (!(share > 0 && share <= 1) || share < 1e-6)
            return fieldError(at, "must be a share from 1e-6 to 1 (got " + number(share) + ")");
    }
    if (unit.arrayRows != 0 || unit.arrayCols != 0) {
        if (unit.kind != UnitKind::Matrix)
            return fieldError(path + ".array", "only a matrix unit has an array");
        SC_RETURN_IF_ERROR(positiveInt(path + ".array.rows", unit.arrayRows, kMaxArraySide));
        SC_RETURN_IF_ERROR(positiveInt(path + ".array.cols", unit.arrayCols, kMaxArraySide));
    }
    return {};
}

Status validateLocalBuffer(const LocalBuffer& lb, const std::string& path) {
    SC_RETURN_IF_ERROR(nonEmpty(path + ".name", lb.name));
    SC_RETURN_IF_ERROR(positiveInt(path + ".bytes", lb.bytes, kMaxLocalBytes));
    std::string reserve = path + ".weight_reserve_bytes";
    if (lb.weightReserveBytes < 0)
        return fieldError(reserve, "must be a non-negative integer (got " +
                                       std::to_string(lb.weightReserveBytes) + ")");
    if (lb.weightReserveBytes >= lb.bytes)
        return fieldError(reserve, "must be less than bytes (" + std::to_string(lb.bytes) +
                                       ") (got " + std::to_string(lb.weightReserveBytes) + ")");
    return {};
}

Status validateGroup(const Arch& arch, size_t index) {
    const CoreGroup& group = arch.cluster.coreGroups[index];
    std::string path = "cluster.core_groups[" + std::to_string(index) + "]";
    SC_RETURN_IF_ERROR(nonEmpty(path + ".name", group.name));
    for (size_t other = 0; other < index; ++other)
        if (arch.cluster.coreGroups[other].name == group.name)
            return fieldError(path + ".name", "duplicate core group name " + quote(group.name) +
                                                  " (also cluster.core_groups[" +
                                                  std::to_string(other) + "])");
    SC_RETURN_IF_ERROR(positiveInt(path + ".count", group.count, kMaxCount));
    if (group.localBuffer)
        SC_RETURN_IF_ERROR(validateLocalBuffer(*group.localBuffer, path + ".local_buffer"));
    else if (!arch.cluster.globalBuffer)
        return fieldError(path + ".local_buffer",
                          "null needs a global buffer (cores without LB work from GB)");
    if (group.units.empty())
        return fieldError(path + ".units", "must list at least one unit");
    for (size_t u = 0; u < group.units.size(); ++u) {
        std::string unitPath = path + ".units[" + std::to_string(u) + "]";
        SC_RETURN_IF_ERROR(validateUnit(group.units[u], unitPath));
        for (size_t other = 0; other < u; ++other)
            if (group.units[other].name == group.units[u].name)
                return fieldError(unitPath + ".name",
                                  "duplicate unit name " + quote(group.units[u].name));
    }
    return {};
}

Status validateMemory(const MemorySpec& memory, const std::string& path) {
    SC_RETURN_IF_ERROR(nonEmpty(path + ".name", memory.name));
    return positiveInt(path + ".bytes", memory.bytes, kMaxMemoryBytes);
}

/// The derived totals (cores of a cluster and of the chip) stay small enough
/// for per-core state and never overflow the queries of arch.h.
Status validateTotals(const Arch& arch) {
    int64_t cores = 0;
    for (const CoreGroup& group : arch.cluster.coreGroups)
        cores += group.count; // each count is at most kMaxCount
    if (cores > kMaxCount)
        return fieldError("cluster.core_groups", "the cluster has " + std::to_string(cores) +
                                                     " cores, more than " +
                                                     std::to_string(kMaxCount));
    if (cores * arch.clusters > kMaxChipCores)
        return fieldError("clusters", std::to_string(arch.clusters) + " clusters of " +
                                          std::to_string(cores) + " cores are " +
                                          std::to_string(cores * arch.clusters) +
                                          " cores, more than " + std::to_string(kMaxChipCores));
    return {};
}

bool anyLocalBuffer(const Arch& arch) {
    return std::any_of(arch.cluster.coreGroups.begin(), arch.cluster.coreGroups.end(),
                       [](const CoreGroup& g) { return g.localBuffer.has_value(); });
}

std::string arrow(Memory from, Memory to) {
    return std::string(memoryName(from)) + "->" + std::string(memoryName(to));
}

bool touches(const Path& path, Memory memory) {
    return path.from == memory || path.to == memory;
}

bool joins(const Path& path, Memory a, Memory b) {
    return (path.from == a && path.to == b) || (path.from == b && path.to == a);
}

Status validatePath(const Arch& arch, size_t index) {
    const Path& path = arch.paths[index];
    std::string at = "paths[" + std::to_string(index) + "]";
    if (path.from == path.to && path.from != Memory::LB)
        return fieldError(at, arrow(path.from, path.to) +
                                  " is not a data path (expected DDR<->GB, DDR<->LB, GB<->LB "
                                  "or LB->LB)");
    if (touches(path, Memory::GB) && !arch.cluster.globalBuffer)
        return fieldError(at,
                          arrow(path.from, path.to) + " path but cluster.global_buffer is null");
    if (touches(path, Memory::LB) && !anyLocalBuffer(arch))
        return fieldError(at,
                          arrow(path.from, path.to) + " path but no core group has a local_buffer");
    for (size_t other = 0; other < index; ++other)
        if (arch.paths[other].from == path.from && arch.paths[other].to == path.to)
            return fieldError(at, "duplicate " + arrow(path.from, path.to) + " path (also paths[" +
                                      std::to_string(other) + "])");
    SC_RETURN_IF_ERROR(positiveNumber(at + ".bandwidth_gbps", path.bandwidthGBps));
    SC_RETURN_IF_ERROR(nonNegativeNumber(at + ".latency_ns", path.latencyNs));
    return positiveInt(at + ".channels", path.channels, kMaxCount);
}

Status requirePath(const Arch& arch, Memory a, Memory b, const char* why) {
    for (const Path& path : arch.paths)
        if (joins(path, a, b))
            return {};
    return fieldError("paths", "missing a " + arrow(a, b) + " path (" + why + ")");
}

Status validatePaths(const Arch& arch) {
    for (size_t i = 0; i < arch.paths.size(); ++i)
        SC_RETURN_IF_ERROR(validatePath(arch, i));
    bool lb = anyLocalBuffer(arch);
    if (arch.cluster.globalBuffer) {
        SC_RETURN_IF_ERROR(
            requirePath(arch, Memory::DDR, Memory::GB, "required with a global buffer"));
        if (lb)
            SC_RETURN_IF_ERROR(requirePath(arch, Memory::GB, Memory::LB,
                                           "required with a global and a local buffer"));
    } else if (lb) {
        SC_RETURN_IF_ERROR(
            requirePath(arch, Memory::DDR, Memory::LB, "required without a global buffer"));
    }
    return {};
}

} // namespace

Status validateArch(const Arch& arch) {
    SC_RETURN_IF_ERROR(nonEmpty("name", arch.name));
    SC_RETURN_IF_ERROR(positiveNumber("clock_ghz", arch.clockGhz));
    SC_RETURN_IF_ERROR(positiveInt("clusters", arch.clusters, kMaxCount));
    if (arch.cluster.coreGroups.empty())
        return fieldError("cluster.core_groups", "must list at least one core group");
    for (size_t g = 0; g < arch.cluster.coreGroups.size(); ++g)
        SC_RETURN_IF_ERROR(validateGroup(arch, g));
    SC_RETURN_IF_ERROR(validateTotals(arch));
    if (arch.cluster.globalBuffer)
        SC_RETURN_IF_ERROR(validateMemory(*arch.cluster.globalBuffer, "cluster.global_buffer"));
    SC_RETURN_IF_ERROR(validateMemory(arch.ddr, "ddr"));
    if (arch.ddr.cache)
        return fieldError("ddr.cache", "only a global buffer can be a cache");
    SC_RETURN_IF_ERROR(validatePaths(arch));
    SC_RETURN_IF_ERROR(
        nonNegativeNumber("overheads.kernel_launch_ns", arch.overheads.kernelLaunchNs));
    SC_RETURN_IF_ERROR(nonNegativeNumber("overheads.sync_ns", arch.overheads.syncNs));
    if (arch.fallbackCpu) {
        SC_RETURN_IF_ERROR(nonEmpty("fallback_cpu.name", arch.fallbackCpu->name));
        SC_RETURN_IF_ERROR(positiveNumber("fallback_cpu.gflops", arch.fallbackCpu->gflops));
    }
    if (arch.supportedOps && !arch.fallbackCpu)
        return fieldError("supported_ops",
                          "the ops outside the list need a fallback_cpu to run on");
    return detail::validateEnergy(arch);
}

} // namespace stagecraft::arch
