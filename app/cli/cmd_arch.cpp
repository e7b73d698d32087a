// stagecraft arch: list the presets, or print one description (a preset or a
// JSON file) as a human summary or as the resolved JSON (docs/arch.md).

#include "arch/arch_json.h"
#include "arch/presets.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "support/strings.h"

#include <cstdio>
#include <iterator>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace stagecraft::cli {

namespace {

/// "64 KiB", "8 MiB", "1.50 GiB": binary units, as memories are sized.
std::string binaryBytes(int64_t bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    size_t unit = 0;
    while (value >= 1024 && unit + 1 < std::size(units)) {
        value /= 1024;
        ++unit;
    }
    char buffer[48];
    if (value == static_cast<double>(static_cast<int64_t>(value)))
        std::snprintf(buffer, sizeof buffer, "%.0f %s", value, units[unit]);
    else
        std::snprintf(buffer, sizeof buffer, "%.2f %s", value, units[unit]);
    return buffer;
}

/// "37.89 T" for operations (or bytes) per second.
std::string rate(double perSecond) {
    static const char* const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    size_t prefix = 0;
    while (perSecond >= 1000 && prefix + 1 < std::size(prefixes)) {
        perSecond /= 1000;
        ++prefix;
    }
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.2f %s", perSecond, prefixes[prefix]);
    return buffer;
}

std::string number(double value) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

/// Matrix units count multiply-accumulates (for complex ops), the others operations.
bool isMac(const arch::ComputeUnit& unit) {
    return unit.kind == arch::UnitKind::Matrix;
}

void printUnit(std::ostream& out, const arch::ComputeUnit& unit, double clockGhz) {
    std::vector<std::string> categories, perCycle, peak;
    for (ir::OpCategory category : unit.categories)
        categories.emplace_back(ir::opCategoryName(category));
    for (const auto& [dtype, ops] : unit.opsPerCycle) {
        perCycle.push_back(std::string(ir::dtypeName(dtype)) + " " + number(ops));
        peak.push_back(std::string(ir::dtypeName(dtype)) + " " + rate(ops * clockGhz * 1e9) +
                       (isMac(unit) ? "MAC/s" : "op/s"));
    }
    out << "    unit " << quote(unit.name) << " (" << arch::unitKindName(unit.kind)
        << "): " << join(categories, ", ") << "\n      per cycle: " << join(perCycle, ", ")
        << "\n      peak per core: " << join(peak, ", ") << "\n";
    if (unit.arrayRows > 0)
        out << "      array: " << unit.arrayRows << " x " << unit.arrayCols
            << " multiply-accumulators (reduction x output features)\n";
}

void printCluster(std::ostream& out, const arch::Arch& a) {
    out << "cluster (x" << a.clusters << "):\n";
    for (const arch::CoreGroup& group : a.cluster.coreGroups) {
        out << "  " << group.count << " x core " << quote(group.name) << "\n";
        if (const auto& lb = group.localBuffer)
            out << "    LB " << lb->name << ": " << binaryBytes(lb->bytes) << " ("
                << binaryBytes(lb->activationBytes()) << " for activations, "
                << binaryBytes(lb->weightReserveBytes) << " weight reserve)\n";
        else
            out << "    no LB: works from the GB\n";
        for (const arch::ComputeUnit& unit : group.units)
            printUnit(out, unit, a.clockGhz);
    }
    if (a.cluster.globalBuffer)
        out << "  GB " << a.cluster.globalBuffer->name << ": "
            << binaryBytes(a.cluster.globalBuffer->bytes) << "\n";
    else
        out << "  no GB\n";
    out << "  aggregate LB for activations: " << binaryBytes(arch::aggregateActivationBytes(a))
        << "\n";
}

void printPeaks(std::ostream& out, const arch::Arch& a) {
    std::set<ir::DType> dtypes;
    for (const arch::CoreGroup& group : a.cluster.coreGroups)
        for (const arch::ComputeUnit& unit : group.units)
            for (const auto& entry : unit.opsPerCycle)
                dtypes.insert(entry.first);
    std::vector<std::string> all, complex;
    for (ir::DType dtype : dtypes) {
        std::string name(ir::dtypeName(dtype));
        all.push_back(name + " " + rate(arch::peakOpsPerSecond(a, dtype)) + "op/s");
        if (double macs = arch::peakOpsPerSecond(a, dtype, ir::OpCategory::Complex); macs > 0)
            complex.push_back(name + " " + rate(macs) + "MAC/s");
    }
    out << "chip peak, all units (MAC for matrix units): " << join(all, ", ") << "\n";
    if (!complex.empty())
        out << "chip peak, complex ops: " << join(complex, ", ") << "\n";
}

/// The energy table in one block (docs/arch.md, "Energy").
void printEnergy(std::ostream& out, const arch::Arch& a) {
    if (!a.energy) {
        out << "energy: no table (energy is reported as unknown)\n";
        return;
    }
    const arch::EnergyModel& e = *a.energy;
    out << "energy: " << e.source << "\n";
    for (const auto& [name, unit] : e.units) {
        out << "  unit '" << name << "': pJ per op";
        for (const auto& [dtype, pj] : unit.pjPerOp)
            out << " " << ir::dtypeName(dtype) << " " << number(pj);
        out << ", leakage " << number(unit.staticMw) << " mW\n";
    }
    for (const auto& [level, memory] : e.memories)
        out << "  " << arch::memoryName(level) << ": read " << number(memory.readPjPerByte)
            << " pJ/B, write " << number(memory.writePjPerByte) << " pJ/B, leakage "
            << number(memory.staticMw) << " mW\n";
    for (const arch::PathEnergy& p : e.paths)
        out << "  " << arch::memoryName(p.from) << "->" << arch::memoryName(p.to) << " wires "
            << number(p.pjPerByte) << " pJ/B\n";
    if (e.fallbackCpu)
        out << "  fallback CPU: " << number(e.fallbackCpu->pjPerOp) << " pJ per op, leakage "
            << number(e.fallbackCpu->staticMw) << " mW\n";
}

void printSummary(std::ostream& out, const arch::Arch& a) {
    out << a.name << ": " << a.description << "\n"
        << "chip: " << a.clusters << " cluster(s) x " << arch::coresPerCluster(a)
        << " cores = " << arch::totalCores(a) << " cores at " << number(a.clockGhz) << " GHz\n";
    printCluster(out, a);
    out << "DDR " << a.ddr.name << ": " << binaryBytes(a.ddr.bytes) << "\npaths:\n";
    for (const arch::Path& path : a.paths)
        out << "  " << arch::memoryName(path.from) << "->" << arch::memoryName(path.to) << ": "
            << number(path.bandwidthGBps) << " GB/s per " << arch::sharingName(path.sharedBy)
            << ", latency " << number(path.latencyNs) << " ns, " << path.channels
            << " channel(s)\n";
    out << "overheads: kernel launch " << number(a.overheads.kernelLaunchNs) << " ns, sync "
        << number(a.overheads.syncNs) << " ns\n";
    if (a.fallbackCpu)
        out << "fallback CPU: " << a.fallbackCpu->name << ", " << number(a.fallbackCpu->gflops)
            << " GFLOP/s\n";
    else
        out << "fallback CPU: none\n";
    printEnergy(out, a);
    printPeaks(out, a);
}

int listPresets(std::ostream& out, std::ostream& err) {
    for (const std::string& name : arch::presetNames()) {
        auto preset = arch::loadPreset(name);
        if (!preset) {
            err << "stagecraft arch: " << preset.error().message() << "\n";
            return kExitBadInput;
        }
        out << name << std::string(name.size() < 16 ? 16 - name.size() : 1, ' ')
            << preset->description << (name == arch::kDefaultPreset ? " (default)" : "") << "\n";
    }
    return kExitOk;
}

int usageError(std::ostream& err, const std::string& message) {
    err << "stagecraft arch: " << message << " (see 'stagecraft arch --help')\n";
    return kExitBadUsage;
}

} // namespace

