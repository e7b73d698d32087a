#pragma once
// The main window of stagecraft-studio: the graph view in the middle (the
// start page until a model is open), the
// instance view and the inspector in docks, a strategy picker in the tool
// bar, progress and the current schedule's figures in the status bar. It owns
// the document, the pipeline runner and the one selection all views share.

#include "common/pipeline_result.h"
#include "io/session_json.h"
#include "io/tour_json.h"
#include "studio/pending_run.h"
#include "studio/pipeline_runner.h"
#include "studio/studio_view.h"

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QProgressDialog;
class QStackedWidget;
class QToolButton;

namespace stagecraft::codegen {
struct Profile;
}

namespace stagecraft::views {
class SelectionModel;
class GraphView;
class InstanceView;
class InspectorWidget;
class StrategyPicker;
class OrderPicker;
class PrecisionPicker;
class BatchPicker;
struct EditRequest;
class HighlightModel;
class ComparisonRunner;
class StepperView;
class SweepWindow;
} // namespace stagecraft::views

namespace stagecraft::studio {

class SessionDocument;
class TourPanel;
class Autosave;
class KernelEmitter;
class AnalysisDocks;
class StartPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// When false, nothing asks the user (tests, --screenshot): questions
    /// take their safe answer and errors go to the status bar and lastError().
    void setInteractive(bool interactive) { interactive_ = interactive; }
    /// Architecture, strategy, level and dims a newly opened model starts with.
    void setDefaults(const io::Session& defaults) { defaults_ = defaults; }
    /// When true (--arch or --level given), a zoo model of a paper figure
    /// opens with the defaults, not with its figure's setup.
    void setSetupFixed(bool fixed) { setupFixed_ = fixed; }
    /// When true (--batch, --per-cluster or --seq given), a zoo model of
    /// Table 2 opens with the defaults' batch, not with its row's.
    void setBatchFixed(bool fixed) { batchFixed_ = fixed; }

    /// Opens an ONNX model with \p session's architecture, strategy and dims
    /// as defaults. Returns false (with lastError()) when it cannot start.
    bool openModel(const QString& path);
    bool openSession(const QString& path);
    /// Opens a model (.onnx), a session (.stagecraft) by its suffix, or a
    /// zoo model (zoo:NAME; a paper figure's in its figure's setup, said on
    /// the status bar).
    bool openPath(const QString& path);
    /// Reads a profile (stagecraft run --profile) that the timeline shows
    /// beside the simulated kernels while it times the shown schedule's
    /// kernels. Returns false (with lastError()) when it cannot be read, or
    /// was measured for another model, strategy or kernels than the shown
    /// ones (codegen::checkProfileTarget); while a model is being opened it
    /// is checked once that model is shown.
    bool openProfile(const QString& path);
    /// Shows a finished sweep (stagecraft sweep --out DIR) in its own window:
    /// scatter plot, Pareto front and table; a point opens here. Returns
    /// false (with lastError()) when DIR holds no readable sweep.
    bool openSweep(const QString& directory);
    views::SweepWindow* sweepWindow() const;
    /// Opens an autosaved session as unsaved changes and removes the file
    /// once it loaded.
    bool recoverSession(const QString& autosavePath);
    /// True when no run is in flight and every view has drawn the result.
    bool viewsSettled() const;
    /// Saves to the current session file, or asks for one.
    bool save();
    bool saveAs(const QString& path);
    /// Applies \p next as an undoable edit named \p description once the
    /// pipeline accepts it; a refusal shows the pipeline's reason.
    void tryChange(const QString& description, const io::Session& next);

    SessionDocument* document() const { return document_; }
    views::ResultPtr result() const { return result_; }
    views::SelectionModel* selection() const { return selection_; }
    QString lastError() const { return lastError_; }
    /// The widget of \p view (the window itself for StudioView::Window).
    QWidget* view(StudioView view) const;
    /// Shows and raises the dock holding \p view.
    void showView(StudioView view);
    /// Gives \p view the whole of \p size, as `--view` screenshots it: it
    /// moves to a window of its own (the screenshot is the program's last
    /// act); the graph is fitted again and keeps a selected op in sight.
    void enlargeView(StudioView view, QSize size);
    /// Diffs the shown schedule with \p strategy's on the same model (run by
    /// the comparison when not kept yet).
    void diffWith(const QString& strategy);
    views::StepperView* stepper() const;
    /// Shows the step-through at step \p position (from 0).
    void showStep(int position);
    /// Shows the Kernel view with its text \p pane: "loops", "ir" or "assembly".
    void showKernelPane(const QString& pane);
    /// Selects the op named \p name, or else the instance labelled \p name
    /// (--select). False, reported as an error, when the shown result has
    /// neither.
    bool selectNamed(const QString& name);
    /// Diffs the shown schedule with the saved session \p path of the same
    /// model (run on a second pipeline runner). False with lastError() when
    /// the file cannot be read.
    bool diffWithSession(const QString& path);
    views::ComparisonRunner* comparisonRunner() const;
    /// Opens the Tour dock on \p tour and goes to step \p step (from 0).
    bool startTour(io::Tour tour, int step);
    /// Sets Studio up for step \p index of the tour shown (from 0); its
    /// selection, algorithm step and views follow once its result is shown.
    bool goToTourStep(int index);
    TourPanel* tourPanel() const;
    /// The default session for a model: current architecture and strategy.
    io::Session sessionFor(const QString& modelPath) const;

