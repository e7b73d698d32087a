// parseArch: JSON text -> Arch. This file checks the shape of the document
// (types, missing and unknown fields, names of enums, dtypes and categories)
// with the JSON path of every field; validateArch then checks the values.
// Choices: unknown fields are errors (they are usually typos); only a few
// fields have defaults (docs/arch.md lists them); nlohmann exceptions stop
// here and become Errors with the line and column nlohmann reports.

#include "arch/arch_json.h"
#include "arch/internal/energy_json.h"
#include "arch/internal/json_fields.h"
#include "support/file.h"
#include "support/json_depth.h"
#include "support/strings.h"

#include <algorithm>

namespace stagecraft::arch {

namespace {

using namespace json_fields;

Expected<std::vector<ir::OpCategory>> parseCategories(const Json& value, const std::string& path) {
    if (!value.is_array())
        return mustBe(path, "an array of category names", value);
    std::vector<ir::OpCategory> categories;
    for (size_t i = 0; i < value.size(); ++i) {
        SC_ASSIGN_OR_RETURN(std::string name, getString(value[i], item(path, i)));
        std::optional<ir::OpCategory> category = ir::parseOpCategory(name);
        if (!category)
            return errorAt(item(path, i), "unknown category " + quote(name) +
                                              " (expected elementwise, injective, reduction, "
                                              "complex or opaque)");
        if (std::find(categories.begin(), categories.end(), *category) != categories.end())
            return errorAt(item(path, i), "duplicate category " + quote(name));
        categories.push_back(*category);
    }
    std::sort(categories.begin(), categories.end());
    return categories;
}

std::string computeDTypeNames() {
    std::vector<std::string> names;
    for (int i = 0; i <= static_cast<int>(ir::DType::String); ++i)
        if (auto dtype = static_cast<ir::DType>(i); isComputeDType(dtype))
            names.emplace_back(ir::dtypeName(dtype));
    return join(names, ", ");
}

Expected<std::map<ir::DType, double>> parseOpsPerCycle(const Json& value, const std::string& path) {
    if (!value.is_object())
        return mustBe(path, "an object of dtype: number", value);
    std::map<ir::DType, double> ops;
    for (const auto& [key, count] : value.items()) {
        auto dtype = ir::parseDType(key);
        if (!dtype || !isComputeDType(*dtype))
            return errorAt(path, "unknown dtype " + quote(key) + " (expected " +
                                     computeDTypeNames() + ")");
        SC_ASSIGN_OR_RETURN(ops[*dtype], getNumber(count, child(path, key), "a positive number"));
    }
    return ops;
}

Expected<std::map<std::string, double>> parseEfficiency(const Json& value,
                                                        const std::string& path) {
    if (!value.is_object())
        return mustBe(path, "an object of category or op family: number", value);
    auto known = efficiencyKeys();
    std::map<std::string, double> efficiency;
    for (const auto& [key, share] : value.items()) {
        if (std::find(known.begin(), known.end(), key) == known.end())
            return errorAt(path, "unknown category or op family " + quote(key) +
                                     " (expected elementwise, injective, reduction, complex, "
                                     "opaque, conv, matmul, normalization or transcendental)");
        SC_ASSIGN_OR_RETURN(efficiency[key],
                            getNumber(share, child(path, key), "a number in (0, 1]"));
    }
    return efficiency;
}

Expected<ComputeUnit> parseUnit(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(checkObject(
        value, path, {"name", "kind", "categories", "ops_per_cycle", "efficiency", "array"}));
    ComputeUnit unit;
    SC_ASSIGN_OR_RETURN(unit.name, stringField(value, path, "name"));
    SC_ASSIGN_OR_RETURN(std::string kind, stringField(value, path, "kind"));
    auto parsedKind = parseUnitKind(kind);
    if (!parsedKind)
        return errorAt(child(path, "kind"),
                       "unknown kind " + quote(kind) + " (expected matrix, vector or scalar)");
    unit.kind = *parsedKind;
    SC_ASSIGN_OR_RETURN(const Json* categories, required(value, path, "categories"));
    SC_ASSIGN_OR_RETURN(unit.categories, parseCategories(*categories, child(path, "categories")));
    SC_ASSIGN_OR_RETURN(const Json* ops, required(value, path, "ops_per_cycle"));
    SC_ASSIGN_OR_RETURN(unit.opsPerCycle, parseOpsPerCycle(*ops, child(path, "ops_per_cycle")));
    if (const Json* efficiency = optional(value, "efficiency")) {
        SC_ASSIGN_OR_RETURN(unit.efficiency,
                            parseEfficiency(*efficiency, child(path, "efficiency")));
    }
    if (const Json* array = optional(value, "array")) {
        std::string at = child(path, "array");
        SC_RETURN_IF_ERROR(checkObject(*array, at, {"rows", "cols"}));
        SC_ASSIGN_OR_RETURN(unit.arrayRows, intField(*array, at, "rows", "a positive integer"));
        SC_ASSIGN_OR_RETURN(unit.arrayCols, intField(*array, at, "cols", "a positive integer"));
    }
    return unit;
}

Expected<std::optional<LocalBuffer>> parseLocalBuffer(const Json& value, const std::string& path) {
    if (value.is_null())
        return std::optional<LocalBuffer>();
    SC_RETURN_IF_ERROR(checkObject(value, path, {"name", "bytes", "weight_reserve_bytes"}));
    LocalBuffer lb;
    SC_ASSIGN_OR_RETURN(lb.name, stringField(value, path, "name"));
    SC_ASSIGN_OR_RETURN(lb.bytes, intField(value, path, "bytes", "a positive integer"));
    if (const Json* reserve = optional(value, "weight_reserve_bytes")) {
        SC_ASSIGN_OR_RETURN(
            lb.weightReserveBytes,
            getInt(*reserve, child(path, "weight_reserve_bytes"), "a non-negative integer"));
    }
    return std::optional<LocalBuffer>(std::move(lb));
}

Expected<CoreGroup> parseGroup(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(checkObject(value, path, {"name", "count", "local_buffer", "units"}));
    CoreGroup group;
    SC_ASSIGN_OR_RETURN(group.name, stringField(value, path, "name"));
    SC_ASSIGN_OR_RETURN(group.count, intField(value, path, "count", "a positive integer"));
    SC_ASSIGN_OR_RETURN(const Json* lb, required(value, path, "local_buffer"));
    SC_ASSIGN_OR_RETURN(group.localBuffer, parseLocalBuffer(*lb, child(path, "local_buffer")));
    SC_ASSIGN_OR_RETURN(const Json* units, required(value, path, "units"));
    std::string unitsPath = child(path, "units");
    if (!units->is_array())
        return mustBe(unitsPath, "an array of units", *units);
    for (size_t i = 0; i < units->size(); ++i) {
        SC_ASSIGN_OR_RETURN(ComputeUnit unit, parseUnit((*units)[i], item(unitsPath, i)));
        group.units.push_back(std::move(unit));
    }
    return group;
}

Expected<MemorySpec> parseMemorySpec(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(checkObject(value, path, {"name", "bytes", "cache"}));
    MemorySpec memory;
    SC_ASSIGN_OR_RETURN(memory.name, stringField(value, path, "name"));
    SC_ASSIGN_OR_RETURN(memory.bytes, intField(value, path, "bytes", "a positive integer"));
    if (const Json* cache = optional(value, "cache")) {
        if (!cache->is_boolean())
            return mustBe(child(path, "cache"), "true or false", *cache);
        memory.cache = cache->get<bool>();
    }
    return memory;
}

Expected<Cluster> parseCluster(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(checkObject(value, path, {"core_groups", "global_buffer"}));
    Cluster cluster;
    SC_ASSIGN_OR_RETURN(const Json* groups, required(value, path, "core_groups"));
    std::string groupsPath = child(path, "core_groups");
    if (!groups->is_array())
        return mustBe(groupsPath, "an array of core groups", *groups);
    for (size_t i = 0; i < groups->size(); ++i) {
        SC_ASSIGN_OR_RETURN(CoreGroup group, parseGroup((*groups)[i], item(groupsPath, i)));
        cluster.coreGroups.push_back(std::move(group));
    }
    SC_ASSIGN_OR_RETURN(const Json* gb, required(value, path, "global_buffer"));
    if (!gb->is_null()) {
        SC_ASSIGN_OR_RETURN(MemorySpec memory, parseMemorySpec(*gb, child(path, "global_buffer")));
        cluster.globalBuffer = std::move(memory);
    }
    return cluster;
}

Expected<Memory> memoryField(const Json& object, const std::string& path, const char* key) {
    SC_ASSIGN_OR_RETURN(std::string name, stringField(object, path, key));
    auto memory = parseMemory(name);
    if (!memory)
        return errorAt(child(path, key),
                       "unknown memory " + quote(name) + " (expected DDR, GB or LB)");
    return *memory;
}

/// shared_by when a path leaves it out: DDR is one per chip, a GB one per
/// cluster, and LB->LB links belong to each core.
Sharing defaultSharing(Memory from, Memory to) {
    if (from == Memory::DDR || to == Memory::DDR)
        return Sharing::Chip;
    if (from == Memory::GB || to == Memory::GB)
        return Sharing::Cluster;
    return Sharing::Core;
}

Expected<Path> parsePath(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(checkObject(
        value, path, {"from", "to", "bandwidth_gbps", "latency_ns", "channels", "shared_by"}));
    Path p;
    SC_ASSIGN_OR_RETURN(p.from, memoryField(value, path, "from"));
    SC_ASSIGN_OR_RETURN(p.to, memoryField(value, path, "to"));
    SC_ASSIGN_OR_RETURN(p.bandwidthGBps,
                        numberField(value, path, "bandwidth_gbps", "a positive number"));
    SC_ASSIGN_OR_RETURN(p.latencyNs,
                        numberField(value, path, "latency_ns", "a non-negative number"));
    if (const Json* channels = optional(value, "channels")) {
        SC_ASSIGN_OR_RETURN(p.channels,
                            getInt(*channels, child(path, "channels"), "a positive integer"));
    }
    p.sharedBy = defaultSharing(p.from, p.to);
    if (const Json* shared = optional(value, "shared_by")) {
        SC_ASSIGN_OR_RETURN(std::string name, getString(*shared, child(path, "shared_by")));
        auto sharing = parseSharing(name);
        if (!sharing)
            return errorAt(child(path, "shared_by"),
                           "unknown sharing " + quote(name) + " (expected chip, cluster or core)");
        p.sharedBy = *sharing;
    }
    return p;
}

Expected<Overheads> parseOverheads(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(checkObject(value, path, {"kernel_launch_ns", "sync_ns"}));
    Overheads overheads;
    SC_ASSIGN_OR_RETURN(overheads.kernelLaunchNs,
                        numberField(value, path, "kernel_launch_ns", "a non-negative number"));
    SC_ASSIGN_OR_RETURN(overheads.syncNs,
                        numberField(value, path, "sync_ns", "a non-negative number"));
    return overheads;
}

Expected<std::optional<FallbackCpu>> parseFallback(const Json* value, const std::string& path) {
    if (value == nullptr || value->is_null())
        return std::optional<FallbackCpu>();
    SC_RETURN_IF_ERROR(checkObject(*value, path, {"name", "gflops"}));
    FallbackCpu cpu;
    SC_ASSIGN_OR_RETURN(cpu.name, stringField(*value, path, "name"));
    SC_ASSIGN_OR_RETURN(cpu.gflops, numberField(*value, path, "gflops", "a positive number"));
    return std::optional<FallbackCpu>(std::move(cpu));
}

/// `supported_ops`: known ONNX op types, each once; absent or null: unset.
Expected<std::optional<std::vector<ir::OpKind>>> parseSupportedOps(const Json* value,
                                                                   const std::string& path) {
    if (value == nullptr || value->is_null())
        return std::optional<std::vector<ir::OpKind>>();
    if (!value->is_array())
        return mustBe(path, "an array of ONNX op types", *value);
    std::vector<ir::OpKind> kinds;
    for (size_t i = 0; i < value->size(); ++i) {
        SC_ASSIGN_OR_RETURN(std::string name, getString((*value)[i], item(path, i)));
        ir::OpKind kind = ir::opKindOf(name);
        if (kind == ir::OpKind::Unknown)
            return errorAt(item(path, i), "unknown op type " + quote(name) +
                                              " (expected an ONNX op type such as Conv or Relu)");
        if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end())
            return errorAt(item(path, i), "duplicate op type " + quote(name));
        kinds.push_back(kind);
    }
    std::sort(kinds.begin(), kinds.end());
    return std::optional<std::vector<ir::OpKind>>(std::move(kinds));
}

Status checkHeader(const Json& root) {
    SC_ASSIGN_OR_RETURN(std::string format, stringField(root, "", "format"));
    if (format != kArchFormat)
        return errorAt("format", "expected " + quote(kArchFormat) + " (got " + quote(format) + ")");
    SC_ASSIGN_OR_RETURN(int64_t version, intField(root, "", "version", "an integer"));
    if (version != kArchVersion)
        return errorAt("version", "unsupported version " + std::to_string(version) +
                                      " (this build reads version " + std::to_string(kArchVersion) +
                                      ")");
    return {};
}

Expected<std::vector<Path>> parsePaths(const Json& root) {
    SC_ASSIGN_OR_RETURN(const Json* paths, required(root, "", "paths"));
    if (!paths->is_array())
        return mustBe("paths", "an array of paths", *paths);
    std::vector<Path> result;
    for (size_t i = 0; i < paths->size(); ++i) {
        SC_ASSIGN_OR_RETURN(Path p, parsePath((*paths)[i], item("paths", i)));
        result.push_back(p);
    }
    return result;
}

Expected<Arch> parseRoot(const Json& root) {
    if (!root.is_object())
        return mustBe("", "a JSON object", root);
    SC_RETURN_IF_ERROR(checkHeader(root));
    SC_RETURN_IF_ERROR(
        checkObject(root, "",
                    {"format", "version", "name", "description", "clock_ghz", "clusters", "cluster",
                     "ddr", "paths", "overheads", "fallback_cpu", "supported_ops", "energy"}));
    Arch arch;
    SC_ASSIGN_OR_RETURN(arch.name, stringField(root, "", "name"));
    if (const Json* description = optional(root, "description")) {
        SC_ASSIGN_OR_RETURN(arch.description, getString(*description, "description"));
    }
    SC_ASSIGN_OR_RETURN(arch.clockGhz, numberField(root, "", "clock_ghz", "a positive number"));
    SC_ASSIGN_OR_RETURN(arch.clusters, intField(root, "", "clusters", "a positive integer"));
    SC_ASSIGN_OR_RETURN(const Json* cluster, required(root, "", "cluster"));
    SC_ASSIGN_OR_RETURN(arch.cluster, parseCluster(*cluster, "cluster"));
    SC_ASSIGN_OR_RETURN(const Json* ddr, required(root, "", "ddr"));
    SC_ASSIGN_OR_RETURN(arch.ddr, parseMemorySpec(*ddr, "ddr"));
    SC_ASSIGN_OR_RETURN(arch.paths, parsePaths(root));
    SC_ASSIGN_OR_RETURN(const Json* overheads, required(root, "", "overheads"));
    SC_ASSIGN_OR_RETURN(arch.overheads, parseOverheads(*overheads, "overheads"));
    SC_ASSIGN_OR_RETURN(arch.fallbackCpu,
                        parseFallback(optional(root, "fallback_cpu"), "fallback_cpu"));
    SC_ASSIGN_OR_RETURN(arch.supportedOps,
                        parseSupportedOps(optional(root, "supported_ops"), "supported_ops"));
    SC_ASSIGN_OR_RETURN(arch.energy, detail::parseEnergy(optional(root, "energy"), "energy"));
    SC_RETURN_IF_ERROR(validateArch(arch));
    return arch;
}

} // namespace

Expected<Arch> parseArch(std::string_view json, std::string_view sourceName) {
    if (Status depth = checkJsonDepth(json); !depth.ok())
        return depth.error().withContext(sourceName);
    try {
        Json root = Json::parse(json.begin(), json.end());
        Expected<Arch> arch = parseRoot(root);
        if (!arch.ok())
            return arch.error().withContext(sourceName);
        return arch;
    } catch (const nlohmann::json::parse_error& e) {
        return Error("not valid JSON: " + untagged(e.what())).withContext(sourceName);
    } catch (const nlohmann::json::exception& e) {
        return Error("unreadable JSON: " + untagged(e.what())).withContext(sourceName);
    }
}

Expected<Arch> loadArchFile(const std::filesystem::path& path) {
    SC_ASSIGN_OR_RETURN(std::string text, readFile(path));
    return parseArch(text, path.string());
}

} // namespace stagecraft::arch