int runArch(const Args& args, std::ostream& out, std::ostream& err) {
    if (!args.empty() && args.front() == "calibrate")
        return runArchCalibrate(Args(args.begin() + 1, args.end()), out, err);
    ArgParser parser("stagecraft arch [NAME|FILE] [--json] | --list | calibrate [--out FILE]",
                     "Prints an accelerator (DSA) description: a preset or an architecture JSON\n"
                     "file (format in docs/arch.md). Without NAME|FILE: the default preset, " +
                         std::string(arch::kDefaultPreset) +
                         ".\n'stagecraft arch calibrate' measures this machine for host-cpu "
                         "(see its --help).");
    parser.addPositional("NAME|FILE", "a preset name (see --list) or a JSON file", false);
    parser.addSwitch("list", "list the presets with their descriptions");
    parser.addSwitch("json", "print the resolved, validated description as JSON");
    if (!parser.parse(args))
        return usageError(err, parser.error());
    if (parser.helpRequested()) {
        out << parser.helpText();
        return kExitOk;
    }
    std::optional<std::string> target = parser.positional("NAME|FILE");
    if (parser.has("list")) {
        if (target || parser.has("json"))
            return usageError(err, "--list takes no NAME|FILE and no --json");
        return listPresets(out, err);
    }
    auto resolved = arch::resolveArch(target.value_or(std::string(arch::kDefaultPreset)));
    if (!resolved) {
        err << "stagecraft arch: " << resolved.error().message() << "\n";
        return kExitBadInput;
    }
    if (parser.has("json"))
        out << arch::toJson(*resolved);
    else
        printSummary(out, *resolved);
    return kExitOk;
}

} // namespace stagecraft::cli
