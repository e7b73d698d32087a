// Ordering sub-graph instances (GraphTurbo §3.3, Fig. 7, Algorithm 3).
//
// BFS (Fig. 7a) visits the instance DAG breadth first: Kahn's algorithm with
// a FIFO queue seeded with the sources in instance order. DFS is Algorithm 3
// as written: `visit` starts as the BFS order (the figure's assumption);
// instances with no pending producer move from visit to ready; the last
// ready instance with no pending producer is ordered; its consumers lose a
// producer and, when still in visit, move to the end of ready (line 14).
// When no ready instance is free the outer loop moves newly free instances
// from visit (lines 2-4). On Fig. 6 this gives exactly Fig. 7f.
//
// The better order is chosen by memory utilization (docs/scheduling.md): the
// one that overflows LB least, then the one that keeps it fuller.

#include "schedule/internal/stages.h"

#include <algorithm>
#include <deque>
#include <list>
#include <set>

namespace stagecraft::schedule::detail {

std::vector<InstanceId> bfsOrder(const Schedule& s, const Adjacency& a) {
    IdVector<InstanceId, size_t> pending(s.instances.size());
    std::deque<InstanceId> queue;
    for (InstanceId i : s.instances.ids()) {
        pending[i] = a.preds[i].size();
        if (pending[i] == 0)
            queue.push_back(i);
    }
    std::vector<InstanceId> order;
    while (!queue.empty()) {
        InstanceId i = queue.front();
        queue.pop_front();
        order.push_back(i);
        for (InstanceId c : a.succs[i])
            if (--pending[c] == 0)
                queue.push_back(c);
    }
    return order;
}

namespace {

/// Algorithm 3. `visit` is a linked list; `ready` keeps insertion order with
/// removed entries left as holes, and the positions of its free entries in
/// a set, so picking the last free one is O(log n).
class Algorithm3 {
public:
    Algorithm3(const Schedule& s, const Adjacency& a, partition::Trace* trace)
        : s_(s)
        , a_(a)
        , trace_(s.instances.size() <= kTraceLimit ? trace : nullptr) {
        size_t n = s.instances.size();
        indegree_.resize(n);
        where_.resize(n);
        inVisit_.assign(n, false);
        readyPosition_.assign(n, -1);
        for (InstanceId i : s.instances.ids())
            indegree_[i] = a_.preds[i].size();
        for (InstanceId i : bfsOrder(s, a)) {
            where_[i] = visit_.insert(visit_.end(), i);
            inVisit_[i] = true;
        }
        if (trace != nullptr && trace_ == nullptr)
            trace->order.push_back({{},
                                    {},
                                    {},
                                    "§3.3 Algorithm 3: steps are recorded for at most " +
                                        std::to_string(kTraceLimit) +
                                        " instances; this schedule has " + std::to_string(n)});
    }

    std::vector<InstanceId> run() {
        while (!visit_.empty() || !free_.empty()) {
            size_t moved = moveFreeFromVisit();
            if (moved > 0)
                record("instances with no pending producer move from visit to ready (lines 3-4)");
            bool progress = moved > 0;
            while (pickLastFree())
                progress = true;
            if (!progress)
                break; // impossible on a DAG: every round frees an instance
        }
        return order_;
    }

private:
    static constexpr size_t kTraceLimit = 256;

    void pushReady(InstanceId i) {
        readyPosition_[i] = static_cast<int64_t>(ready_.size());
        ready_.push_back(i);
        if (indegree_[i] == 0)
            free_.insert(ready_.size() - 1);
    }

    size_t moveFreeFromVisit() {
        size_t moved = 0;
        for (auto it = visit_.begin(); it != visit_.end();) {
            InstanceId i = *it;
            if (indegree_[i] == 0) {
                it = visit_.erase(it);
                inVisit_[i] = false;
                pushReady(i);
                ++moved;
            } else {
                ++it;
            }
        }
        return moved;
    }

