// The occupancy view: a core chooser and the plots' legend over two occupancy
// plots (the core's LB, the cluster's GB) that share one time axis.

#include "usage/occupancy_view.h"

#include "common/group_colors.h"
#include "usage/occupancy_plot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace stagecraft::views {

namespace {

std::vector<SpillMark> marksOutOf(const std::vector<SpillMark>& marks, kernel::PoolId pool,
                                  int32_t core) {
    std::vector<SpillMark> kept;
    std::copy_if(marks.begin(), marks.end(), std::back_inserter(kept), [&](const SpillMark& m) {
        return m.from == pool &&
               (core < 0 || (m.firstCore <= core && core < m.firstCore + m.cores));
    });
    return kept;
}

/// What each mark of the plots means, in the colours they are drawn with.
QLabel* legendLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setObjectName(QStringLiteral("occupancyLegend"));
    // A narrow dock clips it rather than growing to its width.
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    label->setTextFormat(Qt::RichText);
    label->setText(
        QObject::tr("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span> a tensor at "
                    "its address, coloured by its group (as in the graph) &nbsp;&nbsp; "
                    "<b>&#x2014;</b> bytes in use &nbsp;&nbsp; "
                    "<span style='color:%2'>- - -</span> capacity &nbsp;&nbsp; "
                    "<span style='color:%2'>&#x25BC;</span> a spill out of this memory "
                    "(at the top: a tensor it could not take)")
            .arg(groupColor(partition::GroupId(0)).name(), QColor(kOccupancyAlertRgb).name()));
    return label;
}

} // namespace

OccupancyView::OccupancyView(QWidget* parent)
    : QWidget(parent)
    , coreChooser_(new QComboBox(this))
    , lbPlot_(new OccupancyPlot(this))
    , gbPlot_(new OccupancyPlot(this)) {
    setObjectName(QStringLiteral("occupancyView"));
    coreChooser_->setObjectName(QStringLiteral("coreChooser"));
    lbPlot_->setObjectName(QStringLiteral("lbPlot"));
    gbPlot_->setObjectName(QStringLiteral("gbPlot"));
    auto* chooserRow = new QHBoxLayout;
    chooserRow->addWidget(new QLabel(tr("Core"), this));
    chooserRow->addWidget(coreChooser_);
    chooserRow->addSpacing(16);
    // The legend takes the rest of the row (its size policy ignores its hint).
    chooserRow->addWidget(legendLabel(this), 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(chooserRow);
    layout->addWidget(lbPlot_, 1);
    layout->addWidget(gbPlot_, 1);
    ownAxis_ = new TimeAxisModel(this);
    setTimeAxisModel(nullptr);
    connect(coreChooser_, &QComboBox::currentIndexChanged, this,
            [this](int index) { showCore(std::max(index, 0)); });
}

void OccupancyView::setSelectionModel(SelectionModel* model) {
    lbPlot_->setSelectionModel(model);
    gbPlot_->setSelectionModel(model);
}

void OccupancyView::setTimeAxisModel(TimeAxisModel* model) {
    model = model ? model : ownAxis_;
    lbPlot_->setTimeAxisModel(model);
    gbPlot_->setTimeAxisModel(model);
    fitAxisToResult();
}

void OccupancyView::setResult(ResultPtr result) {
    result_ = std::move(result);
    const QSignalBlocker blocker(coreChooser_);
    coreChooser_->clear();
    const int cores = result_ ? lbCoreCount(*result_) : 0;
    for (int c = 0; c < cores; ++c)
        coreChooser_->addItem(tr("core %1").arg(c));
    coreChooser_->setEnabled(cores > 1);
    coreChooser_->setCurrentIndex(cores > 0 ? 0 : -1);
    if (result_)
        gbPlot_->setUsage(result_, gbUsage(*result_),
                          marksOutOf(spillMarks(*result_), kernel::kGbPool, -1));
    else
        gbPlot_->setUsage(nullptr, {}, {});
    showCore(0);
    fitAxisToResult();
    followStep();
}

int OccupancyView::core() const {
    return std::max(coreChooser_->currentIndex(), 0);
}

void OccupancyView::setCore(int core) {
    coreChooser_->setCurrentIndex(core);
}

void OccupancyView::showCore(int core) {
    if (!result_) {
        lbPlot_->setUsage(nullptr, {}, {});
        return;
    }
    lbPlot_->setUsage(result_, lbUsage(*result_, core),
                      marksOutOf(spillMarks(*result_), kernel::kLbPool, core));
}

void OccupancyView::setHighlightModel(HighlightModel* model) {
    if (highlights_)
        disconnect(highlights_, nullptr, this, nullptr);
    highlights_ = model;
    if (highlights_)
        connect(highlights_, &HighlightModel::changed, this, &OccupancyView::followStep);
    followStep();
}

void OccupancyView::followStep() {
    const Highlights none;
    const Highlights& step = highlights_ ? highlights_->current() : none;
    // A spill out of the LB of cores the chooser does not show: show its first.
    if (step.spillIsCurrent && !step.spillsSoFar.empty() && result_ &&
        step.spillsSoFar.back().from == 0) {
        for (const SpillMark& mark : spillMarks(*result_))
            if (mark.buffer.value() == step.spillsSoFar.back().buffer &&
                (core() < mark.firstCore || core() >= mark.firstCore + mark.cores))
                setCore(mark.firstCore);
    }
    lbPlot_->setStepSpills(step);
    gbPlot_->setStepSpills(step);
    for (OccupancyPlot* plot : {lbPlot_, gbPlot_}) {
        if (plot->currentMark() < 0)
            continue;
        // Off screen: centre the shared axis on it, at the same zoom.
        const double time = plot->marks()[static_cast<size_t>(plot->currentMark())].time;
        TimeAxisModel* axis = plot->timeAxisModel();
        const double width = plot->plotRect().width();
        TimeAxis shown = axis->axis();
        if (time < shown.startNs || time > shown.endNs(width)) {
            shown.startNs = time - shown.nsPerPixel * width / 2;
            axis->setAxis(shown, width);
        }
    }
}

void OccupancyView::fitAxisToResult() {
    TimeAxisModel* model = lbPlot_->timeAxisModel();
    const double end = result_ ? result_->eval.sim.makespanNs : 0;
    // Another view of the same result may have set the range (and zoomed).
    if (end <= 0 || (model->rangeStart() == 0 && model->rangeEnd() == end))
        return;
    model->setRange(0, end, lbPlot_->plotRect().width());
}

} // namespace stagecraft::views
