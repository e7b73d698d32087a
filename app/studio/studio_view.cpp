#include "studio/studio_view.h"

#include <array>

namespace stagecraft::studio {

namespace {

using enum StudioView;
constexpr std::array kViews{Window,    Graph,   Instances,  Inspector, Timeline,
                            Occupancy, Overlap, Time,       Compare,   Diff,
                            Steps,     Costs,   SideBySide, Kernel,    Roofline};
constexpr std::array<const char*, kViews.size()> kNames{
    "window",  "graph", "instances", "inspector", "timeline",   "occupancy", "overlap", "time",
    "compare", "diff",  "steps",     "costs",     "sidebyside", "kernel",    "roofline"};

} // namespace

std::span<const StudioView> studioViews() {
    return kViews;
}

QString studioViewName(StudioView view) {
    return QLatin1String(kNames[static_cast<size_t>(view)]);
}

QStringList studioViewNames() {
    QStringList names;
    for (StudioView view : kViews)
        names << studioViewName(view);
    return names;
}

std::optional<StudioView> parseStudioView(const QString& name) {
    for (StudioView view : kViews)
        if (name == QLatin1String(kNames[static_cast<size_t>(view)]))
            return view;
    return std::nullopt;
}

} // namespace stagecraft::studio
