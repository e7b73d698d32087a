#pragma once
// The occupancy view (GraphTurbo Fig. 3b, Fig. 12): for a chosen core, its
// LB, and below it the cluster's GB, stacked occupancy by tensor over time
// with the capacity line and the spills. Shares the timeline's time axis and
// the selection.

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

    /// The core whose LB is shown.
    int core() const;
    void setCore(int core);

    QComboBox* coreChooser() const { return coreChooser_; }
    OccupancyPlot* lbPlot() const { return lbPlot_; }
    OccupancyPlot* gbPlot() const { return gbPlot_; }

private:
    void showCore(int core);
    void fitAxisToResult();

    ResultPtr result_;
    TimeAxisModel* ownAxis_ = nullptr;
    QComboBox* coreChooser_;
    OccupancyPlot* lbPlot_;
    OccupancyPlot* gbPlot_;
};

} // namespace stagecraft::views
