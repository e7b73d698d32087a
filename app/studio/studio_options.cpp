#include "studio/studio_options.h"

#include "arch/presets.h"
#include "costs/group_overlay.h"
#include "onnx/importer.h"
#include "schedule/schedule.h"
#include "sim/compare.h"
#include "studio/studio_view.h"
#include "support/file.h"

#include <QCommandLineParser>

namespace stagecraft::studio {

namespace {

QString applyArch(const QString& name, io::Session& session) {
    Expected<arch::Arch> arch = arch::resolveArch(name.toStdString());
    if (!arch.ok())
        return QString::fromStdString(arch.error().message());
    session.arch = std::move(arch).value();
    return {};
}

QString applyBindings(const QStringList& inputs, const QStringList& dims, const QStringList& values,
                      io::Session& session) {
    onnxio::ImportOptions import;
    for (const QString& input : inputs) {
        Status added = onnxio::addInputBinding(import, input.toStdString());
        if (!added.ok())
            return QString::fromStdString(added.error().message());
    }
    for (const QString& dim : dims) {
        Status added = onnxio::addDimBinding(import, dim.toStdString());
        if (!added.ok())
            return QString::fromStdString(added.error().message());
    }
    for (const QString& value : values) {
        Status added = onnxio::addValueBinding(import, value.toStdString());
        if (!added.ok())
            return QString::fromStdString(added.error().message());
    }
    session.dims = import.dims;
    session.inputShapes = import.inputShapes;
    session.values = import.values;
    return {};
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

/// --batch, --per-cluster and --seq into \p session, with the CLI's rules:
/// --per-cluster auto needs --batch.
QString applyBatch(const std::optional<QString>& total, const std::optional<QString>& perCluster,
                   const std::optional<QString>& seq, io::Session& session) {
    schedule::BatchChoice& batch = session.batch;
    if (total)
        if (QString error = readCount(QStringLiteral("batch"), *total, batch.total);
            !error.isEmpty())
            return error;
    if (perCluster && *perCluster == QStringLiteral("auto")) {
        if (!batch.total)
            return QStringLiteral("--per-cluster auto needs --batch N");
        batch.autoPerCluster = true;
    } else if (perCluster) {
        if (QString error = readCount(QStringLiteral("per-cluster"), *perCluster, batch.perCluster);
            !error.isEmpty())
            return error + QStringLiteral(" or auto");
    }
    std::optional<int64_t> length;
    if (seq)
        if (QString error = readCount(QStringLiteral("seq"), *seq, length); !error.isEmpty())
            return error;
    session.seq = length.value_or(0);
    return {};
}

/// "unknown strategy 'x' (expected …)" for a strategy flag.
QString unknownStrategy(const QString& name) {
    return QString::fromStdString(sim::unknownStrategyMessage(name.toStdString()));
}

QString parseSize(const QString& text, QSize& size) {
    const QStringList parts = text.split(QLatin1Char('x'));
    bool okW = false;
    bool okH = false;
    if (parts.size() == 2) {
        size = QSize(parts[0].toInt(&okW), parts[1].toInt(&okH));
        if (okW && okH && size.width() >= 200 && size.height() >= 200)
            return {};
    }
    return QStringLiteral("--size: expected WIDTHxHEIGHT, at least 200x200 (got '%1')").arg(text);
}

} // namespace

ParsedOptions parseStudioOptions(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Stagecraft Studio: see and edit how a model is scheduled onto a DSA (GraphTurbo)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("model"),
                                 QStringLiteral("An ONNX model, zoo:NAME (a model of the zoo, "
                                                "written once to the cache) or a .stagecraft "
                                                "session to open."),
                                 QStringLiteral("[MODEL|SESSION]"));
    QCommandLineOption arch(QStringLiteral("arch"),
                            QStringLiteral("Architecture preset or JSON file (default stcp920)."),
                            QStringLiteral("A"), QStringLiteral("stcp920"));
    QCommandLineOption session(QStringLiteral("session"), QStringLiteral("A session to open."),
                               QStringLiteral("FILE"));
    QCommandLineOption strategy(
        QStringLiteral("strategy"),
        QStringLiteral("tvm, tvm-llb, astitch, dla, ago, ios, gt-gb, gt-lb, gt-instances, "
                       "gt-paper or graphturbo (default)."),
        QStringLiteral("S"), QStringLiteral("graphturbo"));
    QCommandLineOption level(QStringLiteral("level"),
                             QStringLiteral("Buffer level Algorithm 1 fills: auto (default: both "
                                            "simulated, the faster kept), lb or gb."),
                             QStringLiteral("auto|lb|gb"), QStringLiteral("auto"));
    QCommandLineOption batch(QStringLiteral("batch"),
                             QStringLiteral("Samples over all clusters (default: the clusters "
                                            "x the samples per cluster); a zoo model of Table 2 "
                                            "on four clusters opens at its row's batch."),
                             QStringLiteral("N"));
    QCommandLineOption perCluster(
        QStringLiteral("per-cluster"),
        QStringLiteral("Samples per cluster (default: the model's batch); auto: the largest "
                       "that fits a cluster (needs --batch)."),
        QStringLiteral("K|auto"));
    QCommandLineOption seq(QStringLiteral("seq"),
                           QStringLiteral("Sequence length of zoo:bert-* and zoo:conformer."),
                           QStringLiteral("N"));
    QCommandLineOption input(QStringLiteral("input"),
                             QStringLiteral("Bind a whole input shape, e.g. x:1x3x640x640."),
                             QStringLiteral("NAME:SHAPE"));
    QCommandLineOption dim(QStringLiteral("dim"), QStringLiteral("Bind a symbolic dimension."),
                           QStringLiteral("NAME=N"));
    QCommandLineOption value(QStringLiteral("value"),
                             QStringLiteral("Bind a scalar or vector input's value, e.g. "
                                            "sr=16000 (folds an If on it)."),
                             QStringLiteral("NAME=V"));
    QCommandLineOption select(QStringLiteral("select"),
                              QStringLiteral("Select an op (by name) or instance (by label)."),
                              QStringLiteral("NAME"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Render to a PNG once the result is shown, then "
                                                 "exit (offscreen without a display); with "
                                                 "nothing to open, the start page."),
                                  QStringLiteral("FILE"));
    QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral("What --screenshot renders: window (default), graph, "
                       "instances, inspector, timeline, occupancy, overlap, "
                       "time (the three time views), compare, diff, steps or costs."),
        QStringLiteral("NAME"), QStringLiteral("window"));
    QCommandLineOption size(QStringLiteral("size"),
                            QStringLiteral("Size of the window, or with --view of the view, "
                                           "for --screenshot (default 1400x900)."),
                            QStringLiteral("WxH"), QStringLiteral("1400x900"));
    QCommandLineOption show(QStringLiteral("show"),
                            QStringLiteral("Raise these docks (comma-separated view names) "
                                           "before a window screenshot."),
                            QStringLiteral("NAMES"));
    QCommandLineOption diffWith(QStringLiteral("diff-with"),
                                QStringLiteral("Diff the schedule with this strategy's."),
                                QStringLiteral("STRATEGY"));
    QCommandLineOption step(QStringLiteral("step"),
                            QStringLiteral("Go to this step (from 1) of the algorithm "
                                           "step-through."),
                            QStringLiteral("N"));
    QCommandLineOption profile(QStringLiteral("profile"),
                               QStringLiteral("Show this profile (stagecraft run --profile) "
                                              "beside the simulated timeline."),
                               QStringLiteral("FILE"));
    QCommandLineOption sweep(QStringLiteral("sweep"),
                             QStringLiteral("Show a sweep's results (the --out DIR of stagecraft "
                                            "sweep); with --screenshot and no model, render its "
                                            "window."),
                             QStringLiteral("DIR"));
    QCommandLineOption colorBy(
        QStringLiteral("color-by"),
        QStringLiteral("Colour the graph's groups by: groups (their own "
                       "colours, default), time, ddr, spills, split or unit."),
        QStringLiteral("NAME"), QStringLiteral("groups"));
    QCommandLineOption find(QStringLiteral("find"),
                            QStringLiteral("Mark every op of the graph whose name contains TEXT "
                                           "(any case), as typing it in Find op does."),
                            QStringLiteral("TEXT"));
    QCommandLineOption drawBy(QStringLiteral("draw-by"),
                              QStringLiteral("Draw the graph's ops by schedule group (groups, "
                                             "default) or by the module scopes of their names "
                                             "(names), folded to a readable size."),
                              QStringLiteral("NAME"), QStringLiteral("groups"));
    QCommandLineOption sideBySide(QStringLiteral("side-by-side"),
                                  QStringLiteral("Show the diff's two schedules side by side, "
                                                 "their graphs with synchronized selection "
                                                 "(with --diff-with: that strategy's)."));
    parser.addOptions({arch, session, strategy, level,      batch, perCluster, seq,       input,
                       dim,  value,   select,   screenshot, view,  size,       show,      diffWith,
                       step, profile, sweep,    colorBy,    find,  drawBy,     sideBySide});

