// Energy of a simulated run (energy.h, docs/simulator.md "Energy"). Counts
// of actions come from what the simulator timed: compute tasks' work,
// transfer hops' bytes, and each layer's operands and results at its core's
// LB (a layer reads what it loaded and writes what it stores, once; reuse
// inside a tile stays in the unit's registers). Dynamic energy is counts x
// the arch's picojoules per action, over one cluster, scaled by clusters and
// iterations; leakage is the chip's static power x the latency, spread over
// kernels by their exclusive time (the attribution's), so parts add up.

#include "sim/energy.h"

#include "ops/semantics.h"

#include <algorithm>
#include <numeric>

namespace stagecraft::sim {

namespace {

using arch::Memory;
using A = EnergyAction;

constexpr std::string_view kActionNames[kEnergyActionCount] = {
    "compute_matrix", "compute_vector", "compute_scalar", "compute_fallback",
    "lb_read",        "lb_write",       "gb_read",        "gb_write",
    "ddr_read",       "ddr_write",      "ddr_link",       "chip_link",
    "static_compute", "static_lb",      "static_gb",      "static_ddr"};

constexpr std::string_view kLevels[] = {"compute", "LB", "GB", "DDR", "links", "static"};

void add(Energy& e, A action, double pj) {
    e.pj[static_cast<size_t>(action)] += pj;
}

A computeAction(arch::UnitKind kind) {
    return kind == arch::UnitKind::Matrix   ? A::ComputeMatrix
           : kind == arch::UnitKind::Vector ? A::ComputeVector
                                            : A::ComputeScalar;
}

A readAction(Memory m) {
    return m == Memory::DDR ? A::DdrRead : m == Memory::GB ? A::GbRead : A::LbRead;
}

A writeAction(Memory m) {
    return m == Memory::DDR ? A::DdrWrite : m == Memory::GB ? A::GbWrite : A::LbWrite;
}

/// Picojoules per operation of \p unit on \p dtype: its figure, else its
/// dearest (energy.h).
double pjPerOp(const arch::UnitEnergy& unit, ir::DType dtype) {
    if (auto it = unit.pjPerOp.find(dtype); it != unit.pjPerOp.end())
        return it->second;
    double dearest = 0;
    for (const auto& [type, pj] : unit.pjPerOp)
        dearest = std::max(dearest, pj);
    return dearest;
}

double pathPj(const arch::EnergyModel& table, Memory from, Memory to) {
    for (const arch::PathEnergy& p : table.paths)
        if (p.from == from && p.to == to)
            return p.pjPerByte;
    for (const arch::PathEnergy& p : table.paths) // a path serves both directions
        if (p.from == to && p.to == from)
            return p.pjPerByte;
    return 0;
}

const arch::MemoryEnergy* memoryOf(const arch::EnergyModel& table, Memory level) {
    auto it = table.memories.find(level);
    return it == table.memories.end() ? nullptr : &it->second;
}

/// Where a core's compute reads its operands: its LB, else the GB, else DDR.
Memory operandLevel(const arch::Arch& arch) {
    if (arch.cluster.coreGroups.front().localBuffer)
        return Memory::LB;
    return arch.cluster.globalBuffer ? Memory::GB : Memory::DDR;
}

class Counter {
public:
    Counter(const ir::Graph& graph, const arch::Arch& arch)
        : graph_(graph)
        , arch_(arch)
        , table_(*arch.energy) {}

    void computeTask(const kernel::Task& t, Energy& e) const {
        if (t.unit == kernel::kFallbackUnit) {
            add(e, A::ComputeFallback, t.work * table_.fallbackCpu->pjPerOp);
            return;
        }
        const arch::ComputeUnit& unit =
            arch_.cluster.coreGroups.front().units[static_cast<size_t>(t.unit)];
        ir::DType dtype = t.op != ir::kNoOp ? ops::computeTypeOf(graph_, t.op) : ir::DType::Float32;
        add(e, computeAction(unit.kind), t.work * pjPerOp(table_.units.at(unit.name), dtype));
    }

    void transfer(const kernel::Task& t, Energy& e) const {
        double bytes = static_cast<double>(t.bytes);
        if (const arch::MemoryEnergy* from = memoryOf(table_, t.from))
            add(e, readAction(t.from), bytes * from->readPjPerByte);
        if (const arch::MemoryEnergy* to = memoryOf(table_, t.to))
            add(e, writeAction(t.to), bytes * to->writePjPerByte);
        bool offChip = t.from == Memory::DDR || t.to == Memory::DDR;
        add(e, offChip ? A::DdrLink : A::ChipLink, bytes * pathPj(table_, t.from, t.to));
    }

    /// A layer reads its operands and weights at its cores' operand level
    /// and writes its results there; host layers (every op on the fallback
    /// CPU) are priced by the CPU's figure alone.
    void layerAccess(const kernel::Program& program, const kernel::Layer& layer, Energy& e) const {
        bool host = std::all_of(layer.ops.begin(), layer.ops.end(), [](const kernel::OpWork& w) {
            return w.unit == kernel::kFallbackUnit;
        });
        if (host)
            return;
        Memory level = operandLevel(arch_);
        const arch::MemoryEnergy* memory = memoryOf(table_, level);
        if (memory == nullptr)
            return;
        double read = static_cast<double>(layer.weightBytes);
        for (const kernel::Operand& in : layer.inputs)
            read += static_cast<double>(in.bytes);
        double written = 0;
        for (kernel::BufferId b : layer.outputs)
            written += static_cast<double>(program.buffers[b].bytes);
        add(e, readAction(level), read * memory->readPjPerByte);
        add(e, writeAction(level), written * memory->writePjPerByte);
    }

