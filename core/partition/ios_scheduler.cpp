// IOS's scheduler (ios_scheduler.h): Algorithm 1 over bit sets of the
// block's ops, numbered in graph order. SCHEDULER memoizes cost[S] and
// choice[S] (and each ending's stage, which costs the same whatever state
// it ends); the endings of S are enumerated from its last op backwards, an
// op taken only when all its successors in S are (so no edge runs from S' to
// S - S'); GENERATESTAGE splits S' into its connected components and keeps
// the cheaper of concurrent execution and operator merge (concurrent on a
// tie).

#include "partition/ios_scheduler.h"

#include "support/strings.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <unordered_map>

namespace stagecraft::partition {

namespace {

using Mask = uint64_t;

Mask bit(size_t i) {
    return Mask{1} << i;
}

/// Calls \p edge(i, j, from, to) for every tensor read by op \p to of unit j
/// from op \p from of another unit i, until it returns false.
template <class Edge>
void forEachUnitEdge(const ir::Graph& graph, const std::vector<std::vector<ir::OpId>>& units,
                     Edge edge) {
    IdVector<ir::OpId, int> unitOf(graph.opCount(), -1);
    for (size_t i = 0; i < units.size(); ++i)
        for (ir::OpId op : units[i])
            unitOf[op] = static_cast<int>(i);
    for (size_t i = 0; i < units.size(); ++i)
        for (ir::OpId from : units[i])
            for (ir::TensorId t : graph.op(from).outputs)
                for (const ir::Use& use : graph.tensor(t).uses)
                    if (int j = unitOf[use.op]; j >= 0 && j != static_cast<int>(i))
                        if (!edge(i, static_cast<size_t>(j), from, use.op))
                            return;
}

class Scheduler {
public:
    /// \p units: each sorted, ordered by first op.
    Scheduler(const ir::Graph& graph, std::vector<std::vector<ir::OpId>> units,
              const IosCostModel& cost, const IosPruning& pruning)
        : units_(std::move(units))
        , cost_(cost)
        , pruning_(pruning)
        , succ_(units_.size(), 0)
        , adj_(units_.size(), 0) {
        forEachUnitEdge(graph, units_, [&](size_t i, size_t j, ir::OpId, ir::OpId) {
            succ_[i] |= bit(j);
            adj_[i] |= bit(j);
            adj_[j] |= bit(i);
            return true;
        });
    }

    /// SCHEDULER(S): the least latency of the ops of \p s.
    double solve(Mask s) {
        if (s == 0)
            return 0;
        if (auto it = memo_.find(s); it != memo_.end())
            return it->second.cost;
        if (exceeded())
            return std::numeric_limits<double>::infinity();
        constexpr double inf = std::numeric_limits<double>::infinity();
        Entry best{inf, 0, false, 0, inf, 0};
        std::vector<Mask> ends;
        endings(s, std::bit_width(s), 0, ends);
        // endings() already stops at r x s units, the most P(r, s) lets pass.
        for (Mask end : ends) {
            const Stage& stage = stageOf(end);
            if (!stage.allowed)
                continue;
            ++transitions_;
            ++best.endings;
            double total = solve(s & ~end) + stage.latency;
            if (total < best.cost) {
                best.runnerUp = best.cost;
                std::tie(best.cost, best.choice, best.merged, best.latency) =
                    std::tuple{total, end, stage.merged, stage.latency};
            } else {
                best.runnerUp = std::min(best.runnerUp, total);
            }
        }
        memo_.emplace(s, best);
        return best.cost;
    }

    Expected<IosSchedule> schedule() {
        Mask all = units_.size() == kIosMaxBlockOps ? ~Mask{0} : bit(units_.size()) - 1;
        IosSchedule out;
        if (pruning_.maxEndings > 0 && endingsAtLeast(all) > pruning_.maxEndings) {
            out.boundReached = true; // known before the DP: cut the block at once
            return out;
        }
        out.latency = solve(all);
        out.transitions = transitions_;
        if (exceeded()) {
            out.boundReached = true;
            return out;
        }
        if (!std::isfinite(out.latency))
            return Error("IOS: no schedule of the block's " + std::to_string(units_.size()) +
                         " schedule units has a finite latency (an op runs on no unit)");
        for (Mask s = all; s != 0;) {
            const Entry& e = memo_.at(s);
            IosStage stage;
            for (Mask group : components(e.choice))
                stage.groups.push_back(opsOf(group));
            stage.merged = e.merged;
            stage.latency = e.latency;
            stage.stateUnits = std::popcount(s);
            stage.stateCost = e.cost;
            stage.endings = e.endings;
            stage.runnerUpCost = e.runnerUp;
            out.stages.push_back(std::move(stage));
            s &= ~e.choice;
        }
        std::reverse(out.stages.begin(), out.stages.end());  // choices run from the last stage
        out.states = static_cast<int64_t>(memo_.size()) + 1; // and the empty state
        out.transitions = transitions_;
        return out;
    }

private:
    struct Entry {
        double cost;
        Mask choice;
        bool merged;
        double latency;
        /// The cheapest total of another ending, and the endings priced.
        double runnerUp;
        int64_t endings;
    };

