// Builds the instance view's drawing (see instance_drawing.h).

#include "instances/instance_drawing.h"

#include <utility>

namespace stagecraft::views {

std::shared_ptr<const InstanceDrawing> makeInstanceDrawing(ResultPtr result,
                                                           const LayoutOptions& options) {
    auto drawing = std::make_shared<InstanceDrawing>();
    const schedule::Schedule& s = result->eval.schedule;
    drawing->layout = layoutInstances(*result, options);
    drawing->orderPosition.assign(s.instances.size(), 0);
    for (size_t k = 0; k < s.order.size(); ++k)
        drawing->orderPosition[s.order[k]] = static_cast<int>(k) + 1;
    drawing->labels.reserve(s.instances.size());
    for (const schedule::Instance& instance : s.instances)
        drawing->labels.push_back(QString::fromStdString(instance.label));
    drawing->result = std::move(result);
    return drawing;
}

} // namespace stagecraft::views
