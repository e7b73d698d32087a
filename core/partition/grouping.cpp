// Hardware-aware grouping (GraphTurbo §3.2, Algorithm 2).
//
// Every op starts as its own sub-graph with its SplitInfo (lines 1-4). Each
// round merges straight patterns, then diamonds, then branches (Fig. 4), and
// the rounds repeat until a whole round merges nothing (line 15).
//
// - straight: SG1 is the unique producer of SG2 and SG2 the unique consumer
//   of SG1; merged when Rule (i) holds. The straight step runs to a fixpoint,
//   so chains become one sub-graph before any other pattern is tried (Fig. 5a).
// - diamond: an exit SG4 all of whose producers are branches with the single
//   producer SG1 (the entry) and the single consumer SG4, at least two of
//   them; the branches and the exit merge (Fig. 4b's box) under Rule (ii).
// - branch: an exit SG3 with several producers, one of which (SG2) has SG3
//   as its only consumer; SG2 and SG3 merge under Rule (i). When several
//   producers qualify, the latest in graph order is taken (the shortcut of a
//   ResNet block, as in Fig. 5b), the others in later rounds.
//
// Rule (i): f(SG2) >= f(SG1) and f(SG) <= f(SG2); Rule (ii): f(SG) <= the
// largest factor of the merged parts. f is the factor of the best split
// (Eq. 1), recomputed for every merged sub-graph (bestSplitFactor: the rules
// read the factor only, and a sub-graph whose peak fits has factor 1 without
// evaluating candidates); the full SplitInfo is computed for the final
// groups. A sub-graph without a split that fits counts as infinitely large,
// and a merge whose result has no split that fits is refused (docs/decisions.md).
// With a fallback capacity (the GB at the LB level) f is the factor at
// whichever capacity the split was found, and the rules judge re-reads of
// activations only: a weight-heavy layer's split may move to the GB once its
// group is final, which is no reason to refuse growing the group.
// Within one pass a sub-graph takes part in at most one merge, so a chain of
// n ops merges in log2(n) passes and the whole algorithm stays O(n log n)
// SplitInfo work.

#include "partition/grouping.h"

#include "support/strings.h"

#include <algorithm>
#include <limits>

namespace stagecraft::partition {

namespace {

constexpr int64_t kNoSplit = std::numeric_limits<int64_t>::max();

struct GroupState {
    std::vector<ir::OpId> ops;
    std::vector<GroupId> producers;
    std::vector<GroupId> consumers;
    /// Factor of the best split (kNoSplit: none fits); the SplitInfo itself is
    /// computed for the final groups only.
    int64_t factor = 0;
    bool alive = true;
    int touchedPass = -1;
};

int64_t factorOf(const std::optional<int64_t>& best) {
    return best ? *best : kNoSplit;
}

std::string factorText(int64_t f) {
    return f == kNoSplit ? "none" : std::to_string(f);
}

void replaceId(std::vector<GroupId>& list, const std::vector<GroupId>& old, GroupId by) {
    for (GroupId& g : list)
        if (std::find(old.begin(), old.end(), g) != old.end())
            g = by;
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
}

/// Algorithm 2 starts from one group per op, numbered as the op.
GroupId initialGroup(ir::OpId op) {
    return GroupId::at(op.index());
}

/// Merges are judged on activations: a weight-heavy layer's split may move
/// to the GB once its group is final, which is no reason to refuse growing it.
SplitParams forMerges(SplitParams params) {
    params.countWeightRereads = false;
    return params;
}

class Grouper {
public:
    Grouper(const ir::Graph& graph, const SemanticsCache& semantics, const SplitParams& params,
            Trace* trace)
        : graph_(graph)
        , semantics_(semantics)
        , params_(params)
        , mergeParams_(forMerges(params))
        , trace_(trace) {}

    Expected<GroupingResult> run() {
        initialize();
        for (round_ = 1;; ++round_) {
            bool merged = false;
            merged = mergeStraightToFixpoint() || merged;
            merged = runPass(&Grouper::tryDiamond) || merged;
            merged = runPass(&Grouper::tryBranch) || merged;
            if (!merged)
                break;
        }
        return finish();
    }

private:
    void initialize() {
        size_t n = graph_.opCount();
        groups_.resize(n);
        groupOf_.resize(n);
        // One group per op, numbered as the op.
        for (ir::OpId op : graph_.opIds()) {
            groupOf_[op] = initialGroup(op);
            groups_[initialGroup(op)].ops = {op};
        }
        for (ir::OpId op : graph_.opIds())
            for (ir::TensorId in : graph_.op(op).inputs)
                if (in != ir::kNoTensor && graph_.tensor(in).producer != ir::kNoOp) {
                    GroupId g = initialGroup(op), p = initialGroup(graph_.tensor(in).producer);
                    groups_[g].producers.push_back(p);
                    groups_[p].consumers.push_back(g);
                }
        for (GroupState& g : groups_) {
            for (auto* list : {&g.producers, &g.consumers}) {
                std::sort(list->begin(), list->end());
                list->erase(std::unique(list->begin(), list->end()), list->end());
            }
            g.factor = factorOf(bestSplitFactor(graph_, semantics_, g.ops, mergeParams_));
        }
    }

