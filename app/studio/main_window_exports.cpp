// Exports of the current result: the schedule document, DOT of the grouped
// graph, SVG/PNG of the graph and instance views, the simulated timeline as
// a Perfetto (Chrome trace) file and the report as CSV, the docks (time
// views, costs, compare, diff, steps) as PNG images of what they show, and
// the HTML report of `stagecraft report` (every strategy compared: it waits
// for the Compare dock's runs, with their progress in the status bar). Text
// files are written atomically; the same result gives the same bytes.

#include "cli/report_graph.h"
#include "cli/report_html.h"
#include "compare/comparison_runner.h"
#include "graph/graph_view.h"
#include "instances/instance_view.h"
#include "io/chrome_trace.h"
#include "io/compare_json.h"
#include "io/dot_export.h"
#include "io/schedule_json.h"
#include "studio/main_window.h"
#include "studio/session_document.h"
#include "studio/studio_view.h"
#include "support/file.h"

#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>

#include <optional>
#include <string>

namespace stagecraft::studio {

namespace {

/// What can be exported. A switch over it is checked by the compiler: a
/// kind added here must be written somewhere.
enum class Export {
    Schedule,
    Dot,
    GraphSvg,
    GraphPng,
    InstancesSvg,
    InstancesPng,
    Trace,
    Csv,
    Breakdown,
    TimePng,
    CostsPng,
    ComparePng,
    DiffPng,
    StepsPng,
    Report,
};

struct ExportKind {
    Export what;
    const char* kind;
    const char* label;
    const char* filter;
    const char* suffix;
};

constexpr ExportKind kExports[] = {
    {Export::Schedule, "schedule", "Schedule (JSON)…", "Schedule documents (*.json)", ".json"},
    {Export::Dot, "dot", "Grouped graph (DOT)…", "Graphviz DOT (*.dot)", ".dot"},
    {Export::GraphSvg, "graph-svg", "Graph view (SVG)…", "SVG (*.svg)", ".svg"},
    {Export::GraphPng, "graph-png", "Graph view (PNG)…", "PNG (*.png)", ".png"},
    {Export::InstancesSvg, "instances-svg", "Instance view (SVG)…", "SVG (*.svg)", ".svg"},
    {Export::InstancesPng, "instances-png", "Instance view (PNG)…", "PNG (*.png)", ".png"},
    {Export::Trace, "trace", "Simulated timeline (Perfetto trace)…", "Chrome trace JSON (*.json)",
     ".json"},
    {Export::Csv, "csv", "Report (CSV)…", "CSV (*.csv)", ".csv"},
    {Export::Breakdown, "breakdown", "Time breakdown per group and kernel (CSV)…", "CSV (*.csv)",
     ".csv"},
    {Export::TimePng, "time-png", "Time views (PNG)…", "PNG (*.png)", ".png"},
    {Export::CostsPng, "costs-png", "Costs table (PNG)…", "PNG (*.png)", ".png"},
    {Export::ComparePng, "compare-png", "Comparison (PNG)…", "PNG (*.png)", ".png"},
    {Export::DiffPng, "diff-png", "Diff (PNG)…", "PNG (*.png)", ".png"},
    {Export::StepsPng, "steps-png", "Step-through (PNG)…", "PNG (*.png)", ".png"},
    {Export::Report, "report", "Report (HTML)…", "HTML (*.html)", ".html"},
};

/// The dock an image export renders, or nullopt for the other kinds.
std::optional<StudioView> dockOf(Export what) {
    switch (what) {
    case Export::TimePng:
        return StudioView::Time;
    case Export::CostsPng:
        return StudioView::Costs;
    case Export::ComparePng:
        return StudioView::Compare;
    case Export::DiffPng:
        return StudioView::Diff;
    case Export::StepsPng:
        return StudioView::Steps;
    default:
        return std::nullopt;
    }
}

const ExportKind* findExport(const QString& kind) {
    for (const ExportKind& e : kExports)
        if (kind == QLatin1String(e.kind))
            return &e;
    return nullptr;
}

/// The text of a text export (every kind but the view images).
std::string exportText(Export what, const views::PipelineResult& r, const io::Session& session) {
    const ir::Graph& graph = *r.graph;
    switch (what) {
    case Export::Schedule: {
        io::ScheduleDocInfo info;
        info.modelPath = session.modelPath;
        info.archName = r.arch.name;
        info.orderChoice = session.order;
        info.overrides = r.overrides;
        return io::writeScheduleJson(graph, r.eval.schedule, info);
    }
    case Export::Dot: {
        io::DotOptions options;
        options.title = graph.info.name;
        options.collapsed = graph.opCount() > 2000;
        return io::groupedGraphDot(graph, r.eval.schedule.partition, options);
    }
    case Export::Trace:
        return io::writeChromeTrace(graph, r.arch, r.eval.program, r.eval.tasks, r.eval.sim);
    case Export::Breakdown:
        return io::writeBreakdownCsv(r.eval.report);
    case Export::Csv:
        return io::writeCompareCsv({r.eval.report});
    case Export::GraphSvg:
    case Export::GraphPng:
    case Export::InstancesSvg:
    case Export::InstancesPng:
    case Export::TimePng:
    case Export::CostsPng:
    case Export::ComparePng:
    case Export::DiffPng:
    case Export::StepsPng:
    case Export::Report:
        break;
    }
    return {};
}

/// Runs every strategy on \p r's model as the Compare dock does (the runner
/// keeps what it has for the same request) and waits until each is done,
/// showing the progress on \p window's status bar.
void compareAll(MainWindow& window, views::ComparisonRunner& runner, const views::PipelineResult& r,
                const io::Session& session) {
    views::PipelineRequest request;
    request.graph = r.graph;
    request.modelPath = session.modelPath;
    request.arch = r.arch;
    request.strategy = r.strategy;
    request.level = session.level;
    request.order = session.order;
    request.overrides = session.overrides;
    request.warnings = r.warnings;
    QEventLoop loop;
    QObject::connect(&runner, &views::ComparisonRunner::finished, &loop, &QEventLoop::quit);
    QObject::connect(&runner, &views::ComparisonRunner::progress, &loop,
                     [&window](int done, int total, const QString& strategy) {
                         window.statusBar()->showMessage(
                             MainWindow::tr("Report: %1 of %2 strategies compared (%3)")
                                 .arg(done)
                                 .arg(total)
                                 .arg(strategy));
                     });
    runner.setRequest(request);
    if (runner.isBusy())
        loop.exec();
}

/// The HTML report of the result \p shown and every strategy compared.
QString writeReport(MainWindow& window, views::ResultPtr shown, io::Session session,
                    const QString& path) {
    // Held here: the nested event loop below may show a newer result.
    const views::PipelineResult& r = *shown;
    views::ComparisonRunner& runner = *window.comparisonRunner();
    compareAll(window, runner, r, session);
    cli::ReportInput input;
    input.model = session.modelPath;
    input.arch = &r.arch;
    input.graph = r.graph.get();
    input.chosen = &r.eval;
    for (const sim::Strategy& strategy : sim::strategies())
        if (views::ResultPtr compared = runner.result(QString::fromStdString(strategy.name)))
            input.reports.push_back(compared->eval.report);
    if (input.reports.empty())
        return MainWindow::tr("%1: no strategy could be compared").arg(path);
    sim::fillSpeedups(input.reports);
    input.batchFrom = "the session's batch";
    input.session = session;
    Expected<std::string> svg =
        cli::groupedGraphSvg(*r.graph, r.eval.schedule.partition, session.modelPath);
    input.graphSvg = svg.ok() ? *svg : std::string();
    input.graphNote = svg.ok() ? "Groups of " + r.strategy + " as clusters."
                               : "The graph is not drawn: " + svg.error().message() + ".";
    Status written = writeFileAtomic(path.toStdString(), cli::writeHtmlReport(input));
    return written.ok() ? QString() : QString::fromStdString(written.error().message());
}

} // namespace

void MainWindow::createExportMenu(QMenu* file) {
    QMenu* menu = file->addMenu(tr("&Export"));
    for (const ExportKind& e : kExports) {
        QString kind = QString::fromLatin1(e.kind);
        menu->addAction(tr(e.label), this, [this, kind] { exportDialog(kind); });
    }
}

QString MainWindow::exportTo(const QString& kind, const QString& path) {
    const ExportKind* e = findExport(kind);
    if (!e)
        return tr("unknown export kind '%1'").arg(kind);
    if (!result_)
        return tr("nothing to export: no model is open");
    // Only regular files are replaced (docs/limits.md), images included.
    if (Status target = checkOutputPath(path.toStdString()); !target.ok())
        return QString::fromStdString(target.error().message());
    QString error;
    bool ok = true;
    if (std::optional<StudioView> dock = dockOf(e->what)) {
        // Brought to front first: a dock behind a tab has not taken the result.
        showView(*dock);
        ok = view(*dock)->grab().save(path, "PNG");
        return ok ? QString() : tr("%1: cannot write").arg(path);
    }
    switch (e->what) {
    case Export::Report:
        return writeReport(*this, result_, document_->session(), path);
    case Export::GraphSvg:
        ok = graphView_->exportSvg(path, &error);
        break;
    case Export::GraphPng:
        ok = graphView_->exportPng(path, &error);
        break;
    case Export::InstancesSvg:
        ok = instanceView_->exportSvg(path, &error);
        break;
    case Export::InstancesPng:
        ok = instanceView_->exportPng(path, &error);
        break;
    default: {
        Status written = writeFileAtomic(path.toStdString(),
                                         exportText(e->what, *result_, document_->session()));
        if (!written.ok())
            return QString::fromStdString(written.error().message());
    }
    }
    if (!ok)
        return error.isEmpty() ? tr("%1: cannot write").arg(path) : error;
    return {};
}

void MainWindow::exportDialog(const QString& kind) {
    const ExportKind* e = findExport(kind);
    if (!result_ || !e)
        return;
    QString suggested = QFileInfo(QString::fromStdString(result_->modelPath)).completeBaseName() +
                        QLatin1Char('-') + kind + QLatin1String(e->suffix);
    QString path = QFileDialog::getSaveFileName(this, tr("Export"), suggested, tr(e->filter));
    if (path.isEmpty())
        return;
    QString error = exportTo(kind, path);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
    else
        reportError(error);
}

} // namespace stagecraft::studio
