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
// n ops merges in log2(n) passes; an exit of the branch pattern is the
// exception: after a merge it goes on absorbing, in batches within the pass,
// the branches nothing feeds (tryBranch, docs/decisions.md), so a Concat of
// n such branches needs O(log^2 n) evaluations rather than n passes. A merge
// whose peak fits is judged from the parts' cached peaks, without reading
// the merged ops again.

#include "partition/grouping.h"

#include "support/strings.h"

#include <algorithm>
#include <limits>

namespace stagecraft::partition {

namespace {

constexpr int64_t kNoSplit = std::numeric_limits<int64_t>::max();

struct GroupState {
    /// In no particular order (merges append); firstOp is the earliest.
    std::vector<ir::OpId> ops;
    ir::OpId firstOp;
    /// producedPeakBytes of the ops, and how many of them produce a scalar:
    /// a merge whose peak fits and that produces no scalar has factor 1
    /// (bestSplitFactor's shortcut) without looking at its ops again.
    int64_t peakBytes = 0;
    int64_t scalarProducers = 0;
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

/// \p old sorted.
void replaceId(std::vector<GroupId>& list, const std::vector<GroupId>& old, GroupId by) {
    for (GroupId& g : list)
        if (std::binary_search(old.begin(), old.end(), g))
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
            GroupState& g = groups_[initialGroup(op)];
            g.ops = {op};
            g.firstOp = op;
            g.peakBytes = producedPeakBytes(graph_, g.ops);
            g.scalarProducers = producesScalar(op) ? 1 : 0;
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
        std::sort(order.begin(), order.end(),
                  [&](GroupId a, GroupId b) { return groups_[a].firstOp < groups_[b].firstOp; });
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

    /// SG3 = g, SG2 = its latest producer whose only consumer is g. After
    /// a merge, an exit with two or more next branches that no producer
    /// feeds (fed by graph inputs only: no pattern can grow them) goes on
    /// with them in the same pass: all that remain as one batch, halving
    /// after a refusal; a refused batch of one ends the exit's turn. A
    /// Concat of n such branches costs O(log^2 n) evaluations, not n passes.
    bool tryBranch(GroupId g) {
        std::vector<GroupId> first = branchesOf(g, 1, false);
        if (first.empty())
            return false;
        first.push_back(g);
        if (!attempt("branch", first, Rule::One))
            return false;
        g = lastKept_;
        if (branchesOf(g, 2, true).size() < 2)
            return true; // no batch: the next branch waits for the next pass
        size_t batch = std::numeric_limits<size_t>::max();
        for (;;) {
            std::vector<GroupId> parts = branchesOf(g, batch, true);
            if (parts.empty())
                return true;
            size_t taken = parts.size();
            parts.push_back(g);
            if (attempt("branch", parts, Rule::One, taken == 1)) {
                g = lastKept_;
                batch = std::numeric_limits<size_t>::max();
            } else if (taken == 1) {
                return true;
            } else {
                batch = taken / 2;
            }
        }
    }

    /// Up to \p count producers of exit \p g whose only consumer is g,
    /// latest first (with \p sourcesOnly, up to the first that has a
    /// producer); none when g has fewer than two producers.
    std::vector<GroupId> branchesOf(GroupId g, size_t count, bool sourcesOnly) {
        std::vector<GroupId> branches;
        const GroupState& exit = at(g);
        if (exit.producers.size() < 2)
            return branches;
        for (auto it = exit.producers.rbegin();
             it != exit.producers.rend() && branches.size() < count; ++it) {
            if (!free(*it) || at(*it).consumers.size() != 1)
                continue;
            if (sourcesOnly && !at(*it).producers.empty())
                break;
            branches.push_back(*it);
        }
        return branches;
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

    bool producesScalar(ir::OpId op) const {
        const auto& outputs = graph_.op(op).outputs;
        return std::any_of(outputs.begin(), outputs.end(),
                           [&](ir::TensorId t) { return graph_.tensor(t).shape.empty(); });
    }

    /// The ops of \p parts, sorted.
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
            // [SG1, SG2], or a batch of branches [SG1..., SG2]: each SG1 in turn.
            int64_t f2 = factors.back();
            int64_t f1 = *std::max_element(factors.begin(), factors.end() - 1);
            if (f2 < f1) {
                why = "f(SG2)=" + factorText(f2) + " < f(SG1)=" + factorText(f1);
                return false;
            }
            if (merged > f2) {
                why = "f(SG)=" + factorText(merged) + " > f(SG2)=" + factorText(f2);
                return false;
            }
            if (factors.size() > 2 && merged < f1) {
                // In turn, a branch after the first would meet the exit at
                // f(SG) and fail; a batch merges only when none would.
                why = "f(SG)=" + factorText(merged) + " < f(SG1)=" + factorText(f1);
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

    /// \p recordRefusal: false for a batch the branch pattern only probes.
    bool attempt(const char* pattern, const std::vector<GroupId>& parts, Rule rule,
                 bool recordRefusal = true) {
        int64_t merged = mergedFactor(parts);
        std::vector<int64_t> factors;
        for (GroupId p : parts)
            factors.push_back(at(p).factor);
        std::string why;
        bool ok = ruleHolds(rule, factors, merged, why);
        if (ok || recordRefusal)
            record(pattern, parts, factors, merged, rule, ok, why);
        if (ok)
            merge(parts, merged);
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
            step.parts.push_back(p.firstOp);
            step.partSizes.push_back(static_cast<int64_t>(p.ops.size()));
            step.factors.push_back(factors[i] == kNoSplit ? 0 : factors[i]);
            names.push_back("{" + graph_.op(p.firstOp).name +
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

    /// The factor of the merged sub-graph; its ops are looked at only when
    /// its peak does not fit (or it produces a scalar), so that merging one
    /// op at a time into a large sub-graph stays cheap.
    int64_t mergedFactor(const std::vector<GroupId>& parts) {
        int64_t peak = 0, scalars = 0;
        for (GroupId p : parts) {
            peak = std::max(peak, at(p).peakBytes);
            scalars += at(p).scalarProducers;
        }
        if (scalars == 0 && peak <= mergeParams_.capacityBytes)
            return 1;
        return factorOf(bestSplitFactor(graph_, semantics_, unionOps(parts), mergeParams_));
    }

    /// Merges \p parts into the largest of them (small into large: ops are
    /// appended, so every op moves O(log n) times).
    void merge(const std::vector<GroupId>& parts, int64_t factor) {
        GroupId keep = *std::max_element(parts.begin(), parts.end(), [&](GroupId a, GroupId b) {
            return at(a).ops.size() < at(b).ops.size() ||
                   (at(a).ops.size() == at(b).ops.size() && a > b);
        });
        std::vector<GroupId> sorted = parts;
        std::sort(sorted.begin(), sorted.end());
        auto outside = [&](GroupId q) {
            return !std::binary_search(sorted.begin(), sorted.end(), q);
        };
        std::vector<GroupId> producers, consumers;
        for (GroupId p : parts) {
            GroupState& part = at(p);
            for (GroupId q : part.producers)
                if (outside(q))
                    producers.push_back(q);
            for (GroupId q : part.consumers)
                if (outside(q))
                    consumers.push_back(q);
            if (p != keep) {
                GroupState& kept = at(keep);
                for (ir::OpId op : part.ops)
                    groupOf_[op] = keep;
                kept.ops.insert(kept.ops.end(), part.ops.begin(), part.ops.end());
                kept.firstOp = std::min(kept.firstOp, part.firstOp);
                kept.peakBytes = std::max(kept.peakBytes, part.peakBytes);
                kept.scalarProducers += part.scalarProducers;
                part = GroupState{};
                part.alive = false;
            }
        }
        for (GroupId q : producers)
            replaceId(at(q).consumers, sorted, keep);
        for (GroupId q : consumers)
            replaceId(at(q).producers, sorted, keep);
        GroupState& kept = at(keep);
        kept.factor = factor;
        kept.producers = std::move(producers);
        kept.consumers = std::move(consumers);
        for (auto* list : {&kept.producers, &kept.consumers}) {
            std::sort(list->begin(), list->end());
            list->erase(std::unique(list->begin(), list->end()), list->end());
        }
        kept.touchedPass = pass_;
        lastKept_ = keep;
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
    /// The group the last merge kept.
    GroupId lastKept_ = kNoGroup;
};

} // namespace

Expected<GroupingResult> groupGraphTurbo(const ir::Graph& graph, const SemanticsCache& semantics,
                                         const SplitParams& params, Trace* trace) {
    if (graph.opCount() == 0)
        return GroupingResult{};
    return Grouper(graph, semantics, params, trace).run();
}

} // namespace stagecraft::partition