    /// Lines 5-14: order the last free ready instance. False when none is free.
    bool pickLastFree() {
        if (free_.empty())
            return false;
        size_t position = *free_.rbegin();
        free_.erase(std::prev(free_.end()));
        InstanceId picked = ready_[position];
        ready_[position] = kNoInstance;
        readyPosition_[picked] = -1;
        order_.push_back(picked);
        std::vector<std::string> movedNames;
        for (InstanceId c : a_.succs[picked]) {
            --indegree_[c];
            if (inVisit_[c]) {
                visit_.erase(where_[c]);
                inVisit_[c] = false;
                pushReady(c);
                movedNames.push_back(name(c));
            } else if (indegree_[c] == 0 && readyPosition_[c] >= 0) {
                free_.insert(static_cast<size_t>(readyPosition_[c]));
            }
        }
        if (trace_ != nullptr)
            record(pickText(picked, movedNames));
        return true;
    }

    std::string pickText(InstanceId picked, const std::vector<std::string>& moved) const {
        std::string text =
            name(picked) + " is the last ready instance with no pending producer: ordered";
        if (!moved.empty()) {
            text += moved.size() > 1 ? "; its consumers " : "; its consumer ";
            for (size_t i = 0; i < moved.size(); ++i)
                text += (i ? ", " : "") + moved[i];
            text += moved.size() > 1 ? " move from visit to ready" : " moves from visit to ready";
        }
        return text + " (lines 6-14)";
    }

    const std::string& name(InstanceId i) const { return s_.instances[i].label; }

    void record(const std::string& what) {
        if (trace_ == nullptr)
            return;
        partition::OrderStep step;
        for (InstanceId i : visit_)
            step.visit.push_back(name(i));
        for (InstanceId i : ready_)
            if (i != kNoInstance)
                step.ready.push_back(name(i));
        for (InstanceId i : order_)
            step.order.push_back(name(i));
        step.explanation = "§3.3 Algorithm 3: " + what;
        trace_->order.push_back(std::move(step));
    }

    const Schedule& s_;
    const Adjacency& a_;
    partition::Trace* trace_;
    IdVector<InstanceId, size_t> indegree_;
    std::list<InstanceId> visit_;
    IdVector<InstanceId, std::list<InstanceId>::iterator> where_;
    IdVector<InstanceId, bool> inVisit_;
    /// kNoInstance where an instance was picked.
    std::vector<InstanceId> ready_;
    IdVector<InstanceId, int64_t> readyPosition_;
    std::set<size_t> free_;
    std::vector<InstanceId> order_;
};

} // namespace

std::vector<InstanceId> dfsOrder(const Schedule& s, const Adjacency& a, partition::Trace* trace) {
    return Algorithm3(s, a, trace).run();
}

MemoryUse memoryUse(const ir::Graph& graph, const Schedule& s, const Adjacency& a,
                    std::span<const InstanceId> order) {
    MemoryUse use;
    if (order.empty() || s.capacityBytes <= 0)
        return use;
    IdVector<InstanceId, size_t> waiting(s.instances.size());
    for (InstanceId i : s.instances.ids())
        waiting[i] = a.succs[i].size();
    auto outputBytes = [&](InstanceId i) {
        const Instance& inst = s.instances[i];
        ir::TensorId out = groupOutput(s, inst.group);
        return ir::elementCount(inst.shape) * ir::dtypeSize(graph.tensor(out).dtype);
    };
    int64_t live = 0;
    double sum = 0;
    auto capacity = static_cast<double>(s.capacityBytes);
    for (InstanceId i : order) {
        const Instance& inst = s.instances[i];
        int64_t used = live + inst.footprintBytes;
        sum += std::min(static_cast<double>(used), capacity) / capacity;
        use.overflow += std::max<int64_t>(0, used - s.capacityBytes);
        if (waiting[i] > 0)
            live += outputBytes(i);
        for (InstanceId p : a.preds[i])
            if (--waiting[p] == 0)
                live -= outputBytes(p);
    }
    use.utilization = sum / static_cast<double>(order.size());
    return use;
}

} // namespace stagecraft::schedule::detail
