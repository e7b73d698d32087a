// Architecture variants of a sweep. A short field name stands for one or
// more JSON pointers into the base's stagecraft-arch document (docs/arch.md):
//   clusters, clock_ghz        the chip's fields
//   cores, lb_bytes            every core group's count, local buffer bytes
//   gb_bytes                   the cluster's global buffer bytes
//   bandwidth:FROM->TO         the bandwidth_gbps of that path
//   rate:UNIT:DTYPE            ops_per_cycle of every unit named UNIT
// Anything starting with '/' is a JSON pointer itself. The value replaces a
// number; the architecture's schema decides which fields take whole values
// only (a fraction there is refused with the reader's error). The energy
// table follows the buffer sizes a variant changes, by docs/arch.md's SRAM
// rule: a byte read or written x sqrt(size ratio), leakage x size ratio.

#include "sweep/variant.h"

#include "arch/arch_json.h"
#include "json/fields.h"
#include "support/error_context.h"
#include "support/strings.h"

#include <cmath>

namespace stagecraft::sweep {

namespace {

using json_fields::Json;
using Pointer = Json::json_pointer;

/// Pointers to the field \p member of every core group.
std::vector<Pointer> everyCoreGroup(const Json& arch, const std::string& member) {
    std::vector<Pointer> pointers;
    Pointer where("/cluster/core_groups");
    const Json* groups = arch.contains(where) ? &arch.at(where) : nullptr;
    for (size_t i = 0; groups && groups->is_array() && i < groups->size(); ++i)
        pointers.emplace_back("/cluster/core_groups/" + std::to_string(i) + member);
    return pointers;
}

std::vector<Pointer> pathBandwidth(const Json& arch, const std::string& route) {
    size_t arrow = route.find("->");
    if (arrow == std::string::npos || !arch.contains("paths") || !arch.at("paths").is_array())
        return {};
    std::string from = route.substr(0, arrow);
    std::string to = route.substr(arrow + 2);
    const Json& paths = arch.at("paths");
    for (size_t i = 0; i < paths.size(); ++i)
        if (paths[i].is_object() && paths[i].value("from", "") == from &&
            paths[i].value("to", "") == to)
            return {Pointer("/paths/" + std::to_string(i) + "/bandwidth_gbps")};
    return {};
}

std::vector<Pointer> unitRate(const Json& arch, const std::string& spec) {
    size_t colon = spec.rfind(':');
    if (colon == std::string::npos)
        return {};
    std::string unit = spec.substr(0, colon);
    std::string dtype = spec.substr(colon + 1);
    std::vector<Pointer> pointers;
    for (const Pointer& group : everyCoreGroup(arch, "")) {
        Pointer where = group / "units";
        const Json* units = arch.contains(where) ? &arch.at(where) : nullptr;
        for (size_t i = 0; units && units->is_array() && i < units->size(); ++i)
            if ((*units)[i].is_object() && (*units)[i].value("name", "") == unit)
                pointers.emplace_back(group.to_string() + "/units/" + std::to_string(i) +
                                      "/ops_per_cycle/" + dtype);
    }
    return pointers;
}

std::vector<Pointer> resolveNamed(const Json& arch, const std::string& field) {
    if (field == "clusters" || field == "clock_ghz")
        return {Pointer("/" + field)};
    if (field == "cores")
        return everyCoreGroup(arch, "/count");
    if (field == "lb_bytes")
        return everyCoreGroup(arch, "/local_buffer/bytes");
    if (field == "gb_bytes")
        return {Pointer("/cluster/global_buffer/bytes")};
    if (field.rfind("bandwidth:", 0) == 0)
        return pathBandwidth(arch, field.substr(10));
    if (field.rfind("rate:", 0) == 0)
        return unitRate(arch, field.substr(5));
    return {Pointer(field)};
}

/// The pointers \p field stands for in \p arch; empty when it names nothing.
std::vector<Pointer> resolveField(const Json& arch, const std::string& field) {
    try {
        return resolveNamed(arch, field);
    } catch (const nlohmann::json::exception&) {
        return {};
    }
}

/// Whether \p pointer names a number of \p arch (a new rate key counts: its
/// parent is an ops_per_cycle object).
bool namesNumber(const Json& arch, const Pointer& pointer) {
    try {
        if (arch.contains(pointer))
            return arch.at(pointer).is_number();
        Pointer parent = pointer.parent_pointer();
        return !parent.empty() && parent.back() == "ops_per_cycle" && arch.contains(parent);
    } catch (const nlohmann::json::exception&) {
        return false;
    }
}

/// Sets \p value as written: a whole value as an integer, any other as a
/// real. Whether the field takes it is the architecture schema's to say
/// (arch::parseArch reads the variant), not the base file's spelling: a
/// preset that writes "clock_ghz": 1 still takes 1.5.
void setField(Json& arch, const Pointer& pointer, double value) {
    if (value == std::floor(value) && std::fabs(value) <= 9e15)
        arch[pointer] = static_cast<int64_t>(value);
    else
        arch[pointer] = value;
}

Expected<Json> archDocument(const arch::Arch& base) {
    return json_fields::parse(arch::toJson(base));
}

int64_t localBufferBytes(const arch::Arch& arch) {
    for (const arch::CoreGroup& group : arch.cluster.coreGroups)
        if (group.localBuffer)
            return group.localBuffer->bytes;
    return 0;
}

int64_t globalBufferBytes(const arch::Arch& arch) {
    return arch.cluster.globalBuffer ? arch.cluster.globalBuffer->bytes : 0;
}

/// \p level's energy in \p variant scaled from \p base's by the SRAM rule
/// for a buffer of \p bytes instead of \p baseBytes.
void scaleMemory(arch::Arch& variant, const arch::Arch& base, arch::Memory level, int64_t baseBytes,
                 int64_t bytes) {
    if (!base.energy || !variant.energy || baseBytes <= 0 || bytes <= 0 || bytes == baseBytes)
        return;
    auto from = base.energy->memories.find(level);
    auto to = variant.energy->memories.find(level);
    if (from == base.energy->memories.end() || to == variant.energy->memories.end())
        return;
    double ratio = static_cast<double>(bytes) / static_cast<double>(baseBytes);
    to->second.readPjPerByte = from->second.readPjPerByte * std::sqrt(ratio);
    to->second.writePjPerByte = from->second.writePjPerByte * std::sqrt(ratio);
    to->second.staticMw = from->second.staticMw * ratio;
}

} // namespace

Status checkAxes(const arch::Arch& base, const SweepSpec& spec, std::string_view source) {
    SC_ASSIGN_OR_RETURN(Json arch, archDocument(base));
    for (const ArchAxis& axis : spec.axes) {
        std::vector<Pointer> pointers = resolveField(arch, axis.field);
        bool ok = !pointers.empty();
        for (const Pointer& pointer : pointers)
            ok = ok && namesNumber(arch, pointer);
        if (!ok)
            return Error(std::string(source) + ": arch.vary." + axis.field +
                         ": names no number of " + quote(spec.arch) + " (see 'stagecraft arch " +
                         spec.arch + " --json')");
    }
    return Status::success();
}

Expected<arch::Arch> archVariant(const arch::Arch& base, const SweepSpec& spec,
                                 const SweepPoint& point) {
    if (spec.axes.empty())
        return base;
    SC_ASSIGN_OR_RETURN(Json arch, archDocument(base));
    for (size_t i = 0; i < spec.axes.size() && i < point.archValues.size(); ++i)
        for (const Pointer& pointer : resolveField(arch, spec.axes[i].field))
            setField(arch, pointer, point.archValues[i]);
    std::string name = spec.arch;
    for (size_t i = 0; i < spec.axes.size() && i < point.archValues.size(); ++i)
        name += " " + spec.axes[i].field + "=" + formatNumber(point.archValues[i]);
    SC_ASSIGN_OR_RETURN(arch::Arch variant, arch::parseArch(arch.dump(), name));
    scaleMemory(variant, base, arch::Memory::LB, localBufferBytes(base), localBufferBytes(variant));
    scaleMemory(variant, base, arch::Memory::GB, globalBufferBytes(base),
                globalBufferBytes(variant));
    return variant;
}

} // namespace stagecraft::sweep
