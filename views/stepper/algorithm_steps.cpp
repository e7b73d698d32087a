// The step list: Algorithm 2 merges, the order's steps (order_steps.cpp) and
// Algorithm 4 decisions from the schedule's trace, then the memory steps of
// §4.3. The
// trace's own sentences already name their section ("§3.3 Algorithm 3: …")
// and are shown as they are, like `stagecraft schedule --explain` does.

#include "stepper/algorithm_steps.h"

#include <algorithm>
#include <map>
#include <string>

namespace stagecraft::views {
namespace {

class InstanceIndex {
public:
    explicit InstanceIndex(const schedule::Schedule& schedule) {
        for (schedule::InstanceId i : schedule.instances.ids())
            byLabel_[schedule.instances[i].label] = i.value();
    }
    void addTo(std::vector<int32_t>& out, const QString& label) const {
        auto it = byLabel_.find(label.toStdString());
        if (it != byLabel_.end())
            out.push_back(it->second);
    }

private:
    std::map<std::string, int32_t> byLabel_;
};

QString actionTitle(const std::string& action) {
    if (action == "plain")
        return QStringLiteral("plain binding");
    if (action == "inferred")
        return QStringLiteral("binding inferred from a consumer");
    if (action == "mismatch")
        return QStringLiteral("binding cannot be inferred");
    if (action == "updated")
        return QStringLiteral("binding updated");
    if (action == "skipped")
        return QStringLiteral("binding kept");
    return QString::fromStdString(action);
}

QString bindText(const std::vector<int64_t>& bind) {
    QStringList parts;
    for (int64_t value : schedule::trimmed(bind))
        parts << QString::number(value);
    return u'[' % parts.join(u',') % u']';
}

std::vector<AlgorithmStep> bindSteps(const PipelineResult& result, const InstanceIndex& index) {
    std::vector<AlgorithmStep> steps;
    // The bindings and scopes decided so far, replayed step by step.
    const size_t instances = result.eval.schedule.instances.size();
    std::vector<QString> binds(instances);
    std::vector<QString> scopes(instances);
    for (const partition::BindStep& traced : result.eval.schedule.trace.binding) {
        std::vector<int32_t> ids;
        index.addTo(ids, QString::fromStdString(traced.instance));
        for (int32_t id : ids) {
            binds[static_cast<size_t>(id)] = bindText(traced.bind);
            scopes[static_cast<size_t>(id)] = QString::fromStdString(traced.scope);
        }
        AlgorithmStep step;
        step.kind = StepKind::Bind;
        step.algorithm = QStringLiteral("Algorithm 4");
        step.title = QString::fromStdString(traced.instance) % QStringLiteral(": ") %
                     actionTitle(traced.action);
        step.explanation = QString::fromStdString(traced.explanation);
        index.addTo(step.highlights.instances, QString::fromStdString(traced.instance));
        step.highlights.stepBinds = binds;
        step.highlights.stepScopes = scopes;
        steps.push_back(std::move(step));
    }
    return steps;
}

void append(std::vector<AlgorithmStep>& to, std::vector<AlgorithmStep> from) {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

} // namespace

void setOrderStates(const OrderLists& lists, const schedule::Schedule& schedule,
                    Highlights& marks) {
    std::map<QString, int32_t> byLabel;
    for (schedule::InstanceId id : schedule.instances.ids())
        byLabel[QString::fromStdString(schedule.instances[id].label)] = id.value();
    marks.instanceStates.assign(schedule.instances.size(), 0);
    marks.instanceOrder.assign(schedule.instances.size(), 0);
    auto mark = [&](const QStringList& labels, int8_t state) {
        for (qsizetype i = 0; i < labels.size(); ++i) {
            auto it = byLabel.find(labels[i]);
            if (it == byLabel.end())
                continue;
            const auto id = static_cast<size_t>(it->second);
            marks.instanceStates[id] = std::max(marks.instanceStates[id], state);
            if (state == 3)
                marks.instanceOrder[id] = static_cast<int32_t>(i + 1);
        }
    };
    mark(lists.visit, 1);
    mark(lists.ready, 2);
    mark(lists.order, 3);
}

std::vector<AlgorithmStep> buildSteps(const PipelineResult& result) {
    InstanceIndex index(result.eval.schedule);
    std::vector<AlgorithmStep> steps = mergeSteps(result);
    append(steps, orderSteps(result));
    append(steps, bindSteps(result, index));
    append(steps, memorySteps(result));
    return steps;
}

} // namespace stagecraft::views