    bool exceeded() const { return pruning_.maxEndings > 0 && endingCount_ > pruning_.maxEndings; }

    /// Every ending of \p s among its ops below \p limit, given \p taken
    /// (ops above the limit already decided); stops once the bound is passed.
    void endings(Mask s, int limit, Mask taken, std::vector<Mask>& out) {
        if (exceeded())
            return;
        int i = limit - 1;
        while (i >= 0 && !(s & bit(static_cast<size_t>(i))))
            --i;
        if (i < 0) {
            if (taken != 0) {
                out.push_back(taken);
                ++endingCount_;
            }
            return;
        }
        endings(s, i, taken, out);
        if (std::popcount(taken) < maxEndingUnits() &&
            (succ_[static_cast<size_t>(i)] & s & ~taken) == 0)
            endings(s, i, taken | bit(static_cast<size_t>(i)), out);
    }

    /// A lower bound of the endings the DP would enumerate from \p all,
    /// counted until it passes IosPruning::maxEndings: the DP visits every
    /// state (every set closed under predecessors), and each nonempty set
    /// of a state's last units (no successor in it) of at most r x s units
    /// is one of its endings. Cheaper than the DP by far (no stage is
    /// priced), so a block too wide for the bound is cut without running it.
    int64_t endingsAtLeast(Mask all) const {
        std::vector<Mask> pred(units_.size(), 0);
        for (size_t i = 0; i < units_.size(); ++i)
            for (Mask m = succ_[i]; m != 0; m &= m - 1)
                pred[static_cast<size_t>(std::countr_zero(m))] |= bit(i);
        int64_t count = 0;
        countStates(all, 0, 0, pred, count);
        return count;
    }

    void countStates(Mask all, size_t next, Mask state, const std::vector<Mask>& pred,
                     int64_t& count) const {
        if (count > pruning_.maxEndings)
            return;
        if (next == units_.size()) {
            int last = 0;
            for (Mask m = state; m != 0; m &= m - 1)
                last += (succ_[static_cast<size_t>(std::countr_zero(m))] & state) == 0;
            count += subsetsUpTo(last, maxEndingUnits());
            return;
        }
        countStates(all, next + 1, state, pred, count);
        if ((pred[next] & ~state) == 0 && (all & bit(next)))
            countStates(all, next + 1, state | bit(next), pred, count);
    }

    /// Nonempty subsets of \p n items with at most \p k items, capped.
    static int64_t subsetsUpTo(int n, int k) {
        double total = 0, term = 1;
        for (int i = 1; i <= std::min(n, k); ++i) {
            term = term * (n - i + 1) / i;
            total += term;
        }
        return total > 9e18 ? std::numeric_limits<int64_t>::max() / 2 : static_cast<int64_t>(total);
    }

    /// The connected components of \p m, by lowest op.
    std::vector<Mask> components(Mask m) const {
        std::vector<Mask> out;
        while (m != 0) {
            Mask group = m & (~m + 1), frontier = group;
            while (frontier != 0) {
                Mask next = 0;
                for (Mask f = frontier; f != 0; f &= f - 1)
                    next |= adj_[static_cast<size_t>(std::countr_zero(f))];
                frontier = next & m & ~group;
                group |= frontier;
            }
            out.push_back(group);
            m &= ~group;
        }
        return out;
    }

    int maxEndingUnits() const {
        return pruning_.maxGroupOps > 0 && pruning_.maxGroups > 0
                   ? pruning_.maxGroupOps * pruning_.maxGroups
                   : static_cast<int>(kIosMaxBlockOps);
    }

    bool allowed(const std::vector<Mask>& groups) const {
        if (pruning_.maxGroups > 0 && groups.size() > static_cast<size_t>(pruning_.maxGroups))
            return false;
        return pruning_.maxGroupOps <= 0 || std::all_of(groups.begin(), groups.end(), [&](Mask g) {
                   return std::popcount(g) <= pruning_.maxGroupOps;
               });
    }

    std::vector<ir::OpId> opsOf(Mask m) const {
        std::vector<ir::OpId> out;
        for (; m != 0; m &= m - 1) {
            const auto& unit = units_[static_cast<size_t>(std::countr_zero(m))];
            out.insert(out.end(), unit.begin(), unit.end());
        }
        std::sort(out.begin(), out.end());
        return out;
    }

