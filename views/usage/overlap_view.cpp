// The overlap view: a legend and the busy-units chart above the utilization
// bars (in a scroll area: ResNet-50 has dozens of groups).

#include "usage/overlap_view.h"

#include "usage/busy_chart.h"
#include "usage/utilization_bars.h"

#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

namespace stagecraft::views {

namespace {

/// What the chart's two shades and the bars mean (matrix's colours).
QLabel* legendLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setObjectName(QStringLiteral("overlapLegend"));
    // A narrow dock clips it rather than growing to its width.
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    label->setContentsMargins(6, 2, 6, 2);
    label->setTextFormat(Qt::RichText);
    label->setText(
        QObject::tr("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span> units busy on "
                    "average over a pixel's time &nbsp;&nbsp; "
                    "<span style='background:%2'>&nbsp;&nbsp;&nbsp;</span> the most "
                    "busy at once in it &nbsp;&nbsp; bars below: each kind's busy "
                    "share of the run and of each group (groups overlap in time under "
                    "across-layer scheduling, so their times add up to more than the run)")
            .arg(unitKindColor("matrix").name(), unitKindLightColor("matrix").name()));
    return label;
}

} // namespace

OverlapView::OverlapView(QWidget* parent)
    : QWidget(parent)
    , ownAxis_(new TimeAxisModel(this))
    , busyChart_(new BusyChart)
    , bars_(new UtilizationBars) {
    setObjectName(QStringLiteral("overlapView"));
    auto* scroll = new QScrollArea;
    scroll->setWidget(bars_);
    scroll->setWidgetResizable(true);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(busyChart_);
    splitter->addWidget(scroll);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(legendLabel(this));
    layout->addWidget(splitter);
    setTimeAxisModel(nullptr);
}

void OverlapView::setResult(ResultPtr result) {
    result_ = std::move(result);
    OverlapData overlap = result_ ? overlapData(*result_) : OverlapData{};
    busyChart_->setData(overlap);
    bars_->setData(std::move(overlap));
    fitAxisToResult();
}

void OverlapView::setSelectionModel(SelectionModel* model) {
    bars_->setSelectionModel(model);
}

void OverlapView::setTimeAxisModel(TimeAxisModel* model) {
    busyChart_->setTimeAxisModel(model ? model : ownAxis_);
    fitAxisToResult();
}

void OverlapView::fitAxisToResult() {
    TimeAxisModel* model = busyChart_->timeAxisModel();
    const double end = result_ ? result_->eval.sim.makespanNs : 0;
    // Another view of the same result may have set the range (and zoomed).
    if (end <= 0 || (model->rangeStart() == 0 && model->rangeEnd() == end))
        return;
    model->setRange(0, end, busyChart_->plotRect().width());
}

} // namespace stagecraft::views
