#pragma once
// The algorithm step-through as plain data: one AlgorithmStep per recorded
// decision of a pipeline result, in teaching order. Algorithm 2 merges
// (§3.2, Fig. 4) with the ops of every part of the pattern (AGO's merges
// or DLA's sub-graphs for those strategies), Algorithm 3's
// visit/ready/order lists (§3.3, Fig. 7b-f), Algorithm 4's binding decisions
// (§3.4), then per kernel the liveness of its tensors and the spills of the
// longest-liveness rule (§4.3, Fig. 12), derived from the kernel plans.

#include "common/highlight.h"
#include "common/pipeline_result.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace stagecraft::views {

enum class StepKind { Merge, Order, Bind, Liveness, Spill };

/// The lists of Algorithm 3 after a step (Fig. 7b-e), instance labels.
struct OrderLists {
    QStringList visit;
    QStringList ready;
    QStringList order;
    bool operator==(const OrderLists&) const = default;
};

/// One spill of §4.3: a tensor moved out of a memory at a computation task.
struct SpillDecision {
    kernel::BufferId buffer = kernel::kNoBuffer;
    /// Computation task at which it moves.
    int32_t task = 0;
    schedule::Scope from = schedule::Scope::LB;
    schedule::Scope to = schedule::Scope::GB;
    /// Tasks the tensor lives in `from` (the allocator's rank) and from
    /// `task` on.
    int64_t liveness = 0;
    int64_t remaining = 0;
    /// Other tensors live in `from` at that task, and the longest liveness
    /// among them (0 when there are none).
    int64_t othersLive = 0;
    int64_t longestOther = 0;
    /// It moved because it is larger than the whole memory.
    bool largerThanMemory = false;
    /// It arrived at this task and never entered `from`.
    bool onArrival = false;
};

struct AlgorithmStep {
    StepKind kind = StepKind::Merge;
    /// "Algorithm 2", "AGO CLUSTER", "DLA §3", "Algorithm 3", "Algorithm 4" or
    /// "§4.3 spilling".
    QString algorithm;
    QString title;
    /// One sentence naming the paper section.
    QString explanation;
    /// Algorithm 3 steps only.
    std::optional<OrderLists> lists;
    /// Spill steps only.
    std::optional<SpillDecision> spill;
    /// Merge steps: whether the merge was accepted.
    bool merged = false;
    /// Algorithm 2 and AGO merges that were accepted: the ops whose sets
    /// unite (each standing for the set holding it), replayed by groupingAt.
    std::vector<ir::OpId> unites;
    /// What the graph and instance views light up (caption left empty).
    Highlights highlights;
};

/// Every step of \p result, in the order above.
std::vector<AlgorithmStep> buildSteps(const PipelineResult& result);

/// The grouping steps alone: Algorithm 2's merges (§3.2), or the `ago`
/// strategy's CLUSTER merges, or the `dla` strategy's extracted sub-graphs.
std::vector<AlgorithmStep> mergeSteps(const PipelineResult& result);
/// The grouping as it was after step \p position of \p steps (an index into
/// them), by op id: the smallest op id of the op's set, every op alone before
/// the first merge. Empty when that step is not an Algorithm 2 or AGO merge
/// (the views then show the final groups).
std::vector<int32_t> groupingAt(const std::vector<AlgorithmStep>& steps, size_t position,
                                size_t opCount);
/// The steps of the order the schedule kept (§3.3): Algorithm 3's lists when
/// it is DFS, the breadth-first queue when it is BFS (Fig. 7a), one step for
/// an order as edited; then one step saying which order was kept and why.
std::vector<AlgorithmStep> orderSteps(const PipelineResult& result);
/// Fills \p marks' instanceStates and instanceOrder from \p lists (labels
/// of \p schedule's instances); an instance in several lists takes the
/// furthest state (ordered, then ready, then visited).
void setOrderStates(const OrderLists& lists, const schedule::Schedule& schedule, Highlights& marks);
/// The steps of §4.3 alone: per kernel, its liveness step then its spills.
std::vector<AlgorithmStep> memorySteps(const PipelineResult& result);
/// The spills of the program's allocation passes, in task order.
std::vector<SpillDecision> spillDecisions(const kernel::Program& program);

} // namespace stagecraft::views
