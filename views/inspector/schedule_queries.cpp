// The inspector's questions about a result's selection (see schedule_queries.h).

#include "inspector/schedule_queries.h"

namespace stagecraft::views::inspector {

namespace {

size_t countFor(const PipelineResult& result, Selection::Kind kind) {
    switch (kind) {
    case Selection::Kind::Op:
        return result.graph ? result.graph->opCount() : 0;
    case Selection::Kind::Tensor:
        return result.graph ? result.graph->tensorCount() : 0;
    case Selection::Kind::Group:
        return result.eval.schedule.groups.size();
    case Selection::Kind::Instance:
        return result.eval.schedule.instances.size();
    case Selection::Kind::None:
        break;
    }
    return 0;
}

} // namespace

Selection validSelection(const PipelineResult& result, const Selection& selection) {
    if (selection.id < 0 || static_cast<size_t>(selection.id) >= countFor(result, selection.kind))
        return {};
    return selection;
}

std::optional<schedule::GroupId> groupOf(const PipelineResult& result, const Selection& selection) {
    const schedule::Schedule& s = result.eval.schedule;
    Selection valid = validSelection(result, selection);
    switch (valid.kind) {
    case Selection::Kind::Op:
        return s.partition.groupOf(ir::OpId(valid.id));
    case Selection::Kind::Group:
        return schedule::GroupId(valid.id);
    case Selection::Kind::Instance:
        return s.instances[schedule::InstanceId(valid.id)].group;
    case Selection::Kind::Tensor:
        if (ir::OpId producer = result.graph->tensor(ir::TensorId(valid.id)).producer;
            producer != ir::kNoOp)
            return s.partition.groupOf(producer);
        return std::nullopt;
    case Selection::Kind::None:
        break;
    }
    return std::nullopt;
}

std::optional<schedule::GroupId> groupWithOutput(const PipelineResult& result,
                                                 ir::TensorId tensor) {
    return schedule::groupWithOutput(*result.graph, result.eval.schedule, tensor);
}

std::optional<ir::TensorId> pinnableTensor(const PipelineResult& result,
                                           const Selection& selection) {
    Selection valid = validSelection(result, selection);
    if (valid.kind == Selection::Kind::Tensor) {
        if (const ir::TensorId tensor(valid.id); groupWithOutput(result, tensor))
            return tensor;
        return std::nullopt;
    }
    if (valid.kind == Selection::Kind::Group || valid.kind == Selection::Kind::Instance)
        return schedule::groupOutput(result.eval.schedule, *groupOf(result, valid));
    return std::nullopt;
}

std::vector<schedule::InstanceId> predecessors(const schedule::Schedule& schedule,
                                               schedule::InstanceId instance) {
    return schedule::adjacency(schedule).preds[instance];
}

std::vector<schedule::InstanceId> successors(const schedule::Schedule& schedule,
                                             schedule::InstanceId instance) {
    return schedule::adjacency(schedule).succs[instance];
}

} // namespace stagecraft::views::inspector
