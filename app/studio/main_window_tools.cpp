// The analysis docks of the main window (Studio 2/2): the time views (timeline,
// occupancy, compute-unit overlap) stacked on one shared time axis, the
// strategy comparison, the schedule diff and the algorithm step-through. They
// follow the shown result; the comparison runs only while its dock is shown,
// and choosing a compared strategy shows its kept result at once as an
// undoable change of the session's strategy.

#include "common/highlight.h"
#include "common/run_pipeline.h"
#include "common/selection.h"
#include "common/time_axis.h"
#include "compare/comparison_runner.h"
#include "compare/comparison_view.h"
#include "compare/diff_view.h"
#include "graph/graph_view.h"
#include "instances/instance_view.h"
#include "stepper/stepper_view.h"
#include "studio/main_window.h"
#include "studio/session_document.h"
#include "timeline/timeline_view.h"
#include "usage/occupancy_view.h"
#include "usage/overlap_view.h"

#include <QDockWidget>
#include <QSplitter>
#include <QStatusBar>

namespace stagecraft::studio {

namespace {

QDockWidget* dockFor(QMainWindow* window, const QString& title, const QString& name,
                     QWidget* content) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(name);
    dock->setWidget(content);
    return dock;
}

} // namespace

void MainWindow::createAnalysisDocks() {
    timeAxis_ = new views::TimeAxisModel(this);
    highlights_ = new views::HighlightModel(this);
    graphView_->setHighlightModel(highlights_);
    instanceView_->setHighlightModel(highlights_);

    timeline_ = new views::TimelineView(this);
    occupancy_ = new views::OccupancyView(this);
    overlap_ = new views::OverlapView(this);
    timeline_->setTimeAxisModel(timeAxis_);
    occupancy_->setTimeAxisModel(timeAxis_);
    overlap_->setTimeAxisModel(timeAxis_);
    timeline_->setSelectionModel(selection_);
    occupancy_->setSelectionModel(selection_);
    overlap_->setSelectionModel(selection_);
    timeViews_ = new QSplitter(Qt::Vertical, this);
    timeViews_->setObjectName(QStringLiteral("timeViews"));
    timeViews_->addWidget(timeline_);
    timeViews_->addWidget(occupancy_);
    timeViews_->addWidget(overlap_);
    timeViews_->setStretchFactor(0, 3);
    timeViews_->setStretchFactor(1, 3);
    timeViews_->setStretchFactor(2, 2);
    auto* instances = findChild<QDockWidget*>(QStringLiteral("instancesDock"));
    auto* time = dockFor(this, tr("Timeline"), QStringLiteral("timeDock"), timeViews_);
    tabifyDockWidget(instances, time);

    comparison_ = new views::ComparisonView(this);
    comparisonRunner_ = comparison_->runner();
    if (!comparisonRunner_) {
        comparisonRunner_ = new views::ComparisonRunner(this);
        comparison_->setRunner(comparisonRunner_);
    }
    diff_ = new views::DiffView(this);
    diff_->setRunner(comparisonRunner_);
    diff_->setHighlightModel(highlights_);
    diff_->setSelectionModel(selection_);
    stepper_ = new views::StepperView(this);
    stepper_->setHighlightModel(highlights_);
    auto* inspector = findChild<QDockWidget*>(QStringLiteral("inspectorDock"));
    auto* compare = dockFor(this, tr("Compare"), QStringLiteral("compareDock"), comparison_);
    auto* diff = dockFor(this, tr("Diff"), QStringLiteral("diffDock"), diff_);
    auto* steps = dockFor(this, tr("Steps"), QStringLiteral("stepsDock"), stepper_);
    // Which tabs are in front: a tab behind another still counts as a
    // visible widget, so the docks' own signal is what tells.
    for (QDockWidget* dock : {time, compare, diff, steps})
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
            if (visible)
                shownDocks_.insert(dock->objectName());
            else
                shownDocks_.remove(dock->objectName());
            QMetaObject::invokeMethod(this, &MainWindow::refreshShownTools, Qt::QueuedConnection);
        });
    tabifyDockWidget(inspector, compare);
    tabifyDockWidget(compare, diff);
    tabifyDockWidget(diff, steps);
    inspector->raise();
    instances->raise();

    connect(diff, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible && !shownDocks_.contains(QStringLiteral("stepsDock")))
            highlights_->clear();
    });
    connect(comparison_, &views::ComparisonView::strategyChosen, this,
            &MainWindow::adoptComparedResult);
    connect(comparisonRunner_, &views::ComparisonRunner::resultReady, this,
            [this](const QString& strategy, views::ResultPtr other) {
                if (strategy != diffWith_ || !result_)
                    return;
                diffWith_.clear();
                diff_->setPair(result_, QString::fromStdString(result_->strategy), other, strategy);
            });
}

