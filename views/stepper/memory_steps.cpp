// The §4.3 steps (memory reuse, longest-liveness spilling, Fig. 12): per
// kernel in execution order, one step with the tensors live while it runs,
// then the spills made at its computation tasks; each step carries the
// spills decided so far for the occupancy plots.

#include "stepper/algorithm_steps.h"

#include <algorithm>

namespace stagecraft::views {
namespace {

using schedule::Scope;

QString scopeText(Scope scope) {
    return QString::fromLatin1(schedule::scopeName(scope));
}

struct TaskRange {
    int32_t first = 0;
    int32_t last = -1;
    bool contains(int32_t task) const { return task >= first && task <= last; }
};

TaskRange tasksOf(const kernel::Kernel& k) {
    TaskRange range{0, -1};
    for (const kernel::Layer& layer : k.layers) {
        if (range.last < range.first || layer.task < range.first)
            range.first = layer.task;
        range.last = std::max(range.last, layer.task);
    }
    return range;
}

void addProducer(const PipelineResult& result, ir::TensorId tensor, std::vector<int32_t>& ops) {
    if (!result.graph || tensor == ir::kNoTensor)
        return;
    ir::OpId producer = result.graph->tensor(tensor).producer;
    if (producer != ir::kNoOp && std::find(ops.begin(), ops.end(), producer.value()) == ops.end())
        ops.push_back(producer.value());
}

/// "1 tensor is" / "3 tensors are".
QString counted(int64_t n, const char* one, const char* many) {
    return QString::number(n) % u' ' % QLatin1String(n == 1 ? one : many);
}

/// "1 in LB, 2 in GB", memories without live tensors left out.
QString perScope(const int64_t (&live)[3]) {
    QStringList parts;
    for (Scope scope : {Scope::LB, Scope::GB, Scope::DDR})
        if (int64_t n = live[static_cast<int>(scope)])
            parts.push_back(QStringLiteral("%1 in %2").arg(n).arg(scopeText(scope)));
    return parts.join(QStringLiteral(", "));
}

QString releasedText(int64_t released) {
    if (released == 0)
        return QStringLiteral("none is released here");
    return counted(released, "is", "are") %
           QStringLiteral(" released after the last use here, the space free for reuse");
}

QString tasksText(TaskRange range) {
    return range.first == range.last
               ? QStringLiteral("task %1").arg(range.first)
               : QStringLiteral("tasks %1–%2").arg(range.first).arg(range.last);
}

AlgorithmStep livenessStep(const PipelineResult& result, size_t kernelIndex, TaskRange range) {
    const kernel::Program& program = result.eval.program;
    const kernel::Kernel& k = program.kernels[kernelIndex];
    AlgorithmStep step;
    step.kind = StepKind::Liveness;
    step.algorithm = QStringLiteral("§4.3 spilling");
    step.title = QStringLiteral("kernel %1: live tensors").arg(QString::fromStdString(k.label));
    int64_t live[3] = {0, 0, 0}, released = 0;
    for (kernel::BufferId b : program.buffers.ids()) {
        const kernel::Buffer& buffer = program.buffers[b];
        if (buffer.firstTask > range.last || buffer.lastTask < range.first)
            continue;
        int32_t at = std::min(range.last, buffer.lastTask);
        ++live[static_cast<int>(kernel::scopeAt(program, b, at))];
        released += range.contains(buffer.lastTask) && !buffer.graphOutput ? 1 : 0;
        addProducer(result, buffer.tensor, step.highlights.ops);
    }
    std::sort(step.highlights.ops.begin(), step.highlights.ops.end());
    step.highlights.instances.push_back(k.instance.value());
    step.explanation = QStringLiteral("§4.3 (Fig. 12): while kernel %1 runs %2, %3 live (%4); %5.")
                           .arg(QString::fromStdString(k.label), tasksText(range),
                                counted(live[0] + live[1] + live[2], "tensor is", "tensors are"),
                                perScope(live), releasedText(released));
    return step;
}

QString othersText(const SpillDecision& d) {
    if (d.othersLive == 0)
        return QStringLiteral("no other tensor is live there");
    return counted(d.othersLive, "other tensor", "other tensors") %
           QStringLiteral(" live there, the longest across ") %
           counted(d.longestOther, "task", "tasks");
}

/// Why the longest-liveness rule picked it, with the comparison.
QString rankText(const SpillDecision& d) {
    QString others = othersText(d);
    if (d.liveness > d.longestOther)
        return QStringLiteral("the longest liveness (") % others % u')';
    if (d.liveness == d.longestOther)
        return QStringLiteral("a liveness tied for the longest (") % others %
               QStringLiteral("; a tie spills the larger, then the later tensor)");
    return QStringLiteral("the longest liveness when the space ran out (") % others % u')';
}

QString spillSentence(const SpillDecision& d, const QString& tensor, const QString& kernelLabel) {
    QString where = QStringLiteral("§4.3: at task %1 (kernel %2), ").arg(d.task).arg(kernelLabel);
    QString from = scopeText(d.from), to = scopeText(d.to);
    if (d.largerThanMemory)
        return where % tensor % QStringLiteral(" is larger than the whole ") % from %
               QStringLiteral(", so it goes to ") % to % u'.';
    QString reason = rankText(d);
    if (d.onArrival)
        return where % from % QStringLiteral(" cannot take the new tensor ") % tensor %
               QStringLiteral(": live across ") % counted(d.liveness, "task", "tasks") %
               QStringLiteral(", it has ") % reason % QStringLiteral(", so it goes to ") % to %
               QStringLiteral(" from the start.");
    return where % from % QStringLiteral(" is full and ") % tensor %
           QStringLiteral(", live across ") % counted(d.liveness, "task", "tasks") %
           QStringLiteral(" (%1 still to come), has ").arg(d.remaining) % reason %
           QStringLiteral(", so it is spilled to ") % to % u'.';
}

AlgorithmStep spillStep(const PipelineResult& result, const SpillDecision& decision) {
    const kernel::Program& program = result.eval.program;
    const kernel::Buffer& buffer = program.buffers[decision.buffer];
    const kernel::Kernel& writer = program.kernels[static_cast<size_t>(buffer.kernel)];
    QString tensor = QString::fromStdString(buffer.name);
    QString kernelLabel;
    for (const kernel::Kernel& k : program.kernels)
        if (tasksOf(k).contains(decision.task))
            kernelLabel = QString::fromStdString(k.label);
    AlgorithmStep step;
    step.kind = StepKind::Spill;
    step.algorithm = QStringLiteral("§4.3 spilling");
    step.title = QStringLiteral("task %1: %2 spilled %3 → %4")
                     .arg(QString::number(decision.task), tensor, scopeText(decision.from),
                          scopeText(decision.to));
    step.explanation = spillSentence(decision, tensor, kernelLabel);
    addProducer(result, buffer.tensor, step.highlights.ops);
    step.highlights.instances.push_back(writer.instance.value());
    step.spill = decision;
    return step;
}

/// Each step's highlights list the spills decided up to it, so that the
/// occupancy plots show spills appearing as the steps go.
void markSpillsSoFar(std::vector<AlgorithmStep>& steps) {
    std::vector<SpillRef> soFar;
    for (AlgorithmStep& step : steps) {
        if (step.spill)
            soFar.push_back({step.spill->buffer.value(), step.spill->task,
                             static_cast<int8_t>(step.spill->from)});
        step.highlights.spillStepping = true;
        step.highlights.spillsSoFar = soFar;
        step.highlights.spillIsCurrent = step.spill.has_value();
    }
}

} // namespace

std::vector<AlgorithmStep> memorySteps(const PipelineResult& result) {
    const kernel::Program& program = result.eval.program;
    std::vector<SpillDecision> spills = spillDecisions(program);
    std::vector<bool> shown(spills.size(), false);
    std::vector<AlgorithmStep> steps;
    for (size_t k = 0; k < program.kernels.size(); ++k) {
        TaskRange range = tasksOf(program.kernels[k]);
        if (range.last < range.first)
            continue;
        steps.push_back(livenessStep(result, k, range));
        for (size_t s = 0; s < spills.size(); ++s)
            if (!shown[s] && range.contains(spills[s].task)) {
                steps.push_back(spillStep(result, spills[s]));
                shown[s] = true;
            }
    }
    for (size_t s = 0; s < spills.size(); ++s) // tasks outside every kernel (none expected)
        if (!shown[s])
            steps.push_back(spillStep(result, spills[s]));
    markSpillsSoFar(steps);
    return steps;
}

} // namespace stagecraft::views
