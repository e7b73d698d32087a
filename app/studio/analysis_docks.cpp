// The analysis docks (analysis_docks.h). A hidden tool would rebuild its
// data for nothing on every edit: each takes the shown result when its dock
// comes in front. The comparison runs only while its dock or the diff is in
// front, and a strategy chosen in it is handed to the window, which shows
// its kept result as an undoable change of the session's strategy.

#include "studio/analysis_docks.h"

#include "codegen/profile.h"
#include "common/highlight.h"
#include "common/run_pipeline.h"
#include "common/selection.h"
#include "common/time_axis.h"
#include "compare/comparison_runner.h"
#include "compare/comparison_view.h"
#include "compare/diff_view.h"
#include "compare/side_by_side.h"
#include "costs/cost_table_view.h"
#include "kernel/kernel_view.h"
#include "roofline/roofline_view.h"
#include "stepper/stepper_view.h"
#include "studio/pipeline_runner.h"
#include "timeline/timeline_view.h"
#include "usage/occupancy_view.h"
#include "usage/overlap_view.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>
#include <QSplitter>

namespace stagecraft::studio {

namespace {

QDockWidget* dockFor(QMainWindow* window, const QString& title, const QString& name,
                     QWidget* content) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(name);
    dock->setWidget(content);
    return dock;
}

/// The object name of the dock holding \p view, or null.
const char* dockNameOf(StudioView view) {
    switch (view) {
    case StudioView::Instances:
        return "instancesDock";
    case StudioView::Inspector:
        return "inspectorDock";
    case StudioView::Timeline:
    case StudioView::Occupancy:
    case StudioView::Overlap:
    case StudioView::Time:
        return "timeDock";
    case StudioView::Compare:
        return "compareDock";
    case StudioView::Diff:
        return "diffDock";
    case StudioView::Steps:
        return "stepsDock";
    case StudioView::Costs:
        return "costsDock";
    case StudioView::SideBySide:
        return "diffDock";
    case StudioView::Kernel:
        return "kernelDock";
    case StudioView::Roofline:
        return "rooflineDock";
    case StudioView::Window:
    case StudioView::Graph:
        break;
    }
    return nullptr;
}

} // namespace

AnalysisDocks::AnalysisDocks(QMainWindow* window, views::SelectionModel* selection,
                             views::HighlightModel* highlights)
    : QObject(window)
    , window_(window)
    , selection_(selection)
    , highlights_(highlights) {
    createTimeViews();
    createComparison();
}

void AnalysisDocks::createTimeViews() {
    timeAxis_ = new views::TimeAxisModel(this);
    timeline_ = new views::TimelineView(window_);
    occupancy_ = new views::OccupancyView(window_);
    overlap_ = new views::OverlapView(window_);
    timeline_->setTimeAxisModel(timeAxis_);
    occupancy_->setTimeAxisModel(timeAxis_);
    overlap_->setTimeAxisModel(timeAxis_);
    timeline_->setSelectionModel(selection_);
    occupancy_->setSelectionModel(selection_);
    occupancy_->setHighlightModel(highlights_);
    overlap_->setSelectionModel(selection_);
    timeViews_ = new QSplitter(Qt::Vertical, window_);
    timeViews_->setObjectName(QStringLiteral("timeViews"));
    timeViews_->addWidget(timeline_);
    timeViews_->addWidget(occupancy_);
    timeViews_->addWidget(overlap_);
    timeViews_->setStretchFactor(0, 3);
    timeViews_->setStretchFactor(1, 3);
    timeViews_->setStretchFactor(2, 2);
}