void MainWindow::showResultInTools() {
    const QString strategy = QString::fromStdString(result_->strategy);
    comparison_->setCurrentStrategy(strategy);
    diff_->setShownResult(result_, strategy);
    refreshShownTools();
}

void MainWindow::refreshShownTools() {
    // A hidden tool would rebuild its data for nothing on every edit: it
    // takes the result when its dock is shown.
    if (!result_)
        return;
    if (shownDocks_.contains(QStringLiteral("timeDock")) && timeResult_ != result_) {
        timeResult_ = result_;
        timeline_->setResult(result_);
        occupancy_->setResult(result_);
        overlap_->setResult(result_);
    }
    if (shownDocks_.contains(QStringLiteral("stepsDock")) && stepsResult_ != result_) {
        stepsResult_ = result_;
        stepper_->setResult(result_);
    }
    // The diff offers the compared strategies as B.
    if (comparisonShown() && comparedResult_ != result_) {
        comparedResult_ = result_;
        startComparison();
    }
}

bool MainWindow::comparisonShown() const {
    return shownDocks_.contains(QStringLiteral("compareDock")) ||
           shownDocks_.contains(QStringLiteral("diffDock"));
}

views::PipelineRequest MainWindow::comparisonRequest() const {
    views::PipelineRequest request;
    request.graph = result_->graph;
    request.modelPath = resultSession_.modelPath;
    request.arch = result_->arch;
    request.strategy = result_->strategy;
    request.level = result_->eval.schedule.level; // as chosen: auto runs once
    request.order = resultSession_.order;
    request.overrides = resultSession_.overrides;
    request.warnings = result_->warnings;
    return request;
}

void MainWindow::startComparison() {
    if (!result_)
        return;
    comparison_->setRequest(comparisonRequest());
    comparisonRunner_->offerResult(result_);
}

void MainWindow::adoptComparedResult(const QString& strategy, views::ResultPtr result) {
    if (!result || !document_->hasModel() || result == result_)
        return;
    io::Session next = document_->session();
    next.strategy = strategy.toStdString();
    if (next == document_->session())
        return;
    // The kept result was computed for the session shown: no run is needed.
    runner_->cancel();
    pendingTicket_ = 0;
    pendingEdit_.reset();
    pendingOpen_.reset();
    hideProgress();
    resultSession_ = next;
    resultSession_.modelSha256 = document_->session().modelSha256;
    showResult(std::move(result));
    document_->change(tr("Strategy %1 (from the comparison)").arg(strategy), resultSession_);
}

void MainWindow::showView(const QString& name) {
    static const std::pair<const char*, const char*> kDocks[] = {
        {"instances", "instancesDock"}, {"inspector", "inspectorDock"}, {"timeline", "timeDock"},
        {"occupancy", "timeDock"},      {"overlap", "timeDock"},        {"time", "timeDock"},
        {"compare", "compareDock"},     {"diff", "diffDock"},           {"steps", "stepsDock"}};
    for (const auto& [view, dock] : kDocks) {
        if (name != QLatin1String(view))
            continue;
        if (auto* widget = findChild<QDockWidget*>(QLatin1String(dock))) {
            widget->show();
            widget->raise();
            // Three stacked plots need most of the height to be read.
            if (QLatin1String(dock) == QLatin1String("timeDock"))
                resizeDocks({widget}, {height() * 3 / 5}, Qt::Vertical);
        }
        refreshShownTools();
    }
}

void MainWindow::diffWithStrategy(const QString& strategy) {
    diffWith_ = strategy;
    showView(QStringLiteral("diff"));
    startComparison();
    if (views::ResultPtr other = comparisonRunner_->result(strategy)) {
        diffWith_.clear();
        diff_->setPair(result_, QString::fromStdString(result_->strategy), other, strategy);
    }
}

QWidget* MainWindow::toolNamed(const QString& name) const {
    const std::pair<const char*, QWidget*> tools[] = {
        {"timeline", timeline_}, {"occupancy", occupancy_}, {"overlap", overlap_},
        {"time", timeViews_},    {"compare", comparison_},  {"diff", diff_},
        {"steps", stepper_}};
    for (const auto& [toolName, widget] : tools)
        if (name == QLatin1String(toolName))
            return widget;
    return nullptr;
}

void MainWindow::showStep(int position) {
    showView(QStringLiteral("steps"));
    refreshShownTools();
    stepper_->goToStep(position);
}

bool MainWindow::comparisonSettled() const {
    const bool needed = comparisonShown() || !diffWith_.isEmpty();
    return !needed || !comparisonRunner_->isBusy();
}

} // namespace stagecraft::studio
