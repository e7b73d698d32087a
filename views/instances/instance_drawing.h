#pragma once
// Everything the instance view paints, computed once per result and layout
// choice: the layout, each instance's position in the order and its label.
// Zoom, pan, hover and selection only read it.

#include "common/pipeline_result.h"
#include "instances/instance_layout.h"

#include <QString>

#include <memory>
#include <vector>

namespace stagecraft::views {

struct InstanceDrawing {
    ResultPtr result;
    InstanceLayout layout;
    /// 1-based position in Schedule::order (0 when absent).
    IdVector<schedule::InstanceId, int> orderPosition;
    /// "a1".
    IdVector<schedule::InstanceId, QString> labels;

    const schedule::Schedule& schedule() const { return result->eval.schedule; }
};

std::shared_ptr<const InstanceDrawing> makeInstanceDrawing(ResultPtr result,
                                                           const LayoutOptions& options);

} // namespace stagecraft::views
