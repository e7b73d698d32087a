#pragma once
// The occupancy view (GraphTurbo Fig. 3b, Fig. 12): for a chosen core, its
// LB, and below it the cluster's GB, stacked occupancy by tensor over time
// with the capacity line and the spills. Shares the timeline's time axis and
// the selection.

#include "common/highlight.h"
#include "common/pipeline_result.h"
#include "common/selection.h"
#include "common/time_axis.h"

#include <QWidget>

class QComboBox;

namespace stagecraft::views {

class OccupancyPlot;

class OccupancyView : public QWidget {
    Q_OBJECT
public:
    explicit OccupancyView(QWidget* parent = nullptr);

    void setResult(ResultPtr result);
    void setSelectionModel(SelectionModel* model);
    /// Shares \p model's axis (nullptr: the view's own).
    void setTimeAxisModel(TimeAxisModel* model);
    /// Follows the step-through's §4.3 steps (not owned): the plots mark
    /// the spills decided so far; the step's own spill is brought into
    /// sight, on its core.
    void setHighlightModel(HighlightModel* model);

    /// The core whose LB is shown.
    int core() const;
    void setCore(int core);

    QComboBox* coreChooser() const { return coreChooser_; }
    OccupancyPlot* lbPlot() const { return lbPlot_; }
    OccupancyPlot* gbPlot() const { return gbPlot_; }

private:
    void showCore(int core);
    void fitAxisToResult();
    void followStep();

    ResultPtr result_;
    TimeAxisModel* ownAxis_ = nullptr;
    HighlightModel* highlights_ = nullptr;
    QComboBox* coreChooser_;
    OccupancyPlot* lbPlot_;
    OccupancyPlot* gbPlot_;
};

} // namespace stagecraft::views