    /// An ending's stage: whether P(r, s) allows it, and GENERATESTAGE's
    /// latency and choice. A stage costs the same whatever state it ends,
    /// so each is priced once.
    struct Stage {
        bool allowed = false;
        double latency = 0;
        bool merged = false;
    };

    const Stage& stageOf(Mask end) {
        auto [it, inserted] = stages_.try_emplace(end);
        if (inserted) {
            std::vector<Mask> groups = components(end);
            it->second.allowed = allowed(groups);
            if (it->second.allowed)
                std::tie(it->second.latency, it->second.merged) = generateStage(end, groups);
        }
        return it->second;
    }

    /// GENERATESTAGE(S'): the latency of the stage and whether it merges.
    std::pair<double, bool> generateStage(Mask end, const std::vector<Mask>& groups) const {
        std::vector<std::vector<ir::OpId>> opGroups;
        for (Mask g : groups)
            opGroups.push_back(opsOf(g));
        double concurrent = cost_.concurrent(opGroups);
        if (cost_.merged)
            if (std::optional<double> merged = cost_.merged(opsOf(end));
                merged && *merged < concurrent)
                return {*merged, true};
        return {concurrent, false};
    }

    std::vector<std::vector<ir::OpId>> units_;
    const IosCostModel& cost_;
    IosPruning pruning_;
    std::vector<Mask> succ_;
    std::vector<Mask> adj_;
    std::unordered_map<Mask, Entry> memo_;
    std::unordered_map<Mask, Stage> stages_;
    int64_t transitions_ = 0;
    int64_t endingCount_ = 0;
};

/// The DP takes units in order of first op, every edge running forward (a
/// later unit never feeds an earlier one); refuses units that break it.
Status checkUnitOrder(const ir::Graph& graph, const std::vector<std::vector<ir::OpId>>& units) {
    Status status = Status::success();
    forEachUnitEdge(graph, units, [&](size_t i, size_t j, ir::OpId from, ir::OpId to) {
        if (j > i)
            return true;
        status =
            Error("IOS: op " + quote(graph.op(from).name) + " feeds " + quote(graph.op(to).name) +
                  ", in a schedule unit that starts earlier; a unit must come after every "
                  "unit it reads from");
        return false;
    });
    return status;
}

} // namespace

Expected<IosSchedule> scheduleIos(const ir::Graph& graph, std::vector<ir::OpId> block,
                                  const IosCostModel& cost, const IosPruning& pruning) {
    std::sort(block.begin(), block.end());
    block.erase(std::unique(block.begin(), block.end()), block.end());
    if (block.size() > kIosMaxBlockOps)
        return Error("IOS: the block has " + std::to_string(block.size()) + " ops, more than " +
                     std::to_string(kIosMaxBlockOps));
    std::vector<std::vector<ir::OpId>> units;
    for (ir::OpId op : block)
        units.push_back({op});
    return scheduleIosUnits(graph, std::move(units), cost, pruning);
}

Expected<IosSchedule> scheduleIosUnits(const ir::Graph& graph,
                                       std::vector<std::vector<ir::OpId>> units,
                                       const IosCostModel& cost, const IosPruning& pruning) {
    std::vector<ir::OpId> all;
    for (auto& unit : units) {
        std::sort(unit.begin(), unit.end());
        if (unit.empty())
            return Error("IOS: a schedule unit has no ops");
        all.insert(all.end(), unit.begin(), unit.end());
    }
    std::sort(all.begin(), all.end());
    if (std::adjacent_find(all.begin(), all.end()) != all.end())
        return Error("IOS: op " +
                     std::to_string(std::adjacent_find(all.begin(), all.end())->value()) +
                     " is in two schedule units");
    if (units.empty())
        return Error("IOS: the block has no ops");
    if (units.size() > kIosMaxBlockOps)
        return Error("IOS: the block has " + std::to_string(units.size()) +
                     " schedule units, more than " + std::to_string(kIosMaxBlockOps));
    if (!cost.concurrent)
        return Error("IOS: no stage cost model");
    for (ir::OpId op : all)
        if (!graph.hasOp(op))
            return Error("IOS: op " + std::to_string(op.value()) + " is not in the graph");
    std::sort(units.begin(), units.end(),
              [](const auto& a, const auto& b) { return a.front() < b.front(); });
    SC_RETURN_IF_ERROR(checkUnitOrder(graph, units));
    return Scheduler(graph, std::move(units), cost, pruning).schedule();
}

} // namespace stagecraft::partition
