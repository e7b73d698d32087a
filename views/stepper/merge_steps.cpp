// The grouping step by step: Algorithm 2 (§3.2, Fig. 4), or for the `ago`
// strategy AGO's CLUSTER merges, or for `dla` each extracted sub-graph and
// its parts. The trace names each part by its first op only; replaying the
// accepted merges with a union-find from single ops gives every part's ops
// at that round, which the graph view lights up. The rule's reason (the
// splitting factors compared) is the one the trace recorded, so the panel
// and `--explain` never disagree.

#include "stepper/algorithm_steps.h"

#include <algorithm>

namespace stagecraft::views {
namespace {

/// Groups of ops as Algorithm 2 has merged them so far.
class OpSets {
public:
    explicit OpSets(size_t opCount)
        : parent_(opCount)
        , members_(opCount) {
        for (ir::OpId op : parent_.ids()) {
            parent_[op] = op;
            members_[op] = {op};
        }
    }

    ir::OpId find(ir::OpId op) {
        while (parent_[op] != op) {
            parent_[op] = parent_[parent_[op]];
            op = parent_[op];
        }
        return op;
    }

    /// The ops of the set holding \p op, ascending.
    const std::vector<ir::OpId>& opsWith(ir::OpId op) { return members_[find(op)]; }

    void unite(ir::OpId a, ir::OpId b) {
        a = find(a);
        b = find(b);
        if (a == b)
            return;
        if (members_[a].size() < members_[b].size())
            std::swap(a, b);
        std::vector<ir::OpId>& into = members_[a];
        into.insert(into.end(), members_[b].begin(), members_[b].end());
        std::sort(into.begin(), into.end());
        members_[b].clear();
        parent_[b] = a;
    }

private:
    IdVector<ir::OpId, ir::OpId> parent_;
    IdVector<ir::OpId, std::vector<ir::OpId>> members_;
};

/// "{conv1, relu1}", eliding after a few names.
QString partText(const ir::Graph& graph, const std::vector<ir::OpId>& ops) {
    constexpr size_t kShown = 3;
    QStringList names;
    for (size_t i = 0; i < ops.size() && i < kShown; ++i)
        names.push_back(QString::fromStdString(graph.op(ops[i]).name));
    if (ops.size() > kShown)
        names.push_back(QStringLiteral("+%1 more").arg(ops.size() - kShown));
    return u'{' % names.join(QStringLiteral(", ")) % u'}';
}

/// The factors the rule compared, from the trace's sentence ("rule (i)
/// holds (f(SG2)=8 >= f(SG1)=8 …), merged").
QString ruleReason(const partition::MergeStep& traced) {
    const std::string& text = traced.explanation;
    size_t open = text.find(traced.merged ? " holds (" : " fails (");
    size_t close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close <= open)
        return {};
    size_t from = text.find('(', open) + 1;
    return QString::fromStdString(text.substr(from, close - from));
}

QString mergeSentence(const partition::MergeStep& traced, const QStringList& parts) {
    QString rule = QString::fromStdString(traced.rule);
    QString reason = ruleReason(traced);
    QString head =
        QStringLiteral("§3.2, Algorithm 2 (round %1): the %2 pattern %3 ")
            .arg(traced.round)
            .arg(QString::fromStdString(traced.pattern), parts.join(QStringLiteral(" + ")));
    QString because = reason.isEmpty() ? QString() : QStringLiteral(" because ") % reason;
    if (traced.merged)
        return head % QStringLiteral("merges by ") % rule % because % u'.';
    return head % QStringLiteral("does not merge: ") % rule % QStringLiteral(" fails") % because %
           u'.';
}

AlgorithmStep mergeStep(const ir::Graph& graph, const partition::MergeStep& traced, OpSets& sets) {
    AlgorithmStep step;
    step.kind = StepKind::Merge;
    step.algorithm = QStringLiteral("Algorithm 2");
    step.merged = traced.merged;
    QStringList parts;
    for (ir::OpId first : traced.parts) {
        const std::vector<ir::OpId>& ops = sets.opsWith(first);
        parts.push_back(partText(graph, ops));
        for (ir::OpId op : ops)
            step.highlights.ops.push_back(op.value());
    }
    std::sort(step.highlights.ops.begin(), step.highlights.ops.end());
    QString pattern = QString::fromStdString(traced.pattern);
    step.title = traced.merged
                     ? QStringLiteral("round %1: %2 pattern merged").arg(traced.round).arg(pattern)
                     : QStringLiteral("round %1: %2 pattern rejected, %3 fails")
                           .arg(traced.round)
                           .arg(pattern, QString::fromStdString(traced.rule));
    step.explanation = mergeSentence(traced, parts);
    if (traced.merged) {
        for (size_t i = 1; i < traced.parts.size(); ++i)
            sets.unite(traced.parts[0], traced.parts[i]);
        step.unites = traced.parts;
    }
    return step;
}

/// One merge of AGO's CLUSTER: both hyper nodes lit, then united.
AlgorithmStep agoStep(const ir::Graph& graph, const partition::AgoStep& traced, OpSets& sets) {
    AlgorithmStep step;
    step.kind = StepKind::Merge;
    step.algorithm = QStringLiteral("AGO CLUSTER");
    step.merged = true;
    const std::vector<ir::OpId> into = sets.opsWith(traced.into);
    const std::vector<ir::OpId>& taken = sets.opsWith(traced.taken);
    for (const std::vector<ir::OpId>* node : {&into, &taken})
        for (ir::OpId op : *node)
            step.highlights.ops.push_back(op.value());
    std::sort(step.highlights.ops.begin(), step.highlights.ops.end());
    step.title = partText(graph, into) % QStringLiteral(" takes ") % partText(graph, taken);
    step.explanation = QString::fromStdString(traced.explanation);
    sets.unite(traced.into, traced.taken);
    step.unites = {traced.into, traced.taken};
    return step;
}

/// The groups of \p ops, ascending, once each.
std::vector<int32_t> groupsOf(const partition::Partition& groups,
                              const std::vector<ir::OpId>& ops) {
    std::vector<int32_t> out;
    for (ir::OpId op : ops)
        if (op.value() < static_cast<int32_t>(groups.assignment().size()))
            out.push_back(groups.groupOf(op).value());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

/// One sub-graph of DLA's extraction: the groups of its parts lit.
AlgorithmStep dlaStep(const PipelineResult& result, const partition::DlaStep& traced) {
    const ir::Graph& graph = *result.graph;
    const partition::Partition& groups = result.eval.schedule.partition;
    AlgorithmStep step;
    step.kind = StepKind::Merge;
    step.algorithm = QStringLiteral("DLA §3");
    step.merged = traced.onAccelerator;
    step.highlights.groups = groupsOf(groups, traced.parts);
    QString name = QString::fromStdString(graph.op(traced.first).name);
    QString parts = traced.parts.size() == 1 ? QStringLiteral("one part")
                                             : QStringLiteral("%1 parts").arg(traced.parts.size());
    step.title =
        traced.onAccelerator
            ? QStringLiteral("sub-graph from %1: %2 ops, %3").arg(name).arg(traced.ops).arg(parts)
            : QStringLiteral("%1 on the host CPU").arg(name);
    step.explanation = QString::fromStdString(traced.explanation);
    return step;
}

/// One stage of IOS's schedule: the groups it runs lit.
AlgorithmStep iosStep(const PipelineResult& result, const partition::IosStep& traced) {
    const ir::Graph& graph = *result.graph;
    const partition::Partition& groups = result.eval.schedule.partition;
    AlgorithmStep step;
    step.kind = StepKind::Merge;
    step.algorithm = QStringLiteral("IOS STAGE");
    step.merged = traced.merged;
    step.highlights.groups = groupsOf(groups, traced.groups);
    QString first = QString::fromStdString(graph.op(traced.groups.front()).name);
    QString stage =
        traced.merged ? QStringLiteral("%1 merged into one operator").arg(first)
        : traced.groups.size() == 1
            ? QStringLiteral("one group from %1 (%2 ops)").arg(first).arg(traced.groupSizes.front())
            : QStringLiteral("%1 groups at once from %2").arg(traced.groups.size()).arg(first);
    // The DP's state the stage ends, and how many endings it weighed there.
    step.title = QStringLiteral("block %1, state of %2 units: %3, best of %4 endings")
                     .arg(traced.block + 1)
                     .arg(traced.stateUnits)
                     .arg(stage)
                     .arg(traced.endings);
    step.explanation = QString::fromStdString(traced.explanation);
    return step;
}

} // namespace

std::vector<int32_t> groupingAt(const std::vector<AlgorithmStep>& steps, size_t position,
                                size_t opCount) {
    if (position >= steps.size() || steps[position].kind != StepKind::Merge ||
        (steps[position].algorithm != QLatin1String("Algorithm 2") &&
         steps[position].algorithm != QLatin1String("AGO CLUSTER")))
        return {};
    // Replayed up to the step: a union-find whose root is its set's smallest op.
    std::vector<int32_t> root(opCount);
    for (size_t op = 0; op < opCount; ++op)
        root[op] = static_cast<int32_t>(op);
    auto find = [&root](int32_t op) {
        while (root[static_cast<size_t>(op)] != op) {
            root[static_cast<size_t>(op)] =
                root[static_cast<size_t>(root[static_cast<size_t>(op)])];
            op = root[static_cast<size_t>(op)];
        }
        return op;
    };
    for (size_t s = 0; s <= position; ++s)
        for (size_t i = 1; i < steps[s].unites.size(); ++i) {
            const int32_t a = find(steps[s].unites[0].value());
            const int32_t b = find(steps[s].unites[i].value());
            root[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
        }
    for (size_t op = 0; op < opCount; ++op)
        root[op] = find(static_cast<int32_t>(op));
    return root;
}

std::vector<AlgorithmStep> mergeSteps(const PipelineResult& result) {
    std::vector<AlgorithmStep> steps;
    if (!result.graph)
        return steps;
    const partition::Trace& trace = result.eval.schedule.trace;
    OpSets sets(result.graph->opCount());
    for (const partition::MergeStep& traced : trace.merges)
        steps.push_back(mergeStep(*result.graph, traced, sets));
    for (const partition::AgoStep& traced : trace.ago)
        steps.push_back(agoStep(*result.graph, traced, sets));
    for (const partition::DlaStep& traced : trace.dla)
        steps.push_back(dlaStep(result, traced));
    for (const partition::IosStep& traced : trace.ios)
        steps.push_back(iosStep(result, traced));
    return steps;
}

} // namespace stagecraft::views
