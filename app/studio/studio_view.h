#pragma once
// The main window's views by name: what --view and --show accept, and what
// MainWindow::view() and showView() take.

#include <QString>
#include <QStringList>

#include <optional>
#include <span>

namespace stagecraft::studio {

enum class StudioView {
    /// The whole window (for --screenshot).
    Window,
    Graph,
    Instances,
    Inspector,
    Timeline,
    Occupancy,
    Overlap,
    /// The three time views stacked in their dock.
    Time,
    Compare,
    Diff,
    Steps,
    /// The sortable table of groups and kernels with their costs.
    Costs,
    /// The diff's two schedules side by side (a window of its own).
    SideBySide,
    /// The selected instance's kernel: loop nest, LLVM IR and assembly.
    Kernel,
    /// The kernels (or groups) on a hierarchical roofline.
    Roofline,
};

/// Every view, in the order above.
std::span<const StudioView> studioViews();

/// "window", "graph", "instances", "inspector", "timeline", "occupancy",
/// "overlap", "time", "compare", "diff", "steps", "costs", "sidebyside", "kernel",
/// "roofline".
QString studioViewName(StudioView view);

/// The names of studioViews(), in order.
QStringList studioViewNames();

/// The view named \p name, if any.
std::optional<StudioView> parseStudioView(const QString& name);

} // namespace stagecraft::studio