    GroupState& at(GroupId g) { return groups_[g]; }

    /// Alive groups by their first op: a topological order of the quotient graph.
    std::vector<GroupId> snapshot() const {
        std::vector<GroupId> order;
        for (GroupId g : groups_.ids())
            if (groups_[g].alive)
                order.push_back(g);
        std::sort(order.begin(), order.end(), [&](GroupId a, GroupId b) {
            return groups_[a].ops.front() < groups_[b].ops.front();
        });
        return order;
    }

    bool free(GroupId g) const { return groups_[g].alive && groups_[g].touchedPass != pass_; }

    bool runPass(bool (Grouper::*tryPattern)(GroupId)) {
        ++pass_;
        bool merged = false;
        for (GroupId g : snapshot())
            if (free(g))
                merged = (this->*tryPattern)(g) || merged;
        return merged;
    }

    bool mergeStraightToFixpoint() {
        bool any = false;
        while (runPass(&Grouper::tryStraight))
            any = true;
        return any;
    }

    /// SG1 = g, SG2 = its unique consumer.
    bool tryStraight(GroupId g) {
        const GroupState& sg1 = at(g);
        if (sg1.consumers.size() != 1)
            return false;
        GroupId c = sg1.consumers.front();
        if (!free(c) || at(c).producers.size() != 1)
            return false;
        return attempt("straight", {g, c}, Rule::One);
    }

    /// SG3 = g, SG2 = its latest producer whose only consumer is g.
    bool tryBranch(GroupId g) {
        const GroupState& exit = at(g);
        if (exit.producers.size() < 2)
            return false;
        for (auto it = exit.producers.rbegin(); it != exit.producers.rend(); ++it) {
            const GroupState& p = at(*it);
            if (free(*it) && p.consumers.size() == 1)
                return attempt("branch", {*it, g}, Rule::One);
        }
        return false;
    }

    /// SG4 = g; its producers are the branches.
    bool tryDiamond(GroupId g) {
        const GroupState& exit = at(g);
        if (exit.producers.size() < 2)
            return false;
        GroupId entry = kNoGroup;
        for (GroupId p : exit.producers) {
            const GroupState& branch = at(p);
            if (!free(p) || branch.consumers.size() != 1 || branch.producers.size() != 1)
                return false;
            if (entry == kNoGroup)
                entry = branch.producers.front();
            if (branch.producers.front() != entry)
                return false;
        }
        std::vector<GroupId> parts = exit.producers;
        parts.push_back(g);
        return attempt("diamond", parts, Rule::Two);
    }

    enum class Rule { One, Two };

    std::vector<ir::OpId> unionOps(const std::vector<GroupId>& parts) {
        std::vector<ir::OpId> ops;
        for (GroupId p : parts)
            ops.insert(ops.end(), at(p).ops.begin(), at(p).ops.end());
        std::sort(ops.begin(), ops.end());
        return ops;
    }

    /// Rule (i) for [SG1, SG2] or Rule (ii) for [branches..., exit].
    static bool ruleHolds(Rule rule, const std::vector<int64_t>& factors, int64_t merged,
                          std::string& why) {
        if (merged == kNoSplit) {
            why = "the merged sub-graph has no split that fits LB";
            return false;
        }
        if (rule == Rule::One) {
            int64_t f1 = factors[0], f2 = factors[1];
            if (f2 < f1) {
                why = "f(SG2)=" + factorText(f2) + " < f(SG1)=" + factorText(f1);
                return false;
            }
            if (merged > f2) {
                why = "f(SG)=" + factorText(merged) + " > f(SG2)=" + factorText(f2);
                return false;
            }
            why = "f(SG2)=" + factorText(f2) + " >= f(SG1)=" + factorText(f1) +
                  " and f(SG)=" + factorText(merged) + " <= f(SG2)";
            return true;
        }
        int64_t largest = *std::max_element(factors.begin(), factors.end());
        bool ok = merged <= largest;
        why = "f(SG)=" + factorText(merged) + (ok ? " <= " : " > ") + "max factor " +
              factorText(largest);
        return ok;
    }

