// toJson: Arch -> the resolved JSON text. Every field is written, defaults
// included, in the order docs/arch.md lists them; numbers that are whole are
// written without a fraction ("clock_ghz": 1), others in nlohmann's shortest
// round-trip form, so parseArch(toJson(a)) == a and the text never varies.

#include "arch/arch_json.h"
#include "arch/internal/energy_json.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace stagecraft::arch {

namespace {

using Json = nlohmann::ordered_json;

Json numberJson(double value) {
    constexpr double kExactLimit = 9007199254740992.0; // 2^53: every integer below is exact
    if (std::isfinite(value) && std::trunc(value) == value && std::fabs(value) < kExactLimit)
        return static_cast<int64_t>(value);
    return value;
}

Json unitJson(const ComputeUnit& unit) {
    Json ops = Json::object();
    for (const auto& [dtype, count] : unit.opsPerCycle)
        ops[std::string(ir::dtypeName(dtype))] = numberJson(count);
    Json json;
    json["name"] = unit.name;
    json["kind"] = unitKindName(unit.kind);
    Json categories = Json::array();
    for (ir::OpCategory category : unit.categories)
        categories.push_back(ir::opCategoryName(category));
    json["categories"] = std::move(categories);
    json["ops_per_cycle"] = std::move(ops);
    if (!unit.efficiency.empty()) {
        Json efficiency = Json::object();
        for (const auto& [category, share] : unit.efficiency)
            efficiency[category] = numberJson(share);
        json["efficiency"] = std::move(efficiency);
    }
    if (unit.arrayRows > 0)
        json["array"] = Json{{"rows", unit.arrayRows}, {"cols", unit.arrayCols}};
    return json;
}

Json groupJson(const CoreGroup& group) {
    Json json;
    json["name"] = group.name;
    json["count"] = group.count;
    if (group.localBuffer) {
        Json lb;
        lb["name"] = group.localBuffer->name;
        lb["bytes"] = group.localBuffer->bytes;
        lb["weight_reserve_bytes"] = group.localBuffer->weightReserveBytes;
        json["local_buffer"] = std::move(lb);
    } else {
        json["local_buffer"] = nullptr;
    }
    Json units = Json::array();
    for (const ComputeUnit& unit : group.units)
        units.push_back(unitJson(unit));
    json["units"] = std::move(units);
    return json;
}

Json memoryJson(const MemorySpec& memory) {
    Json json;
    json["name"] = memory.name;
    json["bytes"] = memory.bytes;
    if (memory.cache)
        json["cache"] = true;
    return json;
}

Json clusterJson(const Cluster& cluster) {
    Json groups = Json::array();
    for (const CoreGroup& group : cluster.coreGroups)
        groups.push_back(groupJson(group));
    Json json;
    json["core_groups"] = std::move(groups);
    json["global_buffer"] = cluster.globalBuffer ? memoryJson(*cluster.globalBuffer) : Json();
    return json;
}

Json pathJson(const Path& path) {
    Json json;
    json["from"] = memoryName(path.from);
    json["to"] = memoryName(path.to);
    json["bandwidth_gbps"] = numberJson(path.bandwidthGBps);
    json["latency_ns"] = numberJson(path.latencyNs);
    json["channels"] = path.channels;
    json["shared_by"] = sharingName(path.sharedBy);
    return json;
}

} // namespace

std::string toJson(const Arch& arch) {
    Json json;
    json["format"] = kArchFormat;
    json["version"] = kArchVersion;
    json["name"] = arch.name;
    json["description"] = arch.description;
    json["clock_ghz"] = numberJson(arch.clockGhz);
    json["clusters"] = arch.clusters;
    json["cluster"] = clusterJson(arch.cluster);
    json["ddr"] = memoryJson(arch.ddr);
    Json paths = Json::array();
    for (const Path& path : arch.paths)
        paths.push_back(pathJson(path));
    json["paths"] = std::move(paths);
    json["overheads"]["kernel_launch_ns"] = numberJson(arch.overheads.kernelLaunchNs);
    json["overheads"]["sync_ns"] = numberJson(arch.overheads.syncNs);
    if (arch.fallbackCpu) {
        json["fallback_cpu"]["name"] = arch.fallbackCpu->name;
        json["fallback_cpu"]["gflops"] = numberJson(arch.fallbackCpu->gflops);
    } else {
        json["fallback_cpu"] = nullptr;
    }
    if (arch.supportedOps) {
        Json kinds = Json::array();
        for (ir::OpKind kind : *arch.supportedOps)
            kinds.push_back(std::string(ir::opKindName(kind)));
        json["supported_ops"] = std::move(kinds);
    }
    if (arch.energy)
        json["energy"] = detail::energyJson(*arch.energy);
    // replace: a name built in code with invalid UTF-8 must not make dump() throw.
    return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace stagecraft::arch
