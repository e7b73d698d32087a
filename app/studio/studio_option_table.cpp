// The options of stagecraft-studio (studio_option_table.h): each entry's
// help and how its value applies. Checks that need several options (a view
// needs a model, one model or session) are parseStudioOptions'.

#include "studio/studio_option_table.h"

#include "arch/presets.h"
#include "costs/group_overlay.h"
#include "onnx/importer.h"
#include "schedule/schedule.h"
#include "sim/compare.h"
#include "studio/studio_view.h"

#include <array>
#include <optional>

namespace stagecraft::studio {

namespace {

QString last(const QStringList& values) {
    return values.isEmpty() ? QString() : values.last();
}

/// "unknown strategy 'x' (expected …)" for a strategy flag.
QString unknownStrategy(const QString& name) {
    return QString::fromStdString(sim::unknownStrategyMessage(name.toStdString()));
}

/// A whole number >= 1 from a flag's text, or an error naming the flag.
QString readCount(const QString& flag, const QString& text, std::optional<int64_t>& value) {
    bool ok = false;
    qlonglong parsed = text.toLongLong(&ok);
    if (!ok || parsed < 1)
        return QStringLiteral("--%1: expected a whole number from 1 (got '%2')").arg(flag, text);
    value = parsed;
    return {};
}

QString applyArch(const QStringList& values, StudioOptions& options) {
    Expected<arch::Arch> arch = arch::resolveArch(last(values).toStdString());
    if (!arch.ok())
        return QString::fromStdString(arch.error().message());
    options.defaults.arch = std::move(arch).value();
    return {};
}

QString applySession(const QStringList& values, StudioOptions& options) {
    if (!values.isEmpty())
        options.open = last(values);
    return {};
}

QString applyStrategy(const QStringList& values, StudioOptions& options) {
    options.defaults.strategy = last(values).toStdString();
    if (!sim::findStrategy(options.defaults.strategy))
        return QStringLiteral("--strategy: ") + unknownStrategy(last(values));
    return {};
}

QString applyLevel(const QStringList& values, StudioOptions& options) {
    auto level = schedule::parseLevelChoice(last(values).toLower().toStdString());
    if (!level)
        return QStringLiteral("--level: expected auto, lb or gb (got '%1')").arg(last(values));
    options.defaults.level = *level;
    return {};
}

QString applyBatch(const QStringList& values, StudioOptions& options) {
    return values.isEmpty()
               ? QString()
               : readCount(QStringLiteral("batch"), last(values), options.defaults.batch.total);
}

/// After --batch in the table: auto needs it, as the CLI says.
QString applyPerCluster(const QStringList& values, StudioOptions& options) {
    schedule::BatchChoice& batch = options.defaults.batch;
    if (values.isEmpty())
        return {};
    if (last(values) == QStringLiteral("auto")) {
        if (!batch.total)
            return QStringLiteral("--per-cluster auto needs --batch N");
        batch.autoPerCluster = true;
        return {};
    }
    QString error = readCount(QStringLiteral("per-cluster"), last(values), batch.perCluster);
    return error.isEmpty() ? error : error + QStringLiteral(" or auto");
}

QString applySeq(const QStringList& values, StudioOptions& options) {
    std::optional<int64_t> length;
    if (!values.isEmpty())
        if (QString error = readCount(QStringLiteral("seq"), last(values), length);
            !error.isEmpty())
            return error;
    options.defaults.seq = length.value_or(0);
    return {};
}

/// --input, --dim and --value: each binding added to the session's.
template <Status (*add)(onnxio::ImportOptions&, const std::string&)>
QString applyBinding(const QStringList& values, StudioOptions& options) {
    io::Session& session = options.defaults;
    onnxio::ImportOptions import;
    import.inputShapes = session.inputShapes;
    import.dims = session.dims;
    import.values = session.values;
    for (const QString& value : values)
        if (Status added = add(import, value.toStdString()); !added.ok())
            return QString::fromStdString(added.error().message());
    session.inputShapes = import.inputShapes;
    session.dims = import.dims;
    session.values = import.values;
    return {};
}

QString applySelect(const QStringList& values, StudioOptions& options) {
    options.select = last(values);
    return {};
}

QString applyScreenshot(const QStringList& values, StudioOptions& options) {
    options.screenshot = last(values);
    return {};
}

QString applyView(const QStringList& values, StudioOptions& options) {
    options.view = last(values);
    if (!parseStudioView(options.view))
        return QStringLiteral("--view: expected one of %1 (got '%2')")
            .arg(studioViewNames().join(QStringLiteral(", ")), options.view);
    return {};
}

QString applySize(const QStringList& values, StudioOptions& options) {
    const QStringList parts = last(values).split(QLatin1Char('x'));
    bool okW = false;
    bool okH = false;
    if (parts.size() == 2) {
        options.size = QSize(parts[0].toInt(&okW), parts[1].toInt(&okH));
        if (okW && okH && options.size.width() >= 200 && options.size.height() >= 200)
            return {};
    }
    return QStringLiteral("--size: expected WIDTHxHEIGHT, at least 200x200 (got '%1')")
        .arg(last(values));
}

QString applyShow(const QStringList& values, StudioOptions& options) {
    options.show = last(values).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& name : std::as_const(options.show))
        if (!parseStudioView(name))
            return QStringLiteral("--show: unknown view '%1'").arg(name);
    return {};
}

QString applyDiffWith(const QStringList& values, StudioOptions& options) {
    options.diffWith = last(values);
    if (!options.diffWith.isEmpty() && !sim::findStrategy(options.diffWith.toStdString()))
        return QStringLiteral("--diff-with: ") + unknownStrategy(options.diffWith);
    return {};
}

QString applyStep(const QStringList& values, StudioOptions& options) {
    if (values.isEmpty())
        return {};
    bool ok = false;
    options.step = last(values).toInt(&ok);
    if (!ok || options.step < 1)
        return QStringLiteral("--step: expected a step number from 1 (got '%1')").arg(last(values));
    return {};
}

QString applyKernelPane(const QStringList& values, StudioOptions& options) {
    options.kernelPane = last(values);
    const QStringList panes{QStringLiteral("loops"), QStringLiteral("ir"),
                            QStringLiteral("assembly")};
    if (!panes.contains(options.kernelPane))
        return QStringLiteral("--kernel-pane: expected loops, ir or assembly (got '%1')")
            .arg(options.kernelPane);
    return {};
}

QString applyProfile(const QStringList& values, StudioOptions& options) {
    options.profile = last(values);
    return {};
}

QString applySweep(const QStringList& values, StudioOptions& options) {
    options.sweep = last(values);
    return {};
}

QString applySweepAxes(const QStringList& values, StudioOptions& options) {
    if (values.isEmpty())
        return {};
    options.sweepAxes = last(values).split(QLatin1Char(','));
    const bool empty = options.sweepAxes.contains(QString());
    if (options.sweepAxes.size() < 2 || options.sweepAxes.size() > 3 || empty)
        return QStringLiteral("--sweep-axes: expected X,Y or X,Y,COLOUR column names (got '%1')")
            .arg(last(values));
    return {};
}

QString applyColorBy(const QStringList& values, StudioOptions& options) {
    options.colorBy = last(values);
    if (!views::parseGroupOverlay(options.colorBy))
        return QStringLiteral("--color-by: expected one of %1 (got '%2')")
            .arg(views::groupOverlayNames().join(QStringLiteral(", ")), options.colorBy);
    return {};
}

QString applyFind(const QStringList& values, StudioOptions& options) {
    options.find = last(values);
    return {};
}

QString applyDrawBy(const QStringList& values, StudioOptions& options) {
    options.drawByName = last(values) == QStringLiteral("names");
    if (!options.drawByName && last(values) != QStringLiteral("groups"))
        return QStringLiteral("--draw-by: expected groups or names (got '%1')").arg(last(values));
    return {};
}

QString applyTour(const QStringList& values, StudioOptions& options) {
    options.tour = last(values);
    return {};
}

QString applyTourStep(const QStringList& values, StudioOptions& options) {
    if (values.isEmpty())
        return {};
    bool ok = false;
    options.tourStep = last(values).toInt(&ok);
    if (!ok || options.tourStep < 1)
        return QStringLiteral("--tour-step: expected a step number from 1 (got '%1')")
            .arg(last(values));
    return {};
}

QString applySideBySide(const QStringList& values, StudioOptions& options) {
    options.sideBySide = !values.isEmpty();
    return {};
}

StudioOptionSpec option(const char* name, const char* valueName, const char* help,
                        QString (*apply)(const QStringList&, StudioOptions&),
                        const char* defaultValue = "") {
    return {QString::fromUtf8(name),
            QString::fromUtf8(valueName),
            QString::fromUtf8(help),
            QString::fromUtf8(defaultValue),
            false,
            false,
            apply};
}

StudioOptionSpec withHelp(StudioOptionSpec spec, QString help) {
    spec.help = std::move(help);
    return spec;
}

/// "a, b or c".
QString orList(QStringList names) {
    const QString tail = names.takeLast();
    return names.isEmpty() ? tail
                           : names.join(QStringLiteral(", ")) + QStringLiteral(" or ") + tail;
}

/// --view's help, from the views' own table so that it lists every view.
QString viewHelp() {
    QStringList names;
    for (StudioView view : studioViews()) {
        QString name = studioViewName(view);
        if (view == StudioView::Window)
            name += QStringLiteral(" (default)");
        else if (view == StudioView::Time)
            name += QStringLiteral(" (the three time views)");
        else if (view == StudioView::SideBySide)
            name += QStringLiteral(" (the diff's two graphs)");
        names << name;
    }
    return QStringLiteral("What --screenshot renders: ") + orList(names) + QLatin1Char('.');
}

/// --color-by's help, from the overlays' own names.
QString colorByHelp() {
    QStringList names = views::groupOverlayNames();
    for (QString& name : names)
        if (name == QStringLiteral("groups"))
            name += QStringLiteral(" (their own colours, default)");
    return QStringLiteral("Colour the graph's groups by: ") + orList(names) + QLatin1Char('.');
}

StudioOptionSpec fixing(StudioOptionSpec spec, bool setup) {
    (setup ? spec.fixesSetup : spec.fixesBatch) = true;
    return spec;
}

std::array<StudioOptionSpec, 27> makeTable() {
    return {{
        fixing(option("arch", "A", "Architecture preset or JSON file (default stcp920).", applyArch,
                      "stcp920"),
               true),
        option("session", "FILE", "A session to open.", applySession),
        option("strategy", "S",
               "tvm, tvm-llb, astitch, dla, ago, ios, gt-gb, gt-lb, gt-instances, gt-paper or "
               "graphturbo (default).",
               applyStrategy, "graphturbo"),
        fixing(option("level", "auto|lb|gb",
                      "Buffer level Algorithm 1 fills: auto (default: both simulated, the "
                      "faster kept), lb or gb.",
                      applyLevel, "auto"),
               true),
        fixing(option("batch", "N",
                      "Samples over all clusters (default: the clusters x the samples per "
                      "cluster); a zoo model of Table 2 on four clusters opens at its row's "
                      "batch.",
                      applyBatch),
               false),
        fixing(option("per-cluster", "K|auto",
                      "Samples per cluster (default: the model's batch); auto: the largest "
                      "that fits a cluster (needs --batch).",
                      applyPerCluster),
               false),
        fixing(option("seq", "N", "Sequence length of zoo:bert-* and zoo:conformer.", applySeq),
               false),
        option("input", "NAME:SHAPE", "Bind a whole input shape, e.g. x:1x3x640x640.",
               applyBinding<onnxio::addInputBinding>),
        option("dim", "NAME=N", "Bind a symbolic dimension.", applyBinding<onnxio::addDimBinding>),
        option("value", "NAME=V",
               "Bind a scalar or vector input's value, e.g. sr=16000 (folds an If on it).",
               applyBinding<onnxio::addValueBinding>),
        option("select", "NAME", "Select an op (by name) or instance (by label).", applySelect),
        option("screenshot", "FILE",
               "Render to a PNG once the result is shown, then exit (offscreen without a "
               "display); with nothing to open, the start page.",
               applyScreenshot),
        withHelp(option("view", "NAME", "", applyView, "window"), viewHelp()),
        option("size", "WxH",
               "Size of the window, or with --view of the view, for --screenshot (default "
               "1400x900).",
               applySize, "1400x900"),
        option("show", "NAMES",
               "Raise these docks (comma-separated view names) before a window screenshot.",
               applyShow),
        option("diff-with", "STRATEGY", "Diff the schedule with this strategy's.", applyDiffWith),
        option("step", "N", "Go to this step (from 1) of the algorithm step-through.", applyStep),
        option("kernel-pane", "NAME",
               "The Kernel view's text: loops (the loop nest, default), ir or assembly "
               "(compiled for riscv64 at O2); with --view kernel, render it.",
               applyKernelPane, "loops"),
        option("profile", "FILE",
               "Show this profile (stagecraft run --profile) beside the simulated timeline.",
               applyProfile),
        option("sweep", "DIR",
               "Show a sweep's results (the --out DIR of stagecraft sweep); with --screenshot "
               "and no model, render its window.",
               applySweep),
        option("sweep-axes", "X,Y",
               "The sweep window's x and y columns (numeric fields of the records, e.g. "
               "energy_mj,latency_ms); X,Y,COLOUR also picks the column its points are "
               "coloured by (default: the first varied field or gb_bytes, latency_ms, "
               "strategy).",
               applySweepAxes),
        withHelp(option("color-by", "NAME", "", applyColorBy, "groups"), colorByHelp()),
        option("find", "TEXT",
               "Mark every op of the graph whose name contains TEXT (any case), as typing it "
               "in Find op does.",
               applyFind),
        option("draw-by", "NAME",
               "Draw the graph's ops by schedule group (groups, default) or by the module "
               "scopes of their names (names), folded to a readable size.",
               applyDrawBy, "groups"),
        option("tour", "NAME|FILE",
               "Start a guided tour: a built-in one by name (Help → Tours lists them) or a tour "
               "file (docs/studio.md, Tours).",
               applyTour),
        option("tour-step", "N",
               "Open the tour at this step (from 1); with --screenshot, "
               "render it.",
               applyTourStep),
        option("side-by-side", "",
               "Show the diff's two schedules side by side, their graphs with synchronized "
               "selection (with --diff-with: that strategy's).",
               applySideBySide),
    }};
}

} // namespace

std::span<const StudioOptionSpec> studioOptionTable() {
    static const std::array<StudioOptionSpec, 27> table = makeTable();
    return table;
}

} // namespace stagecraft::studio
