#pragma once
// The main window's analysis docks (Studio 2/2): the time views (timeline,
// occupancy, compute-unit overlap) stacked on one shared time axis, the
// strategy comparison, the schedule diff, the algorithm step-through, the
// cost table, the selected instance's kernel and the roofline, tabbed with
// the instance view and the inspector. They follow the result
// the window shows, each only while its dock is in front.

#include "common/pipeline_result.h"
#include "io/session_json.h"
#include "studio/studio_view.h"

#include <QObject>
#include <QSet>

#include <memory>

class QDockWidget;
class QMainWindow;
class QSplitter;

namespace stagecraft::codegen {
struct Profile;
}

namespace stagecraft::views {
class SelectionModel;
class HighlightModel;
class TimeAxisModel;
class TimelineView;
class OccupancyView;
class OverlapView;
class ComparisonRunner;
class ComparisonView;
class DiffView;
class StepperView;
class CostTableView;
class KernelView;
class RooflineView;
} // namespace stagecraft::views

namespace stagecraft::studio {

class PipelineRunner;

class AnalysisDocks : public QObject {
    Q_OBJECT
public:
    /// Creates the docks in \p window, tabbed with its "instancesDock" and
    /// "inspectorDock"; \p highlights is shared with the graph and instance views.
    AnalysisDocks(QMainWindow* window, views::SelectionModel* selection,
                  views::HighlightModel* highlights);

    /// The result the window shows now, and its session.
    void showResult(views::ResultPtr result, const io::Session& session);
    /// The widget of \p view among the analysis views, or null.
    QWidget* view(StudioView view) const;
    /// Shows and raises the dock of \p view, if it has one here or is the
    /// instance view or the inspector.
    void show(StudioView view);
    /// Diffs the shown result with \p strategy's (run by the comparison when not kept yet).
    void diffWithStrategy(const QString& strategy);
    /// Diffs the shown result with the one \p other runs to, named \p label.
    void diffWithSession(const io::Session& other, const QString& label);
    /// Shows the Kernel view with its text \p pane ("loops", "ir", "assembly").
    void showKernelPane(const QString& pane);
    /// Shows the step-through at step \p position (from 0).
    void showStep(int position);
    /// The profile the timeline shows beside the simulated kernels.
    void setProfile(std::shared_ptr<const codegen::Profile> profile);
    void fitTimeline();
    /// False while a comparison the shown docks (or a pending diff) need is running.
    bool settled() const;
    /// Stops following the docks' visibility (the window is being destroyed).
    void detach();

    views::ComparisonRunner* comparisonRunner() const { return comparisonRunner_; }
    views::StepperView* stepper() const { return stepper_; }

signals:
    /// The user chose \p strategy in the comparison; \p result is its kept result.
    void strategyChosen(const QString& strategy, views::ResultPtr result);
    /// The diff with a session is ready (\p label names it).
    void sessionDiffReady(const QString& label);
    void sessionDiffFailed(const QString& message);

private:
    void createTimeViews();
    void createComparison();
    void followVisibility(const QList<QDockWidget*>& docks);
    void refreshShown();
    bool comparisonShown() const;
    void startComparison();
    void showDiffOf(views::ResultPtr other, const QString& strategy);

    QMainWindow* window_;
    views::SelectionModel* selection_;
    views::HighlightModel* highlights_;
    views::TimeAxisModel* timeAxis_ = nullptr;
    views::TimelineView* timeline_ = nullptr;
    views::OccupancyView* occupancy_ = nullptr;
    views::OverlapView* overlap_ = nullptr;
    QSplitter* timeViews_ = nullptr;
    views::ComparisonView* comparison_ = nullptr;
    views::ComparisonRunner* comparisonRunner_ = nullptr;
    views::DiffView* diff_ = nullptr;
    views::StepperView* stepper_ = nullptr;
    views::CostTableView* costs_ = nullptr;
    views::KernelView* kernel_ = nullptr;
    views::RooflineView* roofline_ = nullptr;
    PipelineRunner* sessionDiffRunner_ = nullptr;
    quint64 sessionDiffTicket_ = 0;
    QString sessionDiffLabel_;

    views::ResultPtr result_;
    io::Session session_;
    /// The results the time views, the step-through and the comparison were
    /// given (they follow only while shown).
    views::ResultPtr timeResult_;
    views::ResultPtr stepsResult_;
    views::ResultPtr costsResult_;
    views::ResultPtr kernelResult_;
    views::ResultPtr rooflineResult_;
    views::ResultPtr comparedResult_;
    /// Object names of the docks whose tab is in front.
    QSet<QString> shownDocks_;
    /// A strategy to diff with once the comparison has it (--diff-with).
    QString diffWith_;
};

} // namespace stagecraft::studio