    ParsedOptions parsed;
    if (!parser.parse(arguments)) {
        parsed.error = parser.errorText();
        return parsed;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("version"))) {
        parsed.exitNow = true;
        // Without an application object Qt cannot name the program.
        parsed.error = parser.isSet(QStringLiteral("help"))
                           ? parser.helpText().replace(QStringLiteral("<executable_name>"),
                                                       QStringLiteral("stagecraft-studio"))
                           : QString();
        return parsed;
    }
    StudioOptions options;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1 || (positional.size() == 1 && parser.isSet(session))) {
        parsed.error = QStringLiteral("give one model or session to open");
        return parsed;
    }
    options.open = parser.isSet(session) ? parser.value(session) : positional.value(0);
    QString error = applyArch(parser.value(arch), options.defaults);
    if (error.isEmpty())
        error = applyBindings(parser.values(input), parser.values(dim), parser.values(value),
                              options.defaults);
    if (error.isEmpty() && !sim::findStrategy(parser.value(strategy).toStdString()))
        error = QStringLiteral("--strategy: ") + unknownStrategy(parser.value(strategy));
    options.defaults.strategy = parser.value(strategy).toStdString();
    auto parsedLevel = schedule::parseLevelChoice(parser.value(level).toLower().toStdString());
    if (error.isEmpty() && !parsedLevel)
        error =
            QStringLiteral("--level: expected auto, lb or gb (got '%1')").arg(parser.value(level));
    options.defaults.level = parsedLevel.value_or(std::nullopt);
    options.setupFixed = parser.isSet(arch) || parser.isSet(level);
    auto given = [&](const QCommandLineOption& option) {
        return parser.isSet(option) ? std::optional<QString>(parser.value(option)) : std::nullopt;
    };
    if (error.isEmpty())
        error = applyBatch(given(batch), given(perCluster), given(seq), options.defaults);
    options.batchFixed = parser.isSet(batch) || parser.isSet(perCluster) || parser.isSet(seq);
    options.view = parser.value(view);
    if (error.isEmpty() && !parseStudioView(options.view))
        error = QStringLiteral("--view: expected one of %1 (got '%2')")
                    .arg(studioViewNames().join(QStringLiteral(", ")), options.view);
    if (error.isEmpty())
        error = parseSize(parser.value(size), options.size);
    options.select = parser.value(select);
    options.show = parser.value(show).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& name : std::as_const(options.show))
        if (error.isEmpty() && !parseStudioView(name))
            error = QStringLiteral("--show: unknown view '%1'").arg(name);
    options.find = parser.value(find);
    options.colorBy = parser.value(colorBy);
    if (error.isEmpty() && !views::parseGroupOverlay(options.colorBy))
        error = QStringLiteral("--color-by: expected one of %1 (got '%2')")
                    .arg(views::groupOverlayNames().join(QStringLiteral(", ")), options.colorBy);
    options.sideBySide = parser.isSet(sideBySide);
    const QString drawByName = parser.value(drawBy);
    options.drawByName = drawByName == QStringLiteral("names");
    if (error.isEmpty() && !options.drawByName && drawByName != QStringLiteral("groups"))
        error = QStringLiteral("--draw-by: expected groups or names (got '%1')").arg(drawByName);
    options.diffWith = parser.value(diffWith);
    options.profile = parser.value(profile);
    options.sweep = parser.value(sweep);
    if (error.isEmpty() && !options.diffWith.isEmpty() &&
        !sim::findStrategy(options.diffWith.toStdString()))
        error = QStringLiteral("--diff-with: ") + unknownStrategy(options.diffWith);
    if (parser.isSet(step)) {
        bool ok = false;
        options.step = parser.value(step).toInt(&ok);
        if (error.isEmpty() && (!ok || options.step < 1))
            error = QStringLiteral("--step: expected a step number from 1 (got '%1')")
                        .arg(parser.value(step));
    }
    options.screenshot = parser.value(screenshot);
    if (error.isEmpty() && !options.screenshot.isEmpty() && options.open.isEmpty() &&
        options.sweep.isEmpty() && parseStudioView(options.view) != StudioView::Window)
        error = QStringLiteral("--view %1 needs a model or a session to open").arg(options.view);
    if (Status target = checkOutputPath(options.screenshot.toStdString());
        error.isEmpty() && !options.screenshot.isEmpty() && !target.ok())
        error = QString::fromStdString(target.error().message());
    if (!error.isEmpty()) {
        parsed.error = error;
        return parsed;
    }
    parsed.options = options;
    return parsed;
}

} // namespace stagecraft::studio
