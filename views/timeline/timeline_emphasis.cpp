// The bars a selection emphasizes (timeline_emphasis.h).

#include "timeline/timeline_emphasis.h"

namespace stagecraft::views {

EmphasisRule::EmphasisRule(const Selection& selection, const PipelineResult* result)
    : selection_(selection)
    , result_(result) {
    if (selection.kind != Selection::Kind::Op || result == nullptr)
        return;
    for (const kernel::Kernel& kern : result->eval.program.kernels)
        for (const kernel::Layer& layer : kern.layers)
            for (const kernel::OpWork& work : layer.ops)
                if (work.op == ir::OpId(selection.id)) {
                    const auto task = static_cast<size_t>(layer.task);
                    if (layerHoldsOp_.size() <= task)
                        layerHoldsOp_.resize(task + 1, false);
                    layerHoldsOp_[task] = true;
                }
}

bool EmphasisRule::matches(const TimelineBar& bar) const {
    switch (selection_.kind) {
    case Selection::Kind::Instance:
        return bar.instance != schedule::kNoInstance && bar.instance.value() == selection_.id;
    case Selection::Kind::Group:
        return bar.group != partition::kNoGroup && bar.group == partition::GroupId(selection_.id);
    case Selection::Kind::Op: {
        if (result_ == nullptr || bar.task == kernel::kNoTask)
            return bar.op >= 0 && bar.op == selection_.id;
        const int32_t layer = result_->eval.tasks.tasks[bar.task].layer;
        return layer >= 0 && static_cast<size_t>(layer) < layerHoldsOp_.size() &&
               layerHoldsOp_[static_cast<size_t>(layer)];
    }
    case Selection::Kind::None:
    case Selection::Kind::Tensor:
        break;
    }
    return false;
}

std::optional<TimelineData> emphasizedBars(const TimelineData& data, const Selection& selection,
                                           const PipelineResult* result) {
    const EmphasisRule rule(selection, result);
    std::vector<TimelineLane> lanes;
    size_t matched = 0;
    for (const TimelineLane& lane : data.lanes()) {
        TimelineLane subset = lane;
        subset.bars.clear();
        for (const TimelineBar& bar : lane.bars)
            if (rule.matches(bar))
                subset.bars.push_back(bar);
        matched += subset.bars.size();
        lanes.push_back(std::move(subset));
    }
    if (matched == 0)
        return std::nullopt;
    return TimelineData(std::move(lanes), data.makespanNs());
}

} // namespace stagecraft::views
