// Cost rows: the attribution's kernels (sim::attribute) joined with the
// transfer tasks of each kernel (traffic per level, scaled to the batch as
// sim::Report::trafficBytes is) and the spill marks of the buffers' placements
// (usage/spill_marks.h), each counted at the kernel that runs the computation
// task it happens at, once per level it leaves (LB→DDR at once is a spill out
// of the LB and one out of the GB, as sim::Report::spills counts). Group rows
// sum their kernels.

#include "costs/cost_rows.h"

#include "usage/spill_marks.h"

namespace stagecraft::views {

namespace {

size_t levelIndex(arch::Memory memory) {
    return memory == arch::Memory::DDR ? 0 : memory == arch::Memory::GB ? 1 : 2;
}

std::vector<sim::PerLevel> trafficByKernel(const PipelineResult& result) {
    const sim::Evaluation& ev = result.eval;
    std::vector<sim::PerLevel> traffic(ev.program.kernels.size(), sim::PerLevel{});
    for (const kernel::Task& t : ev.tasks.tasks) {
        if (!t.isTransfer() || t.kernel < 0 || static_cast<size_t>(t.kernel) >= traffic.size())
            continue;
        traffic[static_cast<size_t>(t.kernel)][levelIndex(t.from)] += t.bytes;
        traffic[static_cast<size_t>(t.kernel)][levelIndex(t.to)] += t.bytes;
    }
    const double scale = static_cast<double>(result.arch.clusters) *
                         static_cast<double>(ev.schedule.clusters.iterations);
    for (sim::PerLevel& levels : traffic)
        for (int64_t& bytes : levels)
            bytes = static_cast<int64_t>(static_cast<double>(bytes) * scale);
    return traffic;
}

std::vector<int64_t> spillsByKernel(const PipelineResult& result) {
    const kernel::Program& program = result.eval.program;
    std::vector<int32_t> kernelOfTask(static_cast<size_t>(program.taskCount), -1);
    for (size_t k = 0; k < program.kernels.size(); ++k)
        for (const kernel::Layer& layer : program.kernels[k].layers)
            if (layer.task >= 0 && layer.task < program.taskCount)
                kernelOfTask[static_cast<size_t>(layer.task)] = static_cast<int32_t>(k);
    std::vector<int64_t> spills(program.kernels.size(), 0);
    for (const SpillMark& mark : spillMarks(result))
        if (mark.task >= 0 && mark.task < program.taskCount &&
            kernelOfTask[static_cast<size_t>(mark.task)] >= 0)
            spills[static_cast<size_t>(kernelOfTask[static_cast<size_t>(mark.task)])] +=
                mark.to.value() - mark.from.value();
    return spills;
}

/// Each kernel's energy by kernel index; empty without an energy table.
std::vector<std::optional<sim::Energy>> energyByKernel(const PipelineResult& result) {
    const std::optional<sim::EnergyReport>& report = result.eval.report.energy;
    if (!report)
        return {};
    std::vector<std::optional<sim::Energy>> energy(result.eval.program.kernels.size(),
                                                   sim::Energy{});
    for (const sim::KernelEnergy& k : report->kernels)
        if (k.kernel >= 0 && static_cast<size_t>(k.kernel) < energy.size())
            *energy[static_cast<size_t>(k.kernel)] += k.energy;
    return energy;
}

std::string firstOpName(const PipelineResult& result, schedule::GroupId group) {
    const auto ops = result.eval.schedule.partition.ops(group);
    return ops.empty() || !result.graph ? std::string() : result.graph->op(ops.front()).name;
}

CostRow kernelRow(const PipelineResult& result, const sim::KernelBreakdown& k,
                  const sim::PerLevel& traffic, int64_t spills) {
    const kernel::Kernel& kern = result.eval.program.kernels[static_cast<size_t>(k.kernel)];
    CostRow row;
    row.label = k.label;
    row.group = partition::Partition::label(k.group);
    row.selection = {Selection::Kind::Instance, kern.instance.value(), -1};
    row.kernels = 1;
    row.breakdown = k.breakdown;
    row.traffic = traffic;
    row.spills = spills;
    for (const kernel::Layer& layer : kern.layers)
        row.ops += static_cast<int64_t>(layer.ops.size());
    row.firstOp = firstOpName(result, k.group);
    return row;
}

std::vector<CostRow> groupRows(const PipelineResult& result, const std::vector<CostRow>& kernels) {
    const schedule::Schedule& schedule = result.eval.schedule;
    std::vector<CostRow> rows(schedule.groups.size());
    for (schedule::GroupId g : schedule.groups.ids()) {
        CostRow& row = rows[g.index()];
        row.label = row.group = partition::Partition::label(g);
        row.selection = {Selection::Kind::Group, g.value(), -1};
        row.ops = static_cast<int64_t>(schedule.partition.ops(g).size());
        row.firstOp = firstOpName(result, g);
    }
    for (const CostRow& k : kernels) {
        schedule::GroupId g = schedule.instances[schedule::InstanceId{k.selection.id}].group;
        CostRow& row = rows[g.index()];
        row.kernels += 1;
        row.breakdown += k.breakdown;
        for (size_t level = 0; level < row.traffic.size(); ++level)
            row.traffic[level] += k.traffic[level];
        row.spills += k.spills;
        if (k.energy) {
            if (!row.energy)
                row.energy.emplace();
            *row.energy += *k.energy;
        }
    }
    std::erase_if(rows, [](const CostRow& row) { return row.kernels == 0; });
    return rows;
}

} // namespace

double CostRow::computeNs() const {
    double sum = 0;
    for (size_t c = 0; c < sim::kCauseCount; ++c)
        if (sim::isComputeCause(static_cast<sim::Cause>(c)))
            sum += breakdown.ns[c];
    return sum;
}

double CostRow::controlNs() const {
    return breakdown.at(sim::Cause::Launch) + breakdown.at(sim::Cause::Sync);
}

double CostRow::computeShare() const {
    return breakdown.totalNs > 0 ? computeNs() / breakdown.totalNs : 0.0;
}

int64_t CostRow::bytesOf(sim::Cause cause) const {
    return breakdown.bytes[static_cast<size_t>(cause)];
}

std::vector<CostRow> costRows(const PipelineResult& result, CostGrain grain) {
    const sim::Attribution& attribution = result.eval.report.attribution;
    const size_t kernelCount = result.eval.program.kernels.size();
    const std::vector<sim::PerLevel> traffic = trafficByKernel(result);
    const std::vector<int64_t> spills = spillsByKernel(result);
    const std::vector<std::optional<sim::Energy>> energy = energyByKernel(result);
    std::vector<CostRow> kernels;
    kernels.reserve(attribution.kernels.size());
    for (const sim::KernelBreakdown& k : attribution.kernels) {
        if (k.kernel < 0 || static_cast<size_t>(k.kernel) >= kernelCount)
            continue;
        const size_t index = static_cast<size_t>(k.kernel);
        kernels.push_back(kernelRow(result, k, traffic[index], spills[index]));
        if (!energy.empty())
            kernels.back().energy = energy[index];
    }
    return grain == CostGrain::Kernels ? kernels : groupRows(result, kernels);
}

} // namespace stagecraft::views
