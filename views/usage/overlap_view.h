#pragma once
// The compute-unit overlap view (GraphTurbo §4.4, Fig. 16/17): how many units
// of each kind are busy over time (on the timeline's shared time axis), and
// utilization bars per kind for the whole run and per group.

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "common/time_axis.h"

#include <QWidget>

namespace stagecraft::views {

class BusyChart;
class UtilizationBars;

class OverlapView : public QWidget {
    Q_OBJECT
public:
    explicit OverlapView(QWidget* parent = nullptr);

    void setResult(ResultPtr result);
    void setSelectionModel(SelectionModel* model);
    /// Shares \p model's axis (nullptr: the view's own).
    void setTimeAxisModel(TimeAxisModel* model);

    BusyChart* busyChart() const { return busyChart_; }
    UtilizationBars* utilizationBars() const { return bars_; }

private:
    void fitAxisToResult();

    ResultPtr result_;
    TimeAxisModel* ownAxis_;
    BusyChart* busyChart_;
    UtilizationBars* bars_;
};

} // namespace stagecraft::views