void AnalysisDocks::createComparison() {
    comparison_ = new views::ComparisonView(window_);
    comparisonRunner_ = comparison_->runner();
    if (!comparisonRunner_) {
        comparisonRunner_ = new views::ComparisonRunner(this);
        comparison_->setRunner(comparisonRunner_);
    }
    diff_ = new views::DiffView(window_);
    diff_->setRunner(comparisonRunner_);
    diff_->setHighlightModel(highlights_);
    diff_->setSelectionModel(selection_);
    stepper_ = new views::StepperView(window_);
    stepper_->setHighlightModel(highlights_);
    costs_ = new views::CostTableView(window_);
    costs_->setSelectionModel(selection_);
    kernel_ = new views::KernelView(window_);
    kernel_->setSelectionModel(selection_);
    roofline_ = new views::RooflineView(window_);
    roofline_->setSelectionModel(selection_);

    auto* instances = window_->findChild<QDockWidget*>(QStringLiteral("instancesDock"));
    auto* inspector = window_->findChild<QDockWidget*>(QStringLiteral("inspectorDock"));
    // The three plots need about 480 px; scrolled, they do not take that
    // height from the graph while the dock is a tab under it.
    auto* timeScroll = new QScrollArea(window_);
    timeScroll->setObjectName(QStringLiteral("timeScroll"));
    timeScroll->setWidget(timeViews_);
    timeScroll->setWidgetResizable(true);
    timeScroll->setFrameShape(QFrame::NoFrame);
    auto* time = dockFor(window_, tr("Timeline"), QStringLiteral("timeDock"), timeScroll);
    auto* compare = dockFor(window_, tr("Compare"), QStringLiteral("compareDock"), comparison_);
    auto* diff = dockFor(window_, tr("Diff"), QStringLiteral("diffDock"), diff_);
    auto* steps = dockFor(window_, tr("Steps"), QStringLiteral("stepsDock"), stepper_);
    auto* costs = dockFor(window_, tr("Costs"), QStringLiteral("costsDock"), costs_);
    auto* kernel = dockFor(window_, tr("Kernel"), QStringLiteral("kernelDock"), kernel_);
    auto* roofline = dockFor(window_, tr("Roofline"), QStringLiteral("rooflineDock"), roofline_);
    window_->tabifyDockWidget(instances, time);
    window_->tabifyDockWidget(time, costs);
    window_->tabifyDockWidget(costs, kernel);
    window_->tabifyDockWidget(kernel, roofline);
    followVisibility({time, compare, diff, steps, costs, kernel, roofline});
    window_->tabifyDockWidget(inspector, compare);
    window_->tabifyDockWidget(compare, diff);
    window_->tabifyDockWidget(diff, steps);
    inspector->raise();
    instances->raise();

    // The diff marks the graph only while its dock is in front: Compare
    // runs the comparison too, and its marks would otherwise cover the graph.
    diff_->setMarking(false);
    connect(diff, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        diff_->setMarking(visible);
        if (!visible && !shownDocks_.contains(QStringLiteral("stepsDock")))
            highlights_->clear();
    });
    // §4.3's steps speak of tensors in the buffers: the occupancy plot
    // comes forward with them (a dock the user closed stays closed).
    connect(stepper_, &views::StepperView::stepChanged, this, [this, time](int position) {
        const views::AlgorithmStep* step = stepper_->stepAt(position);
        const bool memory = step && (step->kind == views::StepKind::Liveness ||
                                     step->kind == views::StepKind::Spill);
        if (memory && !shownDocks_.contains(QStringLiteral("timeDock")))
            time->raise();
    });
    connect(comparison_, &views::ComparisonView::strategyChosen, this,
            &AnalysisDocks::strategyChosen);
    connect(comparisonRunner_, &views::ComparisonRunner::resultReady, this,
            [this](const QString& strategy, views::ResultPtr other) {
                if (strategy == diffWith_ && result_)
                    showDiffOf(std::move(other), strategy);
            });
}

void AnalysisDocks::followVisibility(const QList<QDockWidget*>& docks) {
    // Which tabs are in front: a tab behind another still counts as a
    // visible widget, so the docks' own signal is what tells.
    for (QDockWidget* dock : docks)
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
            if (visible)
                shownDocks_.insert(dock->objectName());
            else
                shownDocks_.remove(dock->objectName());
            QMetaObject::invokeMethod(this, &AnalysisDocks::refreshShown, Qt::QueuedConnection);
        });
}

void AnalysisDocks::detach() {
    const auto docks = window_->findChildren<QDockWidget*>();
    for (QDockWidget* dock : docks)
        disconnect(dock, nullptr, this, nullptr);
}

void AnalysisDocks::showResult(views::ResultPtr result, const io::Session& session) {
    result_ = std::move(result);
    session_ = session;
    const QString strategy = QString::fromStdString(result_->strategy);
    comparison_->setCurrentStrategy(strategy);
    diff_->setShownResult(result_, strategy);
    refreshShown();
}