    /// Emits the shown schedule's kernels into \p directory for \p target
    /// ("riscv64" or "host") off the GUI thread, with progress; false (with
    /// lastError()) when nothing is shown or an emission is running.
    bool emitKernels(const QString& directory, const QString& target, int optLevel = 2);
    KernelEmitter* kernelEmitter() const { return emitter_; }

    /// Export by kind: "schedule", "dot", "graph-svg", "graph-png",
    /// "instances-svg", "instances-png", "trace", "csv", "breakdown", and
    /// the docks as shown: "time-png", "costs-png", "compare-png",
    /// "diff-png", "steps-png" (each brought to front first). Returns
    /// the error ("unknown export kind" for any other), empty on success.
    QString exportTo(const QString& kind, const QString& path);

signals:
    /// A result reached every view.
    void resultShown(stagecraft::views::ResultPtr result);
    /// A run or an edit failed with \p message.
    void failed(const QString& message);
    /// An edit was refused by the pipeline.
    void editRefused(const QString& message);
    /// Kernels were emitted (\p summary says how many, where).
    void kernelsEmitted(const QString& summary);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createViews();
    void createAnalysisDocks();
    /// Shows a result the comparison kept as an undoable change of strategy.
    void adoptComparedResult(const QString& strategy, views::ResultPtr result);
    void createToolsMenu();
    void diffWithSessionDialog();
    void createActions();
    void createFileMenu();
    void createBatchBar();
    void createHelpMenu();
    void createTourDock();
    void addToursMenu(QMenu* help);
    void applyTourStep(int index);
    void createEditMenu();
    void createViewMenu();
    void createExportMenu(QMenu* file);
    void createStatusBar();
    void connectRunner();
    void updateTitle();
    void updateRecentMenu();
    void addRecent(const QString& path);

    void run(const io::Session& session);
    void hideProgress();
    bool askUseChangedModel(const QString& message);
    void keepValidSelection();
    void onSessionChanged(const io::Session& session);
    void onFinished(quint64 ticket, views::ResultPtr result);
    void onFailed(quint64 ticket, const QString& message, PipelineRunner::Failure kind);
    void onEditRequested(const views::EditRequest& request);
    void showResult(views::ResultPtr result);
    /// Shows \p profile when it was measured for the shown result.
    bool attachProfile(const QString& path, std::shared_ptr<const codegen::Profile> profile);
    void reportError(const QString& message);
    bool confirmDiscard();
    void openDialog();
    void saveAsDialog();
    void exportDialog(const QString& kind);
    void emitKernelsDialog();
    void openProfileDialog();
    void openSweepDialog();
    /// Opens a sweep point's model with the point's session.
    void openSweepPoint(const io::Session& session);
    void connectEmitter();
    void editArchitecture();
    void bindDims();

    SessionDocument* document_ = nullptr;
    PipelineRunner* runner_ = nullptr;
    Autosave* autosave_ = nullptr;
    views::SelectionModel* selection_ = nullptr;
    views::GraphView* graphView_ = nullptr;
    /// The start page until a model is shown, then the graph view.
    QStackedWidget* central_ = nullptr;
    StartPage* startPage_ = nullptr;
    views::InstanceView* instanceView_ = nullptr;
    views::InspectorWidget* inspector_ = nullptr;
    views::StrategyPicker* strategyPicker_ = nullptr;
    views::OrderPicker* orderPicker_ = nullptr;
    views::PrecisionPicker* precisionPicker_ = nullptr;
    views::BatchPicker* batchPicker_ = nullptr;
    TourPanel* tourPanel_ = nullptr;
    /// The tour step whose extras apply once its result is shown.
    std::optional<int> pendingTourStep_;
    views::HighlightModel* highlights_ = nullptr;
    AnalysisDocks* analysis_ = nullptr;
    std::shared_ptr<const codegen::Profile> profile_;
    /// A profile opened while a model was being opened, checked once it is shown.
    std::optional<std::pair<QString, std::shared_ptr<const codegen::Profile>>> pendingProfile_;
    QMenu* recentMenu_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* saveAction_ = nullptr;
    QAction* undoAction_ = nullptr;
    QAction* redoAction_ = nullptr;
    QLabel* figures_ = nullptr;
    QLabel* stepLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QToolButton* cancel_ = nullptr;
    KernelEmitter* emitter_ = nullptr;
    QPointer<QProgressDialog> emitProgress_;
    QPointer<views::SweepWindow> sweepWindow_;

    views::ResultPtr result_;
    /// The report shown before the current one, for the deltas.
    std::optional<sim::Report> previousReport_;
    /// What the status bar's changes are against ("before “Split b”",
    /// "before undoing “Split b”"), and whether an undo or redo set it.
    QString deltaBasis_;
    bool deltaIsReplay_ = false;
    /// The run the document waits for, and what its result is for.
    PendingRun pending_;
    /// The session of the result shown.
    io::Session resultSession_;
    /// openModel, in \p setup's architecture and level where given, said on
    /// the status bar as \p shownAs's setup.
    /// Opens the model file \p path; \p shownAs is its zoo:NAME (empty for
    /// a file), whose setup applies.
    bool openModelIn(const QString& path, const QString& shownAs);
    /// The zoo model's figure setup (architecture, level) and Table 2 batch,
    /// unless fixed on the command line; what was applied goes to \p notes.
    bool applyZooSetup(const QString& shownAs, io::Session& session, QStringList& notes);
    bool interactive_ = true;
    bool setupFixed_ = false;
    bool batchFixed_ = false;
    bool docksSized_ = false;
    io::Session defaults_;
    QString lastError_;
};

} // namespace stagecraft::studio
