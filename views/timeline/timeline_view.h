#pragma once
// The timeline view of stagecraft-studio: a lane per control, compute unit
// and DMA channel slot of the simulated cluster, a bar per task colored by
// its instance's group. Wheel zooms around the cursor and dragging pans the
// shared TimeAxisModel (the occupancy and overlap views follow); hovering
// shows the task, clicking selects its instance and op, and the shared
// selection's bars are emphasized over the dimmed others. As in Perfetto:
// the clicked task is outlined with arrows from the tasks it waits for and
// to the tasks waiting for it; a unit lane shared by the cores expands into
// a lane per core (click its label); Shift+drag selects a time range, which
// is summed up (timeline_range.h) until Esc.
// objectName "timelineView".

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "common/time_axis.h"
#include "timeline/timeline_data.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_range.h"

#include <QAbstractScrollArea>
#include <QPointer>

#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace stagecraft::views {

class TimelineView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    /// Shows \p result's simulation; fits the shared axis to it when the
    /// axis model's range is not [0, makespan] yet.
    void setResult(ResultPtr result);
    /// A profile measured on this host (codegen/profile.h): while it times the
    /// shown kernels, the simulated and the measured kernel lanes come first.
    void setProfile(std::shared_ptr<const codegen::Profile> profile);
    /// Shows \p timeline (names and fused ops come from \p result when given):
    /// for synthetic timelines and the benchmark.
    void setTimeline(std::shared_ptr<const TimelineData> timeline, ResultPtr result = {});
    const ResultPtr& result() const { return result_; }
    const TimelineData* timeline() const { return data_.get(); }

    void setSelectionModel(SelectionModel* model);
    /// Shares \p model's axis; nullptr returns to the view's own axis.
    void setTimeAxisModel(TimeAxisModel* model);
    TimeAxisModel* timeAxisModel() const { return axis_; }

    /// Width of the plot area (the viewport minus the lane labels).
    double plotWidth() const;
    /// The lane under viewport y, or -1.
    int32_t laneAt(int y) const;
    /// The viewport rectangle of \p lane's row (across labels and plot).
    QRect laneRect(int32_t lane) const;
    /// The bar under viewport point \p pos (2 px tolerance), if any.
    std::optional<BarRef> barAt(const QPoint& pos) const;
    /// The tool tip shown at \p pos; empty off bars.
    QString toolTipAt(const QPoint& pos) const;
    /// Bars the current selection emphasizes (0 when nothing is selected).
    size_t emphasizedBarCount() const;
    const TimelinePaintStats& lastPaintStats() const { return stats_; }

    /// The task a click pinned (outlined, with its dependency arrows).
    kernel::TaskId pinnedTask() const { return pinned_; }
    /// The tasks the pinned one waits for, and those that wait for it.
    const std::vector<kernel::TaskId>& pinnedDeps() const { return deps_; }
    const std::vector<kernel::TaskId>& pinnedSuccessors() const { return successors_; }
    /// Expands the unit lane of sim resource \p resource into a lane per
    /// core, or folds it back.
    void setLaneExpanded(int32_t resource, bool expanded);
    bool isLaneExpanded(int32_t resource) const { return expanded_.contains(resource); }
    /// A selected time range and its summary; nullopt when none.
    void setRange(double t0, double t1);
    void clearRange();
    const std::optional<RangeSummary>& range() const { return range_; }

    /// Every lane at the current zoom as PNG on white; false with \p error.
    bool exportPng(const QString& path, QString* error) const;

public slots:
    /// Shows the whole run [0, makespan].
    void fitToView();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    void paintTimeline(QPainter& painter, const QSize& size, int scrollY,
                       TimelinePaintStats* stats) const;
    void paintLabels(QPainter& painter, const QSize& size, int scrollY) const;
    void updateScrollBar();
    void followSelection();
    void clickAt(const QPoint& pos);
    void pin(kernel::TaskId task);
    void rebuild();
    void indexTaskBars();
    /// The bar showing \p task (its unit's lane, not a core's), if any.
    std::optional<BarRef> barOfTask(kernel::TaskId task) const;
    /// The pinned task's dependency arrows; an end in a lane scrolled out of
    /// the \p height tall viewport stops at the edge it lies beyond.
    void paintArrows(QPainter& painter, int scrollY, int height) const;
    void paintRange(QPainter& painter, const QSize& size) const;
    double plotX(double timeNs) const;

    ResultPtr result_;
    std::shared_ptr<const codegen::Profile> profile_;
    std::shared_ptr<const TimelineData> data_;
    std::optional<TimelineData> emphasized_;
    QPointer<SelectionModel> selection_;
    TimeAxisModel* ownAxis_ = nullptr;
    QPointer<TimeAxisModel> axis_;
    TimelinePaintStats stats_;
    /// Drag state: where the press was and the axis then.
    std::optional<QPoint> pressAt_;
    TimeAxis pressAxis_;
    bool dragging_ = false;
    /// Shift+drag: the range's anchor time.
    std::optional<double> rangeAnchor_;
    std::optional<RangeSummary> range_;
    std::set<int32_t> expanded_;
    /// Per task, its bar on a lane of the whole unit or channel.
    std::vector<BarRef> taskBars_;
    kernel::TaskId pinned_ = kernel::kNoTask;
    std::vector<kernel::TaskId> deps_;
    std::vector<kernel::TaskId> successors_;
};

} // namespace stagecraft::views