void AnalysisDocks::refreshShown() {
    if (!result_)
        return;
    if (shownDocks_.contains(QStringLiteral("timeDock")) && timeResult_ != result_) {
        timeResult_ = result_;
        timeline_->setResult(result_);
        occupancy_->setResult(result_);
        overlap_->setResult(result_);
    }
    if (shownDocks_.contains(QStringLiteral("costsDock")) && costsResult_ != result_) {
        costsResult_ = result_;
        costs_->setResult(result_);
    }
    if (shownDocks_.contains(QStringLiteral("kernelDock")) && kernelResult_ != result_) {
        kernelResult_ = result_;
        kernel_->setResult(result_);
    }
    if (shownDocks_.contains(QStringLiteral("rooflineDock")) && rooflineResult_ != result_) {
        rooflineResult_ = result_;
        roofline_->setResult(result_);
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

bool AnalysisDocks::comparisonShown() const {
    return shownDocks_.contains(QStringLiteral("compareDock")) ||
           shownDocks_.contains(QStringLiteral("diffDock"));
}

void AnalysisDocks::startComparison() {
    if (!result_)
        return;
    views::PipelineRequest request;
    request.graph = result_->graph;
    request.modelPath = session_.modelPath;
    request.arch = result_->arch;
    request.strategy = result_->strategy;
    request.level = session_.level; // auto: each strategy tunes its own
    request.order = session_.order;
    request.overrides = session_.overrides;
    request.warnings = result_->warnings;
    comparison_->setRequest(request);
}

QWidget* AnalysisDocks::view(StudioView view) const {
    switch (view) {
    case StudioView::Timeline:
        return timeline_;
    case StudioView::Occupancy:
        return occupancy_;
    case StudioView::Overlap:
        return overlap_;
    case StudioView::Time:
        return timeViews_;
    case StudioView::Compare:
        return comparison_;
    case StudioView::Diff:
        return diff_;
    case StudioView::Steps:
        return stepper_;
    case StudioView::Costs:
        return costs_;
    case StudioView::Kernel:
        return kernel_;
    case StudioView::Roofline:
        return roofline_;
    case StudioView::SideBySide:
        return diff_->sideBySide();
    case StudioView::Window:
    case StudioView::Graph:
    case StudioView::Instances:
    case StudioView::Inspector:
        break;
    }
    return nullptr;
}

void AnalysisDocks::show(StudioView view) {
    const char* name = dockNameOf(view);
    if (!name)
        return;
    if (auto* dock = window_->findChild<QDockWidget*>(QLatin1String(name))) {
        dock->show();
        dock->raise();
        // Three stacked plots need most of the height to be read.
        if (view == StudioView::Timeline || view == StudioView::Occupancy ||
            view == StudioView::Overlap || view == StudioView::Time)
            window_->resizeDocks({dock}, {window_->height() * 3 / 5}, Qt::Vertical);
    }
    if (view == StudioView::SideBySide)
        diff_->setSideBySide(true);
    refreshShown();
}

void AnalysisDocks::diffWithStrategy(const QString& strategy) {
    diffWith_ = strategy;
    show(StudioView::Diff);
    startComparison();
    if (views::ResultPtr other = comparisonRunner_->result(strategy))
        showDiffOf(std::move(other), strategy);
}

void AnalysisDocks::showDiffOf(views::ResultPtr other, const QString& strategy) {
    diffWith_.clear();
    diff_->setPair(result_, QString::fromStdString(result_->strategy), std::move(other), strategy);
}

void AnalysisDocks::diffWithSession(const io::Session& other, const QString& label) {
    if (!sessionDiffRunner_) {
        sessionDiffRunner_ = new PipelineRunner(this);
        connect(sessionDiffRunner_, &PipelineRunner::finished, this,
                [this](quint64 ticket, views::ResultPtr result) {
                    if (ticket != sessionDiffTicket_ || !result_)
                        return;
                    diff_->setPair(result_, tr("shown"), std::move(result), sessionDiffLabel_);
                    emit sessionDiffReady(sessionDiffLabel_);
                });
        connect(sessionDiffRunner_, &PipelineRunner::failed, this,
                [this](quint64 ticket, const QString& message) {
                    if (ticket == sessionDiffTicket_)
                        emit sessionDiffFailed(tr("%1: %2").arg(sessionDiffLabel_, message));
                });
    }
    sessionDiffLabel_ = label;
    sessionDiffTicket_ = sessionDiffRunner_->run(other);
    show(StudioView::Diff);
}

void AnalysisDocks::showKernelPane(const QString& pane) {
    using Pane = views::KernelView::Pane;
    kernel_->showPane(pane == QStringLiteral("ir")         ? Pane::Ir
                      : pane == QStringLiteral("assembly") ? Pane::Assembly
                                                           : Pane::Loops);
    show(StudioView::Kernel);
}

void AnalysisDocks::showStep(int position) {
    show(StudioView::Steps);
    stepper_->goToStep(position);
}

void AnalysisDocks::setProfile(std::shared_ptr<const codegen::Profile> profile) {
    timeline_->setProfile(std::move(profile));
}

void AnalysisDocks::fitTimeline() {
    timeline_->fitToView();
}

bool AnalysisDocks::settled() const {
    const bool needed = comparisonShown() || !diffWith_.isEmpty();
    return (!needed || !comparisonRunner_->isBusy()) && !diff_->isLayingOut() &&
           !kernel_->isCompiling();
}

} // namespace stagecraft::studio
