// The order's steps (GraphTurbo §3.3, Fig. 7): the steps follow the order the
// schedule kept, so that the step-through never contradicts the tool bar.
// - DFS: Algorithm 3's visit/ready/order lists as the schedule's trace
//   recorded them (Fig. 7b-f).
// - BFS: Kahn's algorithm with a FIFO queue (Fig. 7a), replayed here from
//   the instance DAG: each step orders the queue's first instance; its
//   consumers with no pending producer join the queue's end. "visit" holds
//   the instances still waiting for a producer, "ready" the queue.
// - An order as edited: one step with the whole order.
// Then one step says which order was kept and why: by memory utilization
// (the buffers), not by simulated time.

#include "stepper/algorithm_steps.h"

#include <deque>
#include <map>
#include <string>

namespace stagecraft::views {
namespace {

QStringList toQt(const std::vector<std::string>& labels) {
    QStringList out;
    out.reserve(static_cast<qsizetype>(labels.size()));
    for (const std::string& label : labels)
        out.push_back(QString::fromStdString(label));
    return out;
}

QString labelOf(const schedule::Schedule& s, schedule::InstanceId id) {
    return QString::fromStdString(s.instances[id].label);
}

/// The instances whose labels are \p labels, added to \p out.
void addIds(const schedule::Schedule& s, const QStringList& labels, std::vector<int32_t>& out) {
    std::map<QString, int32_t> byLabel;
    for (schedule::InstanceId id : s.instances.ids())
        byLabel[labelOf(s, id)] = id.value();
    for (const QString& label : labels)
        if (auto it = byLabel.find(label); it != byLabel.end())
            out.push_back(it->second);
}

AlgorithmStep dfsStep(const schedule::Schedule& s, const partition::OrderStep& traced,
                      const OrderLists* previous) {
    AlgorithmStep step;
    step.kind = StepKind::Order;
    step.algorithm = QStringLiteral("Algorithm 3");
    step.explanation = QString::fromStdString(traced.explanation);
    OrderLists lists{toQt(traced.visit), toQt(traced.ready), toQt(traced.order)};
    QStringList lit;
    if (previous != nullptr && lists.order.size() > previous->order.size()) {
        step.title = QStringLiteral("DFS order: %1 ordered").arg(lists.order.back());
        lit << lists.order.back();
    } else {
        step.title = QStringLiteral("DFS order: the first ready instances");
    }
    for (const QString& label : lists.ready)
        if (previous == nullptr || !previous->ready.contains(label))
            lit << label;
    addIds(s, lit, step.highlights.instances);
    step.lists = std::move(lists);
    return step;
}

std::vector<AlgorithmStep> dfsSteps(const schedule::Schedule& s) {
    std::vector<AlgorithmStep> steps;
    for (const partition::OrderStep& traced : s.trace.order) {
        const OrderLists* previous = steps.empty() ? nullptr : &*steps.back().lists;
        steps.push_back(dfsStep(s, traced, previous));
    }
    return steps;
}

std::vector<AlgorithmStep> bfsSteps(const schedule::Schedule& s) {
    const schedule::Adjacency adjacency = schedule::adjacency(s);
    IdVector<schedule::InstanceId, size_t> pending(s.instances.size());
    std::deque<schedule::InstanceId> queue;
    for (schedule::InstanceId i : s.instances.ids()) {
        pending[i] = adjacency.preds[i].size();
        if (pending[i] == 0)
            queue.push_back(i);
    }
    OrderLists lists;
    auto snapshot = [&] {
        lists.visit.clear();
        lists.ready.clear();
        for (schedule::InstanceId i : s.instances.ids())
            if (pending[i] > 0)
                lists.visit << labelOf(s, i);
        for (schedule::InstanceId i : queue)
            lists.ready << labelOf(s, i);
    };
    std::vector<AlgorithmStep> steps;
    while (!queue.empty()) {
        const schedule::InstanceId next = queue.front();
        queue.pop_front();
        lists.order << labelOf(s, next);
        QStringList joined;
        for (schedule::InstanceId c : adjacency.succs[next])
            if (--pending[c] == 0) {
                queue.push_back(c);
                joined << labelOf(s, c);
            }
        snapshot();
        AlgorithmStep step;
        step.kind = StepKind::Order;
        step.algorithm = QStringLiteral("§3.3 BFS");
        step.title = QStringLiteral("BFS order: %1 ordered").arg(labelOf(s, next));
        step.explanation =
            QStringLiteral("§3.3, Fig. 7a: breadth first over the instance DAG, the first "
                           "instance of the ready queue is ordered") +
            (joined.isEmpty() ? QString()
                              : QStringLiteral("; %1 no longer wait%2 for a producer and join "
                                               "the queue's end")
                                    .arg(joined.join(QStringLiteral(", ")),
                                         joined.size() == 1 ? QStringLiteral("s") : QString()));
        addIds(s, QStringList{labelOf(s, next)} + joined, step.highlights.instances);
        step.lists = lists;
        steps.push_back(std::move(step));
    }
    return steps;
}

AlgorithmStep editedOrderStep(const schedule::Schedule& s) {
    AlgorithmStep step;
    step.kind = StepKind::Order;
    step.algorithm = QStringLiteral("§3.3 order");
    step.title = QStringLiteral("The order as edited");
    step.explanation = QStringLiteral("The instance order was set by hand (dragged in the "
                                      "inspector); Algorithm 3 does not apply");
    OrderLists lists;
    for (schedule::InstanceId id : s.order)
        lists.order << labelOf(s, id);
    step.lists = std::move(lists);
    return step;
}

/// Which order was kept, with both memory utilizations.
AlgorithmStep keptStep(const schedule::Schedule& s, const OrderLists& last) {
    const bool bfs = s.orderKind == schedule::OrderKind::BFS;
    AlgorithmStep step;
    step.kind = StepKind::Order;
    step.algorithm = bfs ? QStringLiteral("§3.3 BFS") : QStringLiteral("Algorithm 3");
    step.title =
        QStringLiteral("%1 order kept").arg(bfs ? QStringLiteral("BFS") : QStringLiteral("DFS"));
    step.explanation =
        QStringLiteral("§3.3: memory utilization BFS %1, DFS %2. Asked for the better order, "
                       "the schedule keeps the one that overflows the local buffers least, then "
                       "keeps them fuller: a choice by buffer use, not by simulated time")
            .arg(s.bfsUtilization, 0, 'f', 2)
            .arg(s.dfsUtilization, 0, 'f', 2);
    step.lists = last;
    return step;
}

} // namespace

std::vector<AlgorithmStep> orderSteps(const PipelineResult& result) {
    const schedule::Schedule& s = result.eval.schedule;
    std::vector<AlgorithmStep> steps;
    switch (s.orderKind) {
    case schedule::OrderKind::DFS:
        steps = dfsSteps(s);
        break;
    case schedule::OrderKind::BFS:
        if (!s.trace.order.empty()) // traced like DFS: small enough to step through
            steps = bfsSteps(s);
        break;
    case schedule::OrderKind::User:
        steps.push_back(editedOrderStep(s));
        return steps;
    case schedule::OrderKind::Stages:
        return steps;
    }
    if (!steps.empty())
        steps.push_back(keptStep(s, *steps.back().lists));
    return steps;
}

} // namespace stagecraft::views
