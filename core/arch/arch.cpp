// Names of the enums and the derived queries later stages ask of an Arch.

#include "arch/arch.h"

#include "support/strings.h"

#include <algorithm>
#include <array>

namespace stagecraft::arch {

namespace {

constexpr std::array<std::string_view, 3> kUnitKinds{"matrix", "vector", "scalar"};
constexpr std::array<std::string_view, 3> kMemories{"DDR", "GB", "LB"};
constexpr std::array<std::string_view, 3> kSharings{"chip", "cluster", "core"};

template <class Enum, size_t N>
std::optional<Enum> parseName(const std::array<std::string_view, N>& names, std::string_view name) {
    for (size_t i = 0; i < N; ++i)
        if (names[i] == name)
            return static_cast<Enum>(i);
    return std::nullopt;
}

} // namespace

bool supportsOpKind(const Arch& arch, ir::OpKind kind) {
    return !arch.supportedOps ||
           std::binary_search(arch.supportedOps->begin(), arch.supportedOps->end(), kind);
}

bool acceleratorRuns(const Arch& arch, ir::OpKind kind, ir::OpCategory category) {
    if (!supportsOpKind(arch, kind) || arch.cluster.coreGroups.empty())
        return false;
    const auto& units = arch.cluster.coreGroups.front().units;
    return std::any_of(units.begin(), units.end(), [&](const ComputeUnit& unit) {
        return std::find(unit.categories.begin(), unit.categories.end(), category) !=
               unit.categories.end();
    });
}

std::string_view unitKindName(UnitKind kind) {
    return kUnitKinds[static_cast<size_t>(kind)];
}

std::optional<UnitKind> parseUnitKind(std::string_view name) {
    return parseName<UnitKind>(kUnitKinds, name);
}

std::string_view memoryName(Memory memory) {
    return kMemories[static_cast<size_t>(memory)];
}

std::optional<Memory> parseMemory(std::string_view name) {
    return parseName<Memory>(kMemories, name);
}

std::string_view sharingName(Sharing sharing) {
    return kSharings[static_cast<size_t>(sharing)];
}

std::optional<Sharing> parseSharing(std::string_view name) {
    return parseName<Sharing>(kSharings, name);
}

bool isComputeDType(ir::DType dtype) {
    return dtype != ir::DType::Undefined && dtype != ir::DType::String;
}

bool ComputeUnit::supports(ir::OpCategory category, ir::DType dtype) const {
    return opsPerCycle.count(dtype) > 0 &&
           std::find(categories.begin(), categories.end(), category) != categories.end();
}

Status checkPrecisionRates(const Arch& arch, ir::DType precision) {
    for (ir::OpCategory category : {ir::OpCategory::Complex, ir::OpCategory::Elementwise})
        if (unitsFor(arch, category, precision).empty())
            return Error("architecture " + quote(arch.name) + " has no unit that runs " +
                         std::string(ir::opCategoryName(category)) + " ops at " +
                         std::string(ir::dtypeName(precision)) +
                         " (no ops_per_cycle entry for it)");
    return Status::success();
}

double ComputeUnit::efficiencyFor(std::string_view family, ir::OpCategory category) const {
    for (std::string_view key : {family, ir::opCategoryName(category)})
        if (auto it = efficiency.find(std::string(key)); it != efficiency.end())
            return it->second;
    return 1.0;
}

std::span<const std::string_view> efficiencyKeys() {
    static constexpr std::string_view keys[] = {
        "elementwise", "injective",      "reduction", "complex",       "opaque",
        "conv",        "conv_transpose", "matmul",    "normalization", "transcendental"};
    return keys;
}

int64_t coresPerCluster(const Arch& arch) {
    int64_t cores = 0;
    for (const CoreGroup& group : arch.cluster.coreGroups)
        cores += group.count;
    return cores;
}

int64_t totalCores(const Arch& arch) {
    return arch.clusters * coresPerCluster(arch);
}

int64_t aggregateActivationBytes(const Arch& arch) {
    int64_t bytes = 0;
    for (const CoreGroup& group : arch.cluster.coreGroups)
        if (group.localBuffer)
            bytes += group.count * group.localBuffer->activationBytes();
    return bytes;
}

double peakOpsPerSecond(const Arch& arch, ir::DType dtype, std::optional<ir::OpCategory> category) {
    double perCycle = 0;
    for (const CoreGroup& group : arch.cluster.coreGroups)
        for (const ComputeUnit& unit : group.units) {
            auto entry = unit.opsPerCycle.find(dtype);
            if (entry == unit.opsPerCycle.end() || (category && !unit.supports(*category, dtype)))
                continue;
            perCycle += static_cast<double>(group.count) * entry->second;
        }
    return static_cast<double>(arch.clusters) * perCycle * arch.clockGhz * 1e9;
}

const Path* findPath(const Arch& arch, Memory from, Memory to) {
    const Path* reverse = nullptr;
    for (const Path& path : arch.paths) {
        if (path.from == from && path.to == to)
            return &path;
        if (path.from == to && path.to == from && reverse == nullptr)
            reverse = &path;
    }
    return reverse;
}

std::vector<UnitRef> unitsFor(const Arch& arch, ir::OpCategory category, ir::DType dtype) {
    std::vector<UnitRef> refs;
    const auto& groups = arch.cluster.coreGroups;
    for (size_t g = 0; g < groups.size(); ++g)
        for (size_t u = 0; u < groups[g].units.size(); ++u)
            if (groups[g].units[u].supports(category, dtype))
                refs.push_back({g, u});
    return refs;
}

} // namespace stagecraft::arch