    /// The chip's leakage per part, milliwatts (energy over t ns: mW x ns = pJ).
    Energy staticMw() const {
        Energy mw;
        double clusters = static_cast<double>(arch_.clusters);
        for (const arch::CoreGroup& group : arch_.cluster.coreGroups) {
            double cores = static_cast<double>(group.count) * clusters;
            for (const arch::ComputeUnit& unit : group.units)
                add(mw, A::StaticCompute, cores * table_.units.at(unit.name).staticMw);
            if (group.localBuffer)
                add(mw, A::StaticLb, cores * table_.memories.at(Memory::LB).staticMw);
        }
        if (arch_.cluster.globalBuffer)
            add(mw, A::StaticGb, clusters * table_.memories.at(Memory::GB).staticMw);
        add(mw, A::StaticDdr, table_.memories.at(Memory::DDR).staticMw);
        if (table_.fallbackCpu)
            add(mw, A::StaticCompute, table_.fallbackCpu->staticMw);
        return mw;
    }

private:
    const ir::Graph& graph_;
    const arch::Arch& arch_;
    const arch::EnergyModel& table_;
};

Energy scaled(const Energy& e, double factor) {
    Energy out;
    for (size_t i = 0; i < kEnergyActionCount; ++i)
        out.pj[i] = e.pj[i] * factor;
    return out;
}

/// Dynamic energy per kernel of one cluster running the program once.
std::vector<Energy> dynamicPerKernel(const Counter& counter, const kernel::Program& program,
                                     const kernel::TaskGraph& tasks) {
    std::vector<Energy> kernels(program.kernels.size());
    for (const kernel::Task& t : tasks.tasks) {
        if (t.kernel < 0 || static_cast<size_t>(t.kernel) >= kernels.size())
            continue;
        if (t.kind == kernel::TaskKind::Compute)
            counter.computeTask(t, kernels[static_cast<size_t>(t.kernel)]);
        else if (t.isTransfer())
            counter.transfer(t, kernels[static_cast<size_t>(t.kernel)]);
    }
    for (size_t k = 0; k < program.kernels.size(); ++k)
        for (const kernel::Layer& layer : program.kernels[k].layers)
            counter.layerAccess(program, layer, kernels[k]);
    return kernels;
}

} // namespace

std::string_view energyActionName(EnergyAction action) {
    return kActionNames[static_cast<size_t>(action)];
}

bool isStaticAction(EnergyAction action) {
    return action >= A::StaticCompute;
}

std::span<const std::string_view> energyLevels() {
    return kLevels;
}

double Energy::totalPj() const {
    return std::accumulate(pj.begin(), pj.end(), 0.0);
}

double Energy::staticPj() const {
    double sum = 0;
    for (size_t i = 0; i < kEnergyActionCount; ++i)
        sum += isStaticAction(static_cast<A>(i)) ? pj[i] : 0;
    return sum;
}

double Energy::dynamicPj() const {
    return totalPj() - staticPj();
}

double Energy::ddrTrafficPj() const {
    return at(A::DdrRead) + at(A::DdrWrite) + at(A::DdrLink);
}

double Energy::levelPj(std::string_view level) const {
    if (level == "compute")
        return at(A::ComputeMatrix) + at(A::ComputeVector) + at(A::ComputeScalar) +
               at(A::ComputeFallback);
    if (level == "LB")
        return at(A::LbRead) + at(A::LbWrite);
    if (level == "GB")
        return at(A::GbRead) + at(A::GbWrite);
    if (level == "DDR")
        return at(A::DdrRead) + at(A::DdrWrite);
    if (level == "links")
        return at(A::DdrLink) + at(A::ChipLink);
    if (level == "static")
        return staticPj();
    return 0;
}

Energy& Energy::operator+=(const Energy& other) {
    for (size_t i = 0; i < kEnergyActionCount; ++i)
        pj[i] += other.pj[i];
    return *this;
}

std::optional<EnergyReport> estimateEnergy(const ir::Graph& graph, const arch::Arch& arch,
                                           const kernel::Program& program,
                                           const kernel::TaskGraph& tasks,
                                           const Attribution& attribution, int64_t iterations) {
    if (!arch.energy)
        return std::nullopt;
    Counter counter(graph, arch);
    double repeat = static_cast<double>(arch.clusters * std::max<int64_t>(iterations, 1));
    std::vector<Energy> dynamic = dynamicPerKernel(counter, program, tasks);
    Energy mw = counter.staticMw();
    EnergyReport report;
    for (const GroupBreakdown& g : attribution.groups)
        report.groups.push_back({g.group, g.label, {}});
    for (const KernelBreakdown& kb : attribution.kernels) {
        Energy e = scaled(dynamic[static_cast<size_t>(kb.kernel)], repeat);
        e += scaled(mw, kb.breakdown.totalNs); // leakage: mW x ns = pJ
        report.kernels.push_back({kb.kernel, kb.label, kb.group, e});
        report.groups[kb.group].energy += e;
        report.run += e;
    }
    report.staticMw = mw.totalPj();
    return report;
}

} // namespace stagecraft::sim