    bool attempt(const char* pattern, const std::vector<GroupId>& parts, Rule rule) {
        std::vector<ir::OpId> ops = unionOps(parts);
        int64_t merged = factorOf(bestSplitFactor(graph_, semantics_, ops, mergeParams_));
        std::vector<int64_t> factors;
        for (GroupId p : parts)
            factors.push_back(at(p).factor);
        std::string why;
        bool ok = ruleHolds(rule, factors, merged, why);
        record(pattern, parts, factors, merged, rule, ok, why);
        if (ok)
            merge(parts, std::move(ops), merged);
        return ok;
    }

    void record(const char* pattern, const std::vector<GroupId>& parts,
                const std::vector<int64_t>& factors, int64_t merged, Rule rule, bool ok,
                const std::string& why) {
        if (trace_ == nullptr)
            return;
        MergeStep step;
        step.round = round_;
        step.pattern = pattern;
        std::vector<std::string> names;
        for (size_t i = 0; i < parts.size(); ++i) {
            const GroupState& p = at(parts[i]);
            step.parts.push_back(p.ops.front());
            step.partSizes.push_back(static_cast<int64_t>(p.ops.size()));
            step.factors.push_back(factors[i] == kNoSplit ? 0 : factors[i]);
            names.push_back("{" + graph_.op(p.ops.front()).name +
                            (p.ops.size() > 1 ? " +" + std::to_string(p.ops.size() - 1) : "") +
                            "}");
        }
        step.mergedFactor = merged == kNoSplit ? 0 : merged;
        step.rule = rule == Rule::One ? "rule (i)" : "rule (ii)";
        step.merged = ok;
        step.explanation = "§3.2 Algorithm 2, round " + std::to_string(round_) + ": " + pattern +
                           " pattern " + join(names, " + ") + ": " + step.rule +
                           (ok ? " holds (" : " fails (") + why +
                           (ok ? "), merged" : "), not merged");
        trace_->merges.push_back(std::move(step));
    }

    void merge(const std::vector<GroupId>& parts, std::vector<ir::OpId> ops, int64_t factor) {
        GroupId keep = *std::max_element(parts.begin(), parts.end(), [&](GroupId a, GroupId b) {
            return at(a).ops.size() < at(b).ops.size() ||
                   (at(a).ops.size() == at(b).ops.size() && a > b);
        });
        std::vector<GroupId> producers, consumers;
        for (GroupId p : parts) {
            GroupState& part = at(p);
            for (GroupId q : part.producers)
                if (std::find(parts.begin(), parts.end(), q) == parts.end())
                    producers.push_back(q);
            for (GroupId q : part.consumers)
                if (std::find(parts.begin(), parts.end(), q) == parts.end())
                    consumers.push_back(q);
            if (p != keep) {
                for (ir::OpId op : part.ops)
                    groupOf_[op] = keep;
                part = GroupState{};
                part.alive = false;
            }
        }
        for (GroupId q : producers)
            replaceId(at(q).consumers, parts, keep);
        for (GroupId q : consumers)
            replaceId(at(q).producers, parts, keep);
        GroupState& kept = at(keep);
        kept.ops = std::move(ops);
        kept.factor = factor;
        kept.producers = std::move(producers);
        kept.consumers = std::move(consumers);
        for (auto* list : {&kept.producers, &kept.consumers}) {
            std::sort(list->begin(), list->end());
            list->erase(std::unique(list->begin(), list->end()), list->end());
        }
        kept.touchedPass = pass_;
    }

    Expected<GroupingResult> finish() {
        SC_ASSIGN_OR_RETURN(Partition partition, Partition::fromAssignment(graph_, groupOf_));
        GroupingResult result;
        result.splits.resize(partition.groupCount());
        SplitParams finalParams = params_;
        finalParams.finalSplit = true;
        for (GroupId g : partition.groupIds())
            result.splits[g] = computeSplitInfo(graph_, semantics_, partition.ops(g), finalParams);
        result.partition = std::move(partition);
        return result;
    }

    const ir::Graph& graph_;
    const SemanticsCache& semantics_;
    const SplitParams& params_;
    /// What Rules (i) and (ii) read: weights do not count in the re-reads.
    SplitParams mergeParams_;
    Trace* trace_;
    IdVector<GroupId, GroupState> groups_;
    Assignment groupOf_;
    int round_ = 0;
    int pass_ = 0;
};

} // namespace

Expected<GroupingResult> groupGraphTurbo(const ir::Graph& graph, const SemanticsCache& semantics,
                                         const SplitParams& params, Trace* trace) {
    if (graph.opCount() == 0)
        return GroupingResult{};
    return Grouper(graph, semantics, params, trace).run();
}

} // namespace stagecraft::partition
