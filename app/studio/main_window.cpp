// The main window's skeleton and its one flow: every change of the session
// goes through the pipeline first. A model or session being opened replaces
// the document only once it loaded; an edit becomes an undoable command only
// once the pipeline accepted it, otherwise its reason is shown and nothing
// changes.

#include "studio/main_window.h"

#include "common/edit_request.h"
#include "common/selection.h"
#include "dialogs/batch_picker.h"
#include "dialogs/order_picker.h"
#include "dialogs/precision_picker.h"
#include "dialogs/strategy_picker.h"
#include "graph/graph_view.h"
#include "inspector/inspector_widget.h"
#include "instances/instance_view.h"
#include "studio/analysis_docks.h"
#include "studio/autosave.h"
#include "studio/session_document.h"
#include "studio/start_page.h"
#include "studio/status_figures.h"
#include "zoo/zoo.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolButton>

#include <algorithm>

namespace stagecraft::studio {

namespace {

/// The sequence lengths a zoo model opened from the cache accepts: the
/// powers of two in its range and its default (empty for a file or a model
/// without one).
std::vector<int64_t> zooSequenceLengths(const std::string& modelPath) {
    std::optional<std::string> name = zoo::cachedZooName(modelPath);
    const zoo::ZooModelInfo* info = name ? zoo::findZooModel(*name) : nullptr;
    if (info == nullptr || !info->defaultSeq)
        return {};
    std::vector<int64_t> lengths;
    for (int64_t length = 1; length <= info->maxSeq; length *= 2)
        if (length >= info->minSeq)
            lengths.push_back(length);
    if (std::find(lengths.begin(), lengths.end(), *info->defaultSeq) == lengths.end())
        lengths.push_back(*info->defaultSeq);
    std::sort(lengths.begin(), lengths.end());
    return lengths;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , document_(new SessionDocument(this))
    , runner_(new PipelineRunner(this))
    , selection_(new views::SelectionModel(this)) {
    setObjectName(QStringLiteral("mainWindow"));
    createViews();
    createActions();
    createStatusBar();
    connectRunner();
    connectEmitter();
    connect(document_, &SessionDocument::sessionChanged, this, &MainWindow::onSessionChanged);
    connect(
        document_, &SessionDocument::replayed, this,
        [this](const QString& description, bool undone) {
            deltaBasis_ =
                (undone ? tr("before undoing “%1”") : tr("before redoing “%1”")).arg(description);
            deltaIsReplay_ = true;
        });
    connect(document_, &SessionDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_, &SessionDocument::filePathChanged, this, &MainWindow::updateTitle);
    autosave_ = new Autosave(document_, this);
    setAcceptDrops(true);
    resize(1400, 900);
    updateTitle();
}

MainWindow::~MainWindow() {
    // The document's undo stack reports clean-state changes while it is
    // destroyed; this window is half gone by then.
    disconnect(document_, nullptr, this, nullptr);
    // Docks hide while the widgets are destroyed, after this window's members.
    const auto docks = findChildren<QDockWidget*>();
    for (QDockWidget* dock : docks)
        disconnect(dock, nullptr, this, nullptr);
    analysis_->detach();
}

void MainWindow::createViews() {
    graphView_ = new views::GraphView(this);
    graphView_->setSelectionModel(selection_);
    startPage_ = new StartPage(this);
    connect(startPage_, &StartPage::openRequested, this, &MainWindow::openDialog);
    connect(startPage_, &StartPage::pathChosen, this, &MainWindow::openPath);
    central_ = new QStackedWidget(this);
    central_->addWidget(startPage_);
    central_->addWidget(graphView_);
    setCentralWidget(central_);

    instanceView_ = new views::InstanceView(this);
    instanceView_->setSelectionModel(selection_);
    auto* instances = new QDockWidget(tr("Instances"), this);
    instances->setObjectName(QStringLiteral("instancesDock"));
    instances->setWidget(instanceView_);
    addDockWidget(Qt::BottomDockWidgetArea, instances);

    inspector_ = new views::InspectorWidget(this);
    inspector_->setSelectionModel(selection_);
    auto* inspector = new QDockWidget(tr("Inspector"), this);
    inspector->setObjectName(QStringLiteral("inspectorDock"));
    inspector->setWidget(inspector_);
    addDockWidget(Qt::RightDockWidgetArea, inspector);
    // The inspector runs the full height; instances sit under the graph.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    connect(inspector_, &views::InspectorWidget::editRequested, this, &MainWindow::onEditRequested);
    createAnalysisDocks();
    createTourDock();
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (std::exchange(docksSized_, true))
        return;
    // Docks get their share only once the window has its size.
    auto* inspector = findChild<QDockWidget*>(QStringLiteral("inspectorDock"));
    auto* instances = findChild<QDockWidget*>(QStringLiteral("instancesDock"));
    // The first tabs shown: instances under the graph, the inspector beside it.
    inspector->raise();
    instances->raise();
    resizeDocks({inspector}, {width() * 3 / 10}, Qt::Horizontal);
    resizeDocks({instances}, {height() * 2 / 5}, Qt::Vertical);
}

void MainWindow::connectRunner() {
    connect(runner_, &PipelineRunner::finished, this, &MainWindow::onFinished);
    connect(runner_, &PipelineRunner::failed, this, &MainWindow::onFailed);
    connect(runner_, &PipelineRunner::progress, this,
            [this](quint64 ticket, const QString& step, int percent) {
                if (!pending_.isCurrent(ticket))
                    return;
                stepLabel_->setText(step + QStringLiteral("…"));
                progress_->setValue(percent);
                progress_->show();
                cancel_->show();
            });
    connect(runner_, &PipelineRunner::cancelled, this, [this](quint64 ticket) {
        if (!pending_.isCurrent(ticket))
            return;
        pending_.drop();
        pendingProfile_.reset();
        statusBar()->showMessage(tr("Cancelled"), 4000);
        hideProgress();
    });
}

void MainWindow::run(const io::Session& session) {
    pending_.started(runner_->run(session), session);
}

void MainWindow::tryChange(const QString& description, const io::Session& next) {
    if (!document_->hasModel() || next == document_->session())
        return;
    pending_.expectEdit({description, next});
    deltaBasis_ = tr("before “%1”").arg(description);
    deltaIsReplay_ = false;
    run(next);
}

void MainWindow::onEditRequested(const views::EditRequest& request) {
    io::Session next = document_->session();
    next.overrides = request.overrides;
    tryChange(request.description, next);
}

void MainWindow::onSessionChanged(const io::Session& session) {
    // Undo and redo arrive here; a change the pipeline already ran does not run again.
    if (result_ && session == resultSession_)
        return;
    pending_.expectNoEdit();
    run(session);
}

void MainWindow::onFinished(quint64 ticket, views::ResultPtr result) {
    if (!pending_.isCurrent(ticket))
        return;
    resultSession_ = pending_.end();
    hideProgress();
    resultSession_.modelSha256 = result->modelSha256;
    if (std::optional<PendingRun::Open> opened = pending_.takeOpen()) {
        const PendingRun::Open& open = *opened;
        showResult(std::move(result));
        if (auto profile = std::exchange(pendingProfile_, std::nullopt))
            attachProfile(profile->first, std::move(profile->second));
        document_->reset(resultSession_, open.filePath);
        if (open.modelChanged) // the session file still names the old hash
            document_->markModified();
        if (!open.recoveredFrom.isEmpty()) {
            document_->markModified();
            QFile::remove(open.recoveredFrom);
            return;
        }
        addRecent(open.filePath.isEmpty() ? QString::fromStdString(resultSession_.modelPath)
                                          : open.filePath);
        if (!open.note.isEmpty())
            statusBar()->showMessage(open.note);
        return;
    }
    showResult(std::move(result));
    if (std::optional<PendingRun::Edit> edit = pending_.takeEdit())
        document_->change(edit->description, resultSession_);
}

void MainWindow::onFailed(quint64 ticket, const QString& message, PipelineRunner::Failure kind) {
    if (!pending_.isCurrent(ticket))
        return;
    pending_.end();
    pendingTourStep_.reset();
    hideProgress();
    if (pending_.takeEdit()) {
        // The inspector shows why; a refusal needs no dialog.
        inspector_->showRefusal(message);
        lastError_ = tr("Edit refused: %1").arg(message);
        statusBar()->showMessage(lastError_);
        emit editRefused(message);
        return;
    }
    PendingRun::Open* open = pending_.open();
    if (open && kind == PipelineRunner::Failure::ModelChanged && interactive_ &&
        askUseChangedModel(message)) {
        open->session.modelSha256.clear();
        open->modelChanged = true;
        run(open->session);
        return;
    }
    if (pending_.takeOpen())
        pendingProfile_.reset();
    reportError(message);
}

void MainWindow::showResult(views::ResultPtr result) {
    if (result_)
        previousReport_ = result_->eval.report;
    else
        previousReport_.reset();
    if (result_ && result_->graph != result->graph)
        previousReport_.reset();
    result_ = std::move(result);
    keepValidSelection();
    central_->setCurrentWidget(graphView_);
    graphView_->setResult(result_);
    instanceView_->setResult(result_);
    inspector_->setResult(result_);
    analysis_->showResult(result_, resultSession_);
    strategyPicker_->setChoice(QString::fromStdString(result_->strategy), resultSession_.level);
    strategyPicker_->showAutoChoice(
        resultSession_.level
            ? QString()
            : QString::fromUtf8(schedule::levelName(result_->eval.schedule.level).data()),
        QString::fromStdString(result_->levelWhy));
    orderPicker_->setChoice(resultSession_.order);
    orderPicker_->showChosen(result_->eval.schedule.orderKind,
                             result_->eval.schedule.bfsUtilization,
                             result_->eval.schedule.dfsUtilization);
    precisionPicker_->setChoice(resultSession_.precision);
    batchPicker_->setChoice(resultSession_.batch, resultSession_.seq,
                            zooSequenceLengths(result_->modelPath), result_->arch.clusters);
    batchPicker_->showPlan(result_->eval.schedule.clusters,
                           QString::fromStdString(result_->perClusterWhy));
    // After an undo or redo the changes in brackets are against the schedule
    // that was shown, the one just undone or redone: the text says so.
    QString figures =
        figuresText(result_->eval.report, previousReport_ ? &*previousReport_ : nullptr);
    if (previousReport_ && deltaIsReplay_)
        figures += tr(" · changes vs. the schedule %1").arg(deltaBasis_);
    figures_->setText(figures);
    figures_->setToolTip(
        previousReport_ && !deltaBasis_.isEmpty()
            ? tr("In brackets: the change against the schedule %1.").arg(deltaBasis_)
            : QString());
    deltaIsReplay_ = false;
    lastError_.clear();
    if (std::optional<int> step = std::exchange(pendingTourStep_, std::nullopt))
        applyTourStep(*step);
    emit resultShown(result_);
}

void MainWindow::keepValidSelection() {
    const views::Selection& current = selection_->current();
    const auto& schedule = result_->eval.schedule;
    size_t limit = 0;
    switch (current.kind) {
    case views::Selection::Kind::None:
        return;
    case views::Selection::Kind::Op:
        limit = result_->graph->opCount();
        break;
    case views::Selection::Kind::Tensor:
        limit = result_->graph->tensorCount();
        break;
    case views::Selection::Kind::Group:
        limit = schedule.groups.size();
        break;
    case views::Selection::Kind::Instance:
        limit = schedule.instances.size();
        break;
    }
    if (current.id < 0 || static_cast<size_t>(current.id) >= limit)
        selection_->clear();
}

bool MainWindow::viewsSettled() const {
    return pending_.idle() && result_ && !graphView_->isLayingOut() && analysis_->settled();
}

void MainWindow::reportError(const QString& message) {
    lastError_ = message;
    statusBar()->showMessage(message);
    emit failed(message);
    if (interactive_ && isVisible())
        QMessageBox::warning(this, tr("Stagecraft"), message);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!confirmDiscard()) {
        event->ignore();
        return;
    }
    autosave_->discard();
    QSettings().setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

} // namespace stagecraft::studio
