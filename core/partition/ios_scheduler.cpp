// IOS's scheduler (ios_scheduler.h): Algorithm 1 over bit sets of the
// block's ops, numbered in graph order. SCHEDULER memoizes cost[S] and
// choice[S]; the endings of S are enumerated from its last op backwards, an
// op taken only when all its successors in S are (so no edge runs from S' to
// S - S'); GENERATESTAGE splits S' into its connected components and keeps
// the cheaper of concurrent execution and operator merge (concurrent on a
// tie).

#include "partition/ios_scheduler.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <string>
#include <unordered_map>

namespace stagecraft::partition {

namespace {

using Mask = uint64_t;

Mask bit(size_t i) {
    return Mask{1} << i;
}

class Scheduler {
public:
    Scheduler(const ir::Graph& graph, std::vector<ir::OpId> ops, const IosCostModel& cost,
              const IosPruning& pruning)
        : ops_(std::move(ops))
        , cost_(cost)
        , pruning_(pruning)
        , succ_(ops_.size(), 0)
        , adj_(ops_.size(), 0) {
        IdVector<ir::OpId, int> position(graph.opCount(), -1);
        for (size_t i = 0; i < ops_.size(); ++i)
            position[ops_[i]] = static_cast<int>(i);
        for (size_t i = 0; i < ops_.size(); ++i)
            for (ir::TensorId t : graph.op(ops_[i]).outputs)
                for (const ir::Use& use : graph.tensor(t).uses)
                    if (int j = position[use.op]; j >= 0) {
                        succ_[i] |= bit(static_cast<size_t>(j));
                        adj_[i] |= bit(static_cast<size_t>(j));
                        adj_[static_cast<size_t>(j)] |= bit(i);
                    }
    }

    /// SCHEDULER(S): the least latency of the ops of \p s.
    double solve(Mask s) {
        if (s == 0)
            return 0;
        if (auto it = memo_.find(s); it != memo_.end())
            return it->second.cost;
        Entry best{std::numeric_limits<double>::infinity(), 0, false, 0};
        std::vector<Mask> ends;
        endings(s, std::bit_width(s), 0, ends);
        for (Mask end : ends) {
            std::vector<Mask> groups = components(end);
            if (!allowed(groups))
                continue;
            ++transitions_;
            auto [latency, merged] = generateStage(end, groups);
            double total = solve(s & ~end) + latency;
            if (total < best.cost)
                best = {total, end, merged, latency};
        }
        memo_.emplace(s, best);
        return best.cost;
    }

    IosSchedule schedule() {
        Mask all = ops_.size() == kIosMaxBlockOps ? ~Mask{0} : bit(ops_.size()) - 1;
        IosSchedule out;
        out.latency = solve(all);
        for (Mask s = all; s != 0;) {
            const Entry& e = memo_.at(s);
            IosStage stage;
            for (Mask group : components(e.choice))
                stage.groups.push_back(opsOf(group));
            stage.merged = e.merged;
            stage.latency = e.latency;
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
    };

    /// Every ending of \p s among its ops below \p limit, given \p taken
    /// (ops above the limit already decided).
    void endings(Mask s, int limit, Mask taken, std::vector<Mask>& out) const {
        int i = limit - 1;
        while (i >= 0 && !(s & bit(static_cast<size_t>(i))))
            --i;
        if (i < 0) {
            if (taken != 0)
                out.push_back(taken);
            return;
        }
        endings(s, i, taken, out);
        if ((succ_[static_cast<size_t>(i)] & s & ~taken) == 0)
            endings(s, i, taken | bit(static_cast<size_t>(i)), out);
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

    bool allowed(const std::vector<Mask>& groups) const {
        if (pruning_.maxGroups > 0 && groups.size() > static_cast<size_t>(pruning_.maxGroups))
            return false;
        return pruning_.maxGroupOps <= 0 || std::all_of(groups.begin(), groups.end(), [&](Mask g) {
                   return std::popcount(g) <= pruning_.maxGroupOps;
               });
    }

    std::vector<ir::OpId> opsOf(Mask m) const {
        std::vector<ir::OpId> out;
        for (; m != 0; m &= m - 1)
            out.push_back(ops_[static_cast<size_t>(std::countr_zero(m))]);
        return out;
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

    std::vector<ir::OpId> ops_;
    const IosCostModel& cost_;
    IosPruning pruning_;
    std::vector<Mask> succ_;
    std::vector<Mask> adj_;
    std::unordered_map<Mask, Entry> memo_;
    int64_t transitions_ = 0;
};

} // namespace

Expected<IosSchedule> scheduleIos(const ir::Graph& graph, std::vector<ir::OpId> block,
                                  const IosCostModel& cost, const IosPruning& pruning) {
    std::sort(block.begin(), block.end());
    block.erase(std::unique(block.begin(), block.end()), block.end());
    if (block.empty())
        return Error("IOS: the block has no ops");
    if (block.size() > kIosMaxBlockOps)
        return Error("IOS: the block has " + std::to_string(block.size()) + " ops, more than " +
                     std::to_string(kIosMaxBlockOps));
    if (!cost.concurrent)
        return Error("IOS: no stage cost model");
    for (ir::OpId op : block)
        if (!graph.hasOp(op))
            return Error("IOS: op " + std::to_string(op.value()) + " is not in the graph");
    return Scheduler(graph, std::move(block), cost, pruning).schedule();
}

} // namespace stagecraft::partition
