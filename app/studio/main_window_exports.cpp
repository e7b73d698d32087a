// Exports of the current result: the schedule document, DOT of the grouped
// graph, SVG/PNG of the graph and instance views, the simulated timeline as
// a Perfetto (Chrome trace) file and the report as CSV. Text files are
// written atomically; the same result gives the same bytes.

#include "graph/graph_view.h"
#include "instances/instance_view.h"
#include "io/chrome_trace.h"
#include "io/compare_json.h"
#include "io/dot_export.h"
#include "io/schedule_json.h"
#include "studio/main_window.h"
#include "studio/session_document.h"
#include "support/file.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>

#include <string>

namespace stagecraft::studio {

namespace {

struct ExportKind {
    const char* kind;
    const char* label;
    const char* filter;
    const char* suffix;
};

constexpr ExportKind kExports[] = {
    {"schedule", "Schedule (JSON)…", "Schedule documents (*.json)", ".json"},
    {"dot", "Grouped graph (DOT)…", "Graphviz DOT (*.dot)", ".dot"},
    {"graph-svg", "Graph view (SVG)…", "SVG (*.svg)", ".svg"},
    {"graph-png", "Graph view (PNG)…", "PNG (*.png)", ".png"},
    {"instances-svg", "Instance view (SVG)…", "SVG (*.svg)", ".svg"},
    {"instances-png", "Instance view (PNG)…", "PNG (*.png)", ".png"},
    {"trace", "Simulated timeline (Perfetto trace)…", "Chrome trace JSON (*.json)", ".json"},
    {"csv", "Report (CSV)…", "CSV (*.csv)", ".csv"},
    {"breakdown", "Time breakdown per group and kernel (CSV)…", "CSV (*.csv)", ".csv"},
};

std::string exportText(const QString& kind, const views::PipelineResult& r,
                       const io::Session& session) {
    const ir::Graph& graph = *r.graph;
    if (kind == QLatin1String("schedule")) {
        io::ScheduleDocInfo info;
        info.modelPath = session.modelPath;
        info.archName = r.arch.name;
        info.orderChoice = session.order;
        info.overrides = r.overrides;
        return io::writeScheduleJson(graph, r.eval.schedule, info);
    }
    if (kind == QLatin1String("dot")) {
        io::DotOptions options;
        options.title = graph.info.name;
        options.collapsed = graph.opCount() > 2000;
        return io::groupedGraphDot(graph, r.eval.schedule.partition, options);
    }
    if (kind == QLatin1String("trace"))
        return io::writeChromeTrace(graph, r.arch, r.eval.program, r.eval.tasks, r.eval.sim);
    if (kind == QLatin1String("breakdown"))
        return io::writeBreakdownCsv(r.eval.report);
    return io::writeCompareCsv({r.eval.report});
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
    if (!result_)
        return tr("nothing to export: no model is open");
    // Only regular files are replaced (docs/limits.md), images included.
    if (Status target = checkOutputPath(path.toStdString()); !target.ok())
        return QString::fromStdString(target.error().message());
    QString error;
    bool ok = true;
    if (kind == QLatin1String("graph-svg"))
        ok = graphView_->exportSvg(path, &error);
    else if (kind == QLatin1String("graph-png"))
        ok = graphView_->exportPng(path, &error);
    else if (kind == QLatin1String("instances-svg"))
        ok = instanceView_->exportSvg(path, &error);
    else if (kind == QLatin1String("instances-png"))
        ok = instanceView_->exportPng(path, &error);
    else {
        Status written =
            writeFileAtomic(path.toStdString(), exportText(kind, *result_, document_->session()));
        if (!written.ok())
            return QString::fromStdString(written.error().message());
    }
    if (!ok)
        return error.isEmpty() ? tr("%1: cannot write").arg(path) : error;
    return {};
}

void MainWindow::exportDialog(const QString& kind) {
    if (!result_)
        return;
    for (const ExportKind& e : kExports) {
        if (kind != QLatin1String(e.kind))
            continue;
        QString suggested =
            QFileInfo(QString::fromStdString(result_->modelPath)).completeBaseName() +
            QLatin1Char('-') + kind + QLatin1String(e.suffix);
        QString path = QFileDialog::getSaveFileName(this, tr("Export"), suggested, tr(e.filter));
        if (path.isEmpty())
            return;
        QString error = exportTo(kind, path);
        if (error.isEmpty())
            statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
        else
            reportError(error);
    }
}

} // namespace stagecraft::studio
