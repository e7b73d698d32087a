// The main window's side of its analysis docks (analysis_docks.h): views by
// StudioView, the diff and step-through entry points, and a strategy chosen
// in the comparison shown at once as an undoable change of the session's
// strategy (its kept result needs no run).

#include "common/highlight.h"
#include "common/selection.h"
#include "graph/graph_canvas.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "inspector/inspector_widget.h"
#include "instances/instance_view.h"
#include "studio/analysis_docks.h"
#include "studio/main_window.h"
#include "studio/session_document.h"

#include <QStatusBar>

namespace stagecraft::studio {

void MainWindow::createAnalysisDocks() {
    highlights_ = new views::HighlightModel(this);
    graphView_->setHighlightModel(highlights_);
    instanceView_->setHighlightModel(highlights_);
    analysis_ = new AnalysisDocks(this, selection_, highlights_);
    connect(analysis_, &AnalysisDocks::strategyChosen, this, &MainWindow::adoptComparedResult);
    connect(analysis_, &AnalysisDocks::sessionDiffReady, this, [this](const QString& label) {
        statusBar()->showMessage(tr("Diff with %1 ready").arg(label), 4000);
    });
    connect(analysis_, &AnalysisDocks::sessionDiffFailed, this, &MainWindow::reportError);
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
    pending_.drop();
    hideProgress();
    resultSession_ = next;
    resultSession_.modelSha256 = document_->session().modelSha256;
    const QString description = tr("Strategy %1 (from the comparison)").arg(strategy);
    deltaBasis_ = tr("before “%1”").arg(description);
    deltaIsReplay_ = false;
    showResult(std::move(result));
    document_->change(description, resultSession_);
}

QWidget* MainWindow::view(StudioView view) const {
    switch (view) {
    case StudioView::Window:
        return const_cast<MainWindow*>(this);
    case StudioView::Graph:
        return graphView_;
    case StudioView::Instances:
        return instanceView_;
    case StudioView::Inspector:
        return inspector_;
    case StudioView::Timeline:
    case StudioView::Occupancy:
    case StudioView::Overlap:
    case StudioView::Time:
    case StudioView::Compare:
    case StudioView::Diff:
    case StudioView::Steps:
    case StudioView::Costs:
    case StudioView::SideBySide:
    case StudioView::Kernel:
    case StudioView::Roofline:
        return analysis_->view(view);
    }
    return nullptr;
}

void MainWindow::showView(StudioView view) {
    analysis_->show(view);
}

void MainWindow::enlargeView(StudioView which, QSize size) {
    // A layout (the dock's, the central stack's) sizes its widgets to its
    // own: the view moves to a window of its own, at \p size, for the shot.
    QWidget* shown = view(which);
    if (shown->isWindow()) { // the side-by-side diff
        shown->resize(size);
    } else {
        auto* frame = new QWidget(this, Qt::Window);
        frame->setObjectName(QStringLiteral("enlargedView"));
        frame->resize(size);
        shown->setParent(frame);
        shown->setGeometry(QRect(QPoint(0, 0), size));
        shown->show();
        frame->show();
    }
    // The instance view is drawn whole at the new size, as its Fit does.
    if (which == StudioView::Instances)
        instanceView_->fitToView();
    if (which != StudioView::Graph)
        return;
    views::graphview::GraphCanvas* canvas = graphView_->canvas();
    canvas->fitReadable();
    const views::Selection& selected = selection_->current();
    if (selected.kind != views::Selection::Kind::Op)
        return;
    if (QGraphicsItem* item = graphView_->scene()->opItem(ir::OpId(selected.id)))
        canvas->centerOn(item);
}

void MainWindow::diffWith(const QString& strategy) {
    analysis_->diffWithStrategy(strategy);
}

void MainWindow::showKernelPane(const QString& pane) {
    analysis_->showKernelPane(pane);
}

void MainWindow::showStep(int position) {
    analysis_->showStep(position);
}

bool MainWindow::selectNamed(const QString& name) {
    const views::ResultPtr shown = result();
    const std::string text = name.toStdString();
    if (shown != nullptr) {
        if (auto op = shown->graph->findOp(text)) {
            selection_->select({views::Selection::Kind::Op, op->value()});
            return true;
        }
        const auto& instances = shown->eval.schedule.instances;
        for (schedule::InstanceId i : instances.ids())
            if (instances[i].label == text) {
                selection_->select({views::Selection::Kind::Instance, i.value()});
                return true;
            }
    }
    reportError(tr("--select: no op or instance named '%1'").arg(name));
    return false;
}

views::StepperView* MainWindow::stepper() const {
    return analysis_->stepper();
}

views::ComparisonRunner* MainWindow::comparisonRunner() const {
    return analysis_->comparisonRunner();
}

} // namespace stagecraft::studio
