#pragma once
// The Roofline dock: the shown result's kernels (or groups: the box) on a
// hierarchical roofline (roofline_plot.h, sim::rooflineChart), with a line
// saying what is drawn and how many points have no traffic to place them.

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "roofline/roofline_plot.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace stagecraft::views {

class RooflineView : public QWidget {
    Q_OBJECT
public:
    explicit RooflineView(QWidget* parent = nullptr);

    /// Shows \p result's roofline (computed here, sim::rooflineChart).
    void setResult(ResultPtr result);
    /// Shows \p chart for \p result as given.
    void setChart(ResultPtr result, sim::RooflineChart chart);
    void setSelectionModel(SelectionModel* selection);
    void setGrain(RooflineGrain grain);

    RooflinePlot* plot() const { return plot_; }
    QString summary() const;

private:
    void updateSummary();

    RooflinePlot* plot_;
    QComboBox* grainBox_;
    QLabel* summary_;
};

} // namespace stagecraft::views
