// The occupancy plot's data, selection and interaction: which rectangles the
// selection covers, hit tests for tool tips and clicks.

#include "usage/occupancy_plot.h"

#include "usage/occupancy_labels.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace stagecraft::views {

bool selectionCovers(const PipelineResult& result, const Selection& selection,
                     const OccupancyRect& rect) {
    switch (selection.kind) {
    case Selection::Kind::Tensor:
        return rect.tensor == ir::TensorId(selection.id);
    case Selection::Kind::Group:
        return rect.group == partition::GroupId(selection.id);
    case Selection::Kind::Instance:
        return rect.instance.value() == selection.id;
    case Selection::Kind::Op:
        return result.graph && rect.tensor != ir::kNoTensor &&
               result.graph->tensor(rect.tensor).producer == ir::OpId(selection.id);
    case Selection::Kind::None:
        return false;
    }
    return false;
}

OccupancyPlot::OccupancyPlot(QWidget* parent)
    : TimePlot(parent) {
    setObjectName(QStringLiteral("occupancyPlot"));
}

void OccupancyPlot::setUsage(ResultPtr result, MemoryUsage usage, std::vector<SpillMark> marks) {
    result_ = std::move(result);
    usage_ = std::move(usage);
    allMarks_ = std::move(marks);
    std::stable_sort(allMarks_.begin(), allMarks_.end(),
                     [](const SpillMark& a, const SpillMark& b) { return a.time < b.time; });
    filterMarks();
    updateEmphasis();
}

void OccupancyPlot::setStepSpills(const Highlights& step) {
    stepping_ = step.spillStepping;
    stepSpills_ = step.spillsSoFar;
    stepHasCurrent_ = step.spillIsCurrent;
    filterMarks();
    update();
}

namespace {

bool sameSpill(const SpillMark& mark, const SpillRef& ref) {
    return mark.buffer.value() == ref.buffer && mark.task == ref.task &&
           mark.from.value() == ref.from;
}

} // namespace

void OccupancyPlot::filterMarks() {
    currentMark_ = -1;
    if (!stepping_) {
        marks_ = allMarks_;
        return;
    }
    marks_.clear();
    for (const SpillMark& mark : allMarks_) {
        const bool decided = std::any_of(stepSpills_.begin(), stepSpills_.end(),
                                         [&](const SpillRef& ref) { return sameSpill(mark, ref); });
        if (!decided)
            continue;
        if (stepHasCurrent_ && sameSpill(mark, stepSpills_.back()))
            currentMark_ = static_cast<int>(marks_.size());
        marks_.push_back(mark);
    }
}

void OccupancyPlot::setSelectionModel(SelectionModel* model) {
    if (selection_)
        disconnect(selection_, nullptr, this, nullptr);
    selection_ = model;
    if (selection_)
        connect(selection_, &SelectionModel::changed, this, [this] { updateEmphasis(); });
    updateEmphasis();
}

void OccupancyPlot::updateEmphasis() {
    emphasized_.clear();
    isEmphasized_.assign(usage_.rects.size(), false);
    if (result_ && selection_) {
        for (size_t i = 0; i < usage_.rects.size(); ++i)
            if (selectionCovers(*result_, selection_->current(), usage_.rects[i])) {
                emphasized_.push_back(static_cast<int32_t>(i));
                isEmphasized_[i] = true;
            }
    }
    update();
}

AddressScale OccupancyPlot::scale() const {
    const QRect plot = plotRect();
    const int64_t highest = std::max(usage_.capacityBytes, usage_.highestAddress);
    // A little headroom so that the capacity line is not on the edge.
    const auto top = static_cast<int64_t>(std::ceil(static_cast<double>(highest) * 1.08));
    return AddressScale{static_cast<double>(plot.top()), static_cast<double>(plot.height()),
                        std::max<int64_t>(top, 1)};
}

std::vector<ValueTick> OccupancyPlot::valueTicks() const {
    const AddressScale s = scale();
    const std::vector<int64_t> addresses = s.tickAddresses();
    std::vector<ValueTick> ticks;
    // Top to bottom, as TimePlot paints them.
    for (auto it = addresses.rbegin(); it != addresses.rend(); ++it)
        ticks.push_back({s.toY(static_cast<double>(*it)), formatBufferBytes(*it)});
    return ticks;
}

QPointF OccupancyPlot::positionOf(double ns, double address) const {
    return QPointF(xOf(ns), scale().toY(address));
}

int OccupancyPlot::rectAt(const QPoint& pos) const {
    if (!plotRect().contains(pos))
        return -1;
    const double time = timeAt(pos.x());
    const double address = scale().toAddress(pos.y());
    // One pixel of slack in time, so that thin rectangles can be hit.
    const double slack = timeAxisModel()->axis().nsPerPixel;
    int best = -1;
    for (size_t i = 0; i < usage_.rects.size(); ++i) {
        const OccupancyRect& r = usage_.rects[i];
        if (r.start - slack <= time && time < r.end + slack &&
            static_cast<double>(r.offset) <= address &&
            address < static_cast<double>(r.offset + r.bytes)) {
            if (r.start <= time && time < r.end)
                return static_cast<int>(i);
            best = best < 0 ? static_cast<int>(i) : best;
        }
    }
    return best;
}

int OccupancyPlot::markAt(const QPoint& pos) const {
    for (size_t i = 0; i < marks_.size(); ++i) {
        const QPointF at(xOf(marks_[i].time), markY(marks_[i]));
        if (std::abs(at.x() - pos.x()) <= 5 && std::abs(at.y() - pos.y()) <= 6)
            return static_cast<int>(i);
    }
    return -1;
}

QString OccupancyPlot::toolTipAt(const QPoint& pos) const {
    const QString memory = memoryTitle(usage_);
    if (int m = markAt(pos); m >= 0) {
        const SpillMark& mark = marks_[static_cast<size_t>(m)];
        return QStringLiteral("spill %1 at %2\n%3 leave %4")
            .arg(QString::fromStdString(spillLabel(mark)), formatNs(mark.time),
                 formatBufferBytes(mark.bytes), memory);
    }
    const int i = rectAt(pos);
    if (i < 0)
        return {};
    const OccupancyRect& r = usage_.rects[static_cast<size_t>(i)];
    QString group = r.group != partition::kNoGroup
                        ? QString::fromStdString(partition::Partition::label(r.group))
                        : QStringLiteral("-");
    return QStringLiteral("%1\n%2 at offset %3\n[%4, %5)\n%6, group %7")
        .arg(QString::fromStdString(r.tensorName), formatBufferBytes(r.bytes),
             QString::number(r.offset), formatNs(r.start), formatNs(r.end), memory, group);
}

void OccupancyPlot::clickedAt(const QPoint& pos) {
    const int i = rectAt(pos);
    if (i < 0 || !selection_)
        return;
    const OccupancyRect& r = usage_.rects[static_cast<size_t>(i)];
    selection_->select(Selection{Selection::Kind::Tensor, r.tensor.value(), -1});
}

} // namespace stagecraft::views
