// The roofline plot's data and interaction (roofline_plot.h); its painting
// is roofline_painting.cpp. Markers are hit-tested in drawing order, the
// nearest within a few pixels winning, as the sweep scatter picks points.

#include "roofline/roofline_plot.h"

#include "common/byte_text.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>

#include <cmath>

namespace stagecraft::views {

namespace {

constexpr double kHitRadius = 7;

QString levelName(size_t level) {
    const std::string_view name = sim::rooflineLevelName(level);
    return QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
}

} // namespace

RooflinePlot::RooflinePlot(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("rooflinePlot"));
    setMouseTracking(true);
}

void RooflinePlot::setChart(ResultPtr result, sim::RooflineChart chart) {
    result_ = std::move(result);
    chart_ = std::move(chart);
    update();
}

void RooflinePlot::setGrain(RooflineGrain grain) {
    grain_ = grain;
    update();
}

void RooflinePlot::setSelectionModel(SelectionModel* selection) {
    if (selection_)
        disconnect(selection_, nullptr, this, nullptr);
    selection_ = selection;
    if (selection_)
        connect(selection_, &SelectionModel::changed, this, [this] { update(); });
    update();
}

const std::vector<sim::RooflinePoint>& RooflinePlot::points() const {
    return grain_ == RooflineGrain::Kernels ? chart_.kernels : chart_.groups;
}

QRectF RooflinePlot::plotRect() const {
    // Left: the throughput ticks and title; top: the legend; bottom: the
    // intensity ticks and title.
    return QRectF(rect()).adjusted(78, 34, -18, -46);
}

RooflineAxes RooflinePlot::axes() const {
    return RooflineAxes::fit(chart_, points(), plotRect());
}

std::vector<RooflinePlot::Marker> RooflinePlot::markers() const {
    const RooflineAxes fitted = axes();
    std::vector<Marker> drawn;
    const std::vector<sim::RooflinePoint>& all = points();
    for (size_t p = 0; p < all.size(); ++p) {
        if (all[p].opsPerSecond() <= 0)
            continue;
        for (size_t level = 0; level < all[p].bytes.size(); ++level)
            if (all[p].intensity(level) > 0)
                drawn.push_back(
                    {p, level, fitted.at(all[p].intensity(level), all[p].opsPerSecond())});
    }
    return drawn;
}

std::optional<RooflinePlot::Marker> RooflinePlot::markerAt(QPointF position) const {
    std::optional<Marker> nearest;
    double best = kHitRadius;
    for (const Marker& marker : markers()) {
        const double distance =
            std::hypot(marker.at.x() - position.x(), marker.at.y() - position.y());
        if (distance <= best) {
            best = distance;
            nearest = marker;
        }
    }
    return nearest;
}

QString RooflinePlot::tooltipOf(const Marker& marker) const {
    const sim::RooflinePoint& point = points()[marker.point];
    const QString label = QString::fromStdString(point.label);
    const QString group = QString::fromStdString(partition::Partition::label(point.group));
    const double intensity = point.intensity(marker.level);
    const double bandwidth = chart_.bandwidth[marker.level];
    const double bound = bandwidth > 0 ? std::min(chart_.peakOpsPerSecond, bandwidth * intensity)
                                       : chart_.peakOpsPerSecond;
    const bool memoryBound = bandwidth > 0 && bandwidth * intensity < chart_.peakOpsPerSecond;
    QString tip = point.kernel >= 0 ? tr("Kernel %1 of group %2").arg(label, group)
                                    : tr("Group %1").arg(label);
    tip += u'\n' + tr("At %1: %2 ops/B").arg(levelName(marker.level), siText(intensity));
    tip += u'\n' + tr("Achieved %1ops/s, %2 % of the %3 ceiling here (%4ops/s)")
                       .arg(siText(point.opsPerSecond()))
                       .arg(bound > 0 ? 100.0 * point.opsPerSecond() / bound : 0.0, 0, 'f', 1)
                       .arg(memoryBound ? levelName(marker.level) : tr("compute"), siText(bound));
    tip += u'\n' + tr("%1ops in %2 µs").arg(siText(point.ops)).arg(point.seconds * 1e6, 0, 'f', 1);
    QStringList bytes;
    for (size_t level = 0; level < point.bytes.size(); ++level)
        if (point.bytes[level] > 0)
            bytes << levelName(level) + u' ' +
                         formatBytes(static_cast<int64_t>(std::llround(point.bytes[level])));
    tip += u'\n' + tr("Bytes: %1").arg(bytes.join(QStringLiteral(", ")));
    return tip;
}

Selection RooflinePlot::selectionOf(size_t point) const {
    const sim::RooflinePoint& p = points()[point];
    if (p.kernel >= 0 && result_ &&
        static_cast<size_t>(p.kernel) < result_->eval.program.kernels.size())
        return {Selection::Kind::Instance,
                result_->eval.program.kernels[static_cast<size_t>(p.kernel)].instance.value(), -1};
    return {Selection::Kind::Group, p.group.value(), -1};
}

int32_t RooflinePlot::selectedInstance() const {
    if (!selection_ || selection_->current().kind != Selection::Kind::Instance)
        return -1;
    return selection_->current().id;
}

int32_t RooflinePlot::selectedGroup() const {
    if (!selection_ || !result_)
        return -1;
    const Selection& s = selection_->current();
    const schedule::Schedule& schedule = result_->eval.schedule;
    if (s.kind == Selection::Kind::Group)
        return s.id;
    if (s.kind == Selection::Kind::Instance && s.id >= 0 &&
        static_cast<size_t>(s.id) < schedule.instances.size())
        return schedule.instances[schedule::InstanceId{s.id}].group.value();
    if (s.kind == Selection::Kind::Op && result_->graph && s.id >= 0 &&
        static_cast<size_t>(s.id) < result_->graph->opCount())
        return schedule.partition.groupOf(ir::OpId{s.id}).value();
    return -1;
}

bool RooflinePlot::isSelected(size_t point) const {
    const sim::RooflinePoint& p = points()[point];
    const int32_t instance = selectedInstance();
    // A kernel stands for its instance; groups (and kernels under a
    // selected group or op) for their group.
    if (p.kernel >= 0 && instance >= 0)
        return selectionOf(point).id == instance;
    const int32_t group = selectedGroup();
    return group >= 0 && p.group.value() == group;
}

QSize RooflinePlot::sizeHint() const {
    return {720, 420};
}

QSize RooflinePlot::minimumSizeHint() const {
    return {320, 220};
}

bool RooflinePlot::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const std::optional<Marker> marker = markerAt(help->pos()))
            QToolTip::showText(help->globalPos(), tooltipOf(*marker), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void RooflinePlot::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !selection_) {
        QWidget::mousePressEvent(event);
        return;
    }
    if (const std::optional<Marker> marker = markerAt(event->position()))
        selection_->select(selectionOf(marker->point));
}

} // namespace stagecraft::views
