#pragma once
// The command line of stagecraft-studio:
//   stagecraft-studio [MODEL|SESSION] [--arch A] [--session FILE] [--strategy S]
//                     [--level auto|lb|gb] [--batch N] [--per-cluster K|auto] [--seq N]
//                     [--input NAME:SHAPE]... [--dim NAME=N]...
//                     [--select NAME] [--find TEXT]
//                     [--color-by groups|time|ddr|spills|split|unit|energy]
//                     [--draw-by groups|names] [--side-by-side]
//                     [--diff-with STRATEGY] [--step N] [--sweep DIR [--sweep-axes X,Y]]
//                     [--tour NAME|FILE [--tour-step N]]
//                     [--screenshot FILE [--view NAME] [--show NAMES] [--size WxH]]

#include "io/session_json.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace stagecraft::studio {

struct StudioOptions {
    /// A model (.onnx) or a session (.stagecraft) to open, empty for none.
    QString open;
    /// Architecture, strategy, level and dims for a model opened now.
    io::Session defaults;
    /// An op name or instance label to select once the result is shown.
    QString select;
    /// Render the window (or one view) to this PNG and exit.
    QString screenshot;
    /// A view name (studio_view.h): checked when parsed.
    QString view = QStringLiteral("window");
    QSize size{1400, 900};
    /// Views whose docks to raise before the screenshot (names, checked).
    QStringList show;
    /// A strategy to diff the schedule with, empty for none.
    QString diffWith;
    /// A profile to show beside the simulated timeline, empty for none.
    QString profile;
    /// A sweep's results directory to show, empty for none.
    QString sweep;
    /// The sweep window's x, y and optionally colour columns, empty for its own choice.
    QStringList sweepAxes;
    /// Text the graph's find field starts with: every op containing it is marked.
    QString find;
    /// What the graph colours its groups by (costs/group_overlay.h names), checked.
    QString colorBy = QStringLiteral("groups");
    /// The graph draws ops by schedule group or by name scope ("names").
    bool drawByName = false;
    /// The diff shows both schedules' graphs side by side.
    bool sideBySide = false;
    /// A step of the algorithm step-through to go to (from 1), 0 for none.
    int step = 0;
    /// The Kernel view's text: "loops", "ir" or "assembly" (checked).
    QString kernelPane = QStringLiteral("loops");
    /// --arch or --level was given: a zoo figure opens with them, not with
    /// its figure's setup.
    bool setupFixed = false;
    /// --batch, --per-cluster or --seq was given: a zoo model of Table 2
    /// opens with them, not with its row's batch.
    bool batchFixed = false;
    /// A tour to start (a built-in name or a tour file), empty for none,
    /// and its step to open at (from 1).
    QString tour;
    int tourStep = 1;
};

/// Parses \p arguments (argv without the program name handled by the
/// caller's QCommandLineParser). Returns the options or a one-line error.
struct ParsedOptions {
    std::optional<StudioOptions> options;
    QString error;
    bool exitNow = false;
};
ParsedOptions parseStudioOptions(const QStringList& arguments);

} // namespace stagecraft::studio
