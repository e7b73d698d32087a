// The command line of stagecraft-studio (studio_options.h), built from the
// table of options (studio_option_table.h): the parser and --help come from
// it, each given option (or its default) applies in the table's order, then
// the checks that involve several options.

#include "studio/studio_options.h"

#include "studio/studio_option_table.h"
#include "studio/studio_view.h"
#include "support/file.h"

#include <QCommandLineParser>

#include <vector>

namespace stagecraft::studio {

namespace {

std::vector<QCommandLineOption> commandLineOptions() {
    std::vector<QCommandLineOption> out;
    for (const StudioOptionSpec& spec : studioOptionTable())
        out.emplace_back(QStringList{spec.name}, spec.help, spec.valueName, spec.defaultValue);
    return out;
}

/// What the table's options say about \p parser's command line.
QString applyTable(const QCommandLineParser& parser, StudioOptions& options) {
    for (const StudioOptionSpec& spec : studioOptionTable()) {
        const bool given = parser.isSet(spec.name);
        QStringList values;
        if (spec.valueName.isEmpty())
            values = given ? QStringList{QStringLiteral("on")} : QStringList{};
        else
            values = given ? parser.values(spec.name) : QStringList{};
        if (!given && !spec.defaultValue.isEmpty())
            values = {spec.defaultValue};
        if (QString error = spec.apply(values, options); !error.isEmpty())
            return error;
        options.setupFixed = options.setupFixed || (given && spec.fixesSetup);
        options.batchFixed = options.batchFixed || (given && spec.fixesBatch);
    }
    return {};
}

/// The checks that need several options.
QString checkTogether(const QCommandLineParser& parser, StudioOptions& options) {
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1 ||
        (positional.size() == 1 && parser.isSet(QStringLiteral("session"))))
        return QStringLiteral("give one model or session to open");
    if (positional.size() == 1)
        options.open = positional.front();
    if (!options.tour.isEmpty() && !options.open.isEmpty())
        return QStringLiteral("--tour opens its own models: give no model or session");
    if (parser.isSet(QStringLiteral("tour-step")) && options.tour.isEmpty())
        return QStringLiteral("--tour-step needs --tour");
    if (!options.screenshot.isEmpty() && options.open.isEmpty() && options.sweep.isEmpty() &&
        options.tour.isEmpty() && parseStudioView(options.view) != StudioView::Window)
        return QStringLiteral("--view %1 needs a model or a session to open").arg(options.view);
    if (!options.sweepAxes.isEmpty() && options.sweep.isEmpty())
        return QStringLiteral("--sweep-axes needs --sweep DIR");
    if (!options.screenshot.isEmpty())
        if (Status target = checkOutputPath(options.screenshot.toStdString()); !target.ok())
            return QString::fromStdString(target.error().message());
    return {};
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
    for (const QCommandLineOption& option : commandLineOptions())
        parser.addOption(option);
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
    QString error = applyTable(parser, options);
    if (error.isEmpty())
        error = checkTogether(parser, options);
    if (!error.isEmpty()) {
        parsed.error = error;
        return parsed;
    }
    parsed.options = options;
    return parsed;
}

} // namespace stagecraft::studio
