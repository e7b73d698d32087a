// The Roofline dock's layout (roofline_view.h): a bar with the grain and
// the summary above the plot.

#include "roofline/roofline_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace stagecraft::views {

RooflineView::RooflineView(QWidget* parent)
    : QWidget(parent)
    , plot_(new RooflinePlot(this))
    , grainBox_(new QComboBox(this))
    , summary_(new QLabel(this)) {
    grainBox_->setObjectName(QStringLiteral("rooflineGrain"));
    grainBox_->addItem(tr("Kernels"));
    grainBox_->addItem(tr("Groups"));
    summary_->setObjectName(QStringLiteral("rooflineSummary"));
    summary_->setWordWrap(true);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("A point per"), this));
    bar->addWidget(grainBox_);
    bar->addWidget(summary_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    connect(grainBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
        setGrain(index == 1 ? RooflineGrain::Groups : RooflineGrain::Kernels);
    });
    updateSummary();
}

void RooflineView::setResult(ResultPtr result) {
    sim::RooflineChart chart;
    if (result)
        chart = sim::rooflineChart(result->arch, result->eval);
    setChart(std::move(result), std::move(chart));
}

void RooflineView::setChart(ResultPtr result, sim::RooflineChart chart) {
    plot_->setChart(std::move(result), std::move(chart));
    updateSummary();
}

void RooflineView::setSelectionModel(SelectionModel* selection) {
    plot_->setSelectionModel(selection);
}

void RooflineView::setGrain(RooflineGrain grain) {
    grainBox_->setCurrentIndex(grain == RooflineGrain::Groups ? 1 : 0);
    plot_->setGrain(grain);
    updateSummary();
}

QString RooflineView::summary() const {
    return summary_->text();
}

void RooflineView::updateSummary() {
    const std::vector<sim::RooflinePoint>& points = plot_->points();
    if (points.empty()) {
        summary_->setText(tr("Open a model to see its kernels against the chip's ceilings."));
        return;
    }
    int unplaced = 0;
    for (const sim::RooflinePoint& point : points) {
        bool placed = false;
        for (size_t level = 0; level < point.bytes.size(); ++level)
            placed = placed || point.intensity(level) > 0;
        unplaced += placed && point.opsPerSecond() > 0 ? 0 : 1;
    }
    const sim::RooflineChart& chart = plot_->chart();
    QString text =
        tr("%1 %2 of %3 at %4 (x: operations per byte moved at a level, y: "
           "operations over the time from its first task to its last). Hover a marker for its "
           "figures; a click selects it in every view.")
            .arg(points.size())
            .arg(plot_->grain() == RooflineGrain::Kernels
                     ? (points.size() == 1 ? tr("kernel") : tr("kernels"))
                     : (points.size() == 1 ? tr("group") : tr("groups")))
            .arg(QString::fromStdString(chart.strategy), QString::fromStdString(chart.precision));
    if (unplaced > 0)
        text += tr(" %1 without operations or traffic are not drawn.").arg(unplaced);
    summary_->setText(text);
}

} // namespace stagecraft::views
