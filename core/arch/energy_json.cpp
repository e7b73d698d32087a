// The `energy` section of an architecture file (docs/arch.md, "Energy"):
// an Accelergy-style table of picojoules per action — per operation of each
// compute unit and dtype, per byte read and written at each memory level,
// per byte carried by each path's wires — and leakage in milliwatts per
// unit and memory instance. Read (shape, with JSON paths in errors),
// written (every field, fixed order) and validated against the arch it
// describes, so a table can neither miss a unit nor price one the chip
// lacks.

#include "arch/internal/energy_json.h"

#include "arch/internal/json_fields.h"
#include "support/strings.h"

#include <charconv>
#include <cmath>
#include <set>

namespace stagecraft::arch::detail {

namespace {

using namespace json_fields;
using OrderedJson = nlohmann::ordered_json;

constexpr double kMaxPj = 1e9; // a millijoule per action prices no real action
constexpr double kMaxMw = 1e9; // a megawatt of leakage describes no chip
constexpr const char* kAnyNumber = "a non-negative number";

Expected<double> nonNegative(const Json& value, const std::string& path) {
    return getNumber(value, path, kAnyNumber);
}

Expected<std::map<ir::DType, double>> parsePjPerOp(const Json& value, const std::string& path) {
    if (!value.is_object())
        return mustBe(path, "an object of dtype: picojoules", value);
    std::map<ir::DType, double> pj;
    for (const auto& [key, count] : value.items()) {
        auto dtype = ir::parseDType(key);
        if (!dtype || !isComputeDType(*dtype))
            return errorAt(path, "unknown dtype " + quote(key));
        SC_ASSIGN_OR_RETURN(pj[*dtype], nonNegative(count, child(path, key)));
    }
    return pj;
}

Expected<UnitEnergy> parseUnitEnergy(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(checkObject(value, path, {"pj_per_op", "static_mw"}));
    UnitEnergy unit;
    SC_ASSIGN_OR_RETURN(const Json* ops, required(value, path, "pj_per_op"));
    SC_ASSIGN_OR_RETURN(unit.pjPerOp, parsePjPerOp(*ops, child(path, "pj_per_op")));
    SC_ASSIGN_OR_RETURN(unit.staticMw, numberField(value, path, "static_mw", kAnyNumber));
    return unit;
}

Expected<MemoryEnergy> parseMemoryEnergy(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(
        checkObject(value, path, {"read_pj_per_byte", "write_pj_per_byte", "static_mw"}));
    MemoryEnergy memory;
    SC_ASSIGN_OR_RETURN(memory.readPjPerByte,
                        numberField(value, path, "read_pj_per_byte", kAnyNumber));
    SC_ASSIGN_OR_RETURN(memory.writePjPerByte,
                        numberField(value, path, "write_pj_per_byte", kAnyNumber));
    SC_ASSIGN_OR_RETURN(memory.staticMw, numberField(value, path, "static_mw", kAnyNumber));
    return memory;
}

Expected<Memory> levelField(const Json& value, const std::string& path, const char* key) {
    SC_ASSIGN_OR_RETURN(std::string name, stringField(value, path, key));
    std::optional<Memory> level = parseMemory(name);
    if (!level)
        return errorAt(child(path, key),
                       "unknown level " + quote(name) + " (expected DDR, GB or LB)");
    return *level;
}

Expected<std::vector<PathEnergy>> parsePathEnergies(const Json& value, const std::string& path) {
    if (!value.is_array())
        return mustBe(path, "an array of {from, to, pj_per_byte}", value);
    std::vector<PathEnergy> paths;
    for (size_t i = 0; i < value.size(); ++i) {
        std::string at = item(path, i);
        SC_RETURN_IF_ERROR(checkObject(value[i], at, {"from", "to", "pj_per_byte"}));
        PathEnergy p;
        SC_ASSIGN_OR_RETURN(p.from, levelField(value[i], at, "from"));
        SC_ASSIGN_OR_RETURN(p.to, levelField(value[i], at, "to"));
        SC_ASSIGN_OR_RETURN(p.pjPerByte, numberField(value[i], at, "pj_per_byte", kAnyNumber));
        paths.push_back(p);
    }
    return paths;
}

Expected<std::map<std::string, UnitEnergy>> parseUnits(const Json& value, const std::string& path) {
    if (!value.is_object())
        return mustBe(path, "an object of unit name: {pj_per_op, static_mw}", value);
    std::map<std::string, UnitEnergy> units;
    for (const auto& [name, unit] : value.items()) {
        SC_ASSIGN_OR_RETURN(units[name], parseUnitEnergy(unit, child(path, name)));
    }
    return units;
}

Expected<std::map<Memory, MemoryEnergy>> parseMemories(const Json& value, const std::string& path) {
    if (!value.is_object())
        return mustBe(path, "an object of level (DDR, GB, LB): energies", value);
    std::map<Memory, MemoryEnergy> memories;
    for (const auto& [name, memory] : value.items()) {
        std::optional<Memory> level = parseMemory(name);
        if (!level)
            return errorAt(path, "unknown level " + quote(name) + " (expected DDR, GB or LB)");
        SC_ASSIGN_OR_RETURN(memories[*level], parseMemoryEnergy(memory, child(path, name)));
    }
    return memories;
}

Expected<FallbackEnergy> parseFallbackEnergy(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(checkObject(value, path, {"pj_per_op", "static_mw"}));
    FallbackEnergy cpu;
    SC_ASSIGN_OR_RETURN(cpu.pjPerOp, numberField(value, path, "pj_per_op", kAnyNumber));
    SC_ASSIGN_OR_RETURN(cpu.staticMw, numberField(value, path, "static_mw", kAnyNumber));
    return cpu;
}

OrderedJson number(double value) {
    if (std::isfinite(value) && std::trunc(value) == value && std::fabs(value) < 9e15)
        return static_cast<int64_t>(value);
    return value;
}

std::string shown(double value) {
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc() ? std::string(buffer, end) : std::string("?");
}

Status inRange(const std::string& path, double value, double most) {
    if (std::isfinite(value) && value >= 0 && value <= most)
        return {};
    return Error(path + ": must be from 0 to " + shown(most) + " (got " + shown(value) + ")");
}

Status validateUnits(const Arch& arch, const EnergyModel& energy) {
    std::set<std::string> names;
    for (const CoreGroup& group : arch.cluster.coreGroups)
        for (const ComputeUnit& unit : group.units) {
            names.insert(unit.name);
            std::string at = "energy.units." + unit.name;
            auto entry = energy.units.find(unit.name);
            if (entry == energy.units.end())
                return Error("energy.units: no entry for unit " + quote(unit.name));
            for (const auto& [dtype, rate] : unit.opsPerCycle)
                if (!entry->second.pjPerOp.contains(dtype))
                    return Error(at + ".pj_per_op: no entry for " +
                                 std::string(ir::dtypeName(dtype)) + ", which the unit runs");
        }
    for (const auto& [name, unit] : energy.units) {
        std::string at = "energy.units." + name;
        if (!names.contains(name))
            return Error("energy.units: " + quote(name) + " is no unit of the architecture");
        for (const auto& [dtype, pj] : unit.pjPerOp)
            SC_RETURN_IF_ERROR(
                inRange(at + ".pj_per_op." + std::string(ir::dtypeName(dtype)), pj, kMaxPj));
        SC_RETURN_IF_ERROR(inRange(at + ".static_mw", unit.staticMw, kMaxMw));
    }
    return {};
}

bool hasLevel(const Arch& arch, Memory level) {
    if (level == Memory::DDR)
        return true;
    if (level == Memory::GB)
        return arch.cluster.globalBuffer.has_value();
    for (const CoreGroup& group : arch.cluster.coreGroups)
        if (group.localBuffer)
            return true;
    return false;
}

Status validateMemories(const Arch& arch, const EnergyModel& energy) {
    for (Memory level : {Memory::DDR, Memory::GB, Memory::LB}) {
        std::string at = "energy.memories." + std::string(memoryName(level));
        auto entry = energy.memories.find(level);
        if (!hasLevel(arch, level)) {
            if (entry != energy.memories.end())
                return Error(at + ": the architecture has no " + std::string(memoryName(level)));
            continue;
        }
        if (entry == energy.memories.end())
            return Error("energy.memories: no entry for " + std::string(memoryName(level)));
        SC_RETURN_IF_ERROR(inRange(at + ".read_pj_per_byte", entry->second.readPjPerByte, kMaxPj));
        SC_RETURN_IF_ERROR(
            inRange(at + ".write_pj_per_byte", entry->second.writePjPerByte, kMaxPj));
        SC_RETURN_IF_ERROR(inRange(at + ".static_mw", entry->second.staticMw, kMaxMw));
    }
    return {};
}

std::string pathName(Memory from, Memory to) {
    return std::string(memoryName(from)) + "->" + std::string(memoryName(to));
}

Status validatePathEnergies(const Arch& arch, const EnergyModel& energy) {
    auto entryOf = [&](const Path& p) {
        return std::count_if(energy.paths.begin(), energy.paths.end(),
                             [&](const PathEnergy& e) { return e.from == p.from && e.to == p.to; });
    };
    for (const Path& p : arch.paths)
        if (entryOf(p) != 1)
            return Error("energy.paths: needs exactly one entry for the path " +
                         pathName(p.from, p.to) + " (has " + std::to_string(entryOf(p)) + ")");
    for (size_t i = 0; i < energy.paths.size(); ++i) {
        const PathEnergy& e = energy.paths[i];
        std::string at = "energy.paths[" + std::to_string(i) + "]";
        bool known = std::any_of(arch.paths.begin(), arch.paths.end(),
                                 [&](const Path& p) { return p.from == e.from && p.to == e.to; });
        if (!known)
            return Error(at + ": the architecture has no path " + pathName(e.from, e.to));
        SC_RETURN_IF_ERROR(inRange(at + ".pj_per_byte", e.pjPerByte, kMaxPj));
    }
    return {};
}

} // namespace

Expected<std::optional<EnergyModel>> parseEnergy(const nlohmann::json* value,
                                                 const std::string& path) {
    if (value == nullptr || value->is_null())
        return std::optional<EnergyModel>();
    SC_RETURN_IF_ERROR(
        checkObject(*value, path, {"source", "units", "memories", "paths", "fallback_cpu"}));
    EnergyModel energy;
    SC_ASSIGN_OR_RETURN(energy.source, stringField(*value, path, "source"));
    SC_ASSIGN_OR_RETURN(const Json* units, required(*value, path, "units"));
    SC_ASSIGN_OR_RETURN(energy.units, parseUnits(*units, child(path, "units")));
    SC_ASSIGN_OR_RETURN(const Json* memories, required(*value, path, "memories"));
    SC_ASSIGN_OR_RETURN(energy.memories, parseMemories(*memories, child(path, "memories")));
    SC_ASSIGN_OR_RETURN(const Json* paths, required(*value, path, "paths"));
    SC_ASSIGN_OR_RETURN(energy.paths, parsePathEnergies(*paths, child(path, "paths")));
    if (const Json* cpu = optional(*value, "fallback_cpu"); cpu != nullptr && !cpu->is_null()) {
        SC_ASSIGN_OR_RETURN(energy.fallbackCpu,
                            parseFallbackEnergy(*cpu, child(path, "fallback_cpu")));
    }
    return std::optional<EnergyModel>(std::move(energy));
}

nlohmann::ordered_json energyJson(const EnergyModel& energy) {
    OrderedJson json;
    json["source"] = energy.source;
    OrderedJson units = OrderedJson::object();
    for (const auto& [name, unit] : energy.units) {
        OrderedJson ops = OrderedJson::object();
        for (const auto& [dtype, pj] : unit.pjPerOp)
            ops[std::string(ir::dtypeName(dtype))] = number(pj);
        units[name] =
            OrderedJson{{"pj_per_op", std::move(ops)}, {"static_mw", number(unit.staticMw)}};
    }
    json["units"] = std::move(units);
    OrderedJson memories = OrderedJson::object();
    for (const auto& [level, memory] : energy.memories)
        memories[std::string(memoryName(level))] =
            OrderedJson{{"read_pj_per_byte", number(memory.readPjPerByte)},
                        {"write_pj_per_byte", number(memory.writePjPerByte)},
                        {"static_mw", number(memory.staticMw)}};
    json["memories"] = std::move(memories);
    OrderedJson paths = OrderedJson::array();
    for (const PathEnergy& p : energy.paths)
        paths.push_back(OrderedJson{{"from", memoryName(p.from)},
                                    {"to", memoryName(p.to)},
                                    {"pj_per_byte", number(p.pjPerByte)}});
    json["paths"] = std::move(paths);
    if (energy.fallbackCpu)
        json["fallback_cpu"] = OrderedJson{{"pj_per_op", number(energy.fallbackCpu->pjPerOp)},
                                           {"static_mw", number(energy.fallbackCpu->staticMw)}};
    return json;
}

Status validateEnergy(const Arch& arch) {
    if (!arch.energy)
        return {};
    const EnergyModel& energy = *arch.energy;
    if (energy.source.empty())
        return Error("energy.source: must say where the figures come from");
    SC_RETURN_IF_ERROR(validateUnits(arch, energy));
    SC_RETURN_IF_ERROR(validateMemories(arch, energy));
    SC_RETURN_IF_ERROR(validatePathEnergies(arch, energy));
    if (energy.fallbackCpu.has_value() != arch.fallbackCpu.has_value())
        return Error(arch.fallbackCpu
                         ? "energy.fallback_cpu: needed, the architecture has one"
                         : "energy.fallback_cpu: the architecture has no fallback CPU");
    if (energy.fallbackCpu) {
        SC_RETURN_IF_ERROR(
            inRange("energy.fallback_cpu.pj_per_op", energy.fallbackCpu->pjPerOp, kMaxPj));
        SC_RETURN_IF_ERROR(
            inRange("energy.fallback_cpu.static_mw", energy.fallbackCpu->staticMw, kMaxMw));
    }
    return {};
}

} // namespace stagecraft::arch::detail
