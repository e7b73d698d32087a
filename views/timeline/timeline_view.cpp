// The timeline widget: result and model wiring, geometry, painting and
// export (input handling is in timeline_view_input.cpp).

#include "timeline/timeline_view.h"

#include "timeline/timeline_emphasis.h"
#include "timeline/timeline_text.h"

#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QResizeEvent>
#include <QScrollBar>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace stagecraft::views {

using Geometry = TimelineGeometry;

TimelineView::TimelineView(QWidget* parent)
    : QAbstractScrollArea(parent)
    , ownAxis_(new TimeAxisModel(this)) {
    setObjectName(u"timelineView"_s);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    verticalScrollBar()->setSingleStep(Geometry::kLaneHeight);
    setMinimumSize(Geometry::kLabelWidth + 100, Geometry::kRulerHeight + 3 * Geometry::kLaneHeight);
    setTimeAxisModel(nullptr);
    setFocusPolicy(Qt::ClickFocus);
}

TimelineView::~TimelineView() = default;

void TimelineView::setResult(ResultPtr result) {
    // Task ids belong to one result.
    if (result != result_)
        pin(kernel::kNoTask);
    auto timeline = result ? std::make_shared<const TimelineData>(
                                 TimelineData::fromResult(*result, profile_.get(), expanded_))
                           : std::shared_ptr<const TimelineData>();
    setTimeline(std::move(timeline), std::move(result));
}

void TimelineView::setProfile(std::shared_ptr<const codegen::Profile> profile) {
    profile_ = std::move(profile);
    if (result_)
        setResult(result_);
}

void TimelineView::setTimeline(std::shared_ptr<const TimelineData> timeline, ResultPtr result) {
    data_ = std::move(timeline);
    result_ = std::move(result);
    indexTaskBars();
    if (range_)
        setRange(range_->startNs, range_->endNs);
    updateScrollBar();
    if (data_ && (axis_->rangeStart() != 0 || axis_->rangeEnd() != data_->makespanNs()))
        fitToView();
    followSelection();
}

void TimelineView::setSelectionModel(SelectionModel* model) {
    if (selection_)
        disconnect(selection_, nullptr, this, nullptr);
    selection_ = model;
    if (selection_)
        connect(selection_, &SelectionModel::changed, this, [this] { followSelection(); });
    followSelection();
}

void TimelineView::setTimeAxisModel(TimeAxisModel* model) {
    if (axis_)
        disconnect(axis_, nullptr, this, nullptr);
    axis_ = model != nullptr ? model : ownAxis_;
    connect(axis_, &TimeAxisModel::changed, this, [this] { viewport()->update(); });
    if (data_ && (axis_->rangeStart() != 0 || axis_->rangeEnd() != data_->makespanNs()))
        fitToView();
    viewport()->update();
}

double TimelineView::plotWidth() const {
    return std::max(1, viewport()->width() - Geometry::kLabelWidth);
}

int32_t TimelineView::laneAt(int y) const {
    if (!data_ || y < Geometry::kRulerHeight)
        return -1;
    const int lane =
        (y - Geometry::kRulerHeight + verticalScrollBar()->value()) / Geometry::kLaneHeight;
    return lane < data_->laneCount() ? lane : -1;
}

QRect TimelineView::laneRect(int32_t lane) const {
    const int top =
        Geometry::kRulerHeight + lane * Geometry::kLaneHeight - verticalScrollBar()->value();
    return {0, top, viewport()->width(), Geometry::kLaneHeight};
}

size_t TimelineView::emphasizedBarCount() const {
    return emphasized_ ? emphasized_->barCount() : 0;
}

void TimelineView::fitToView() {
    if (data_)
        axis_->setRange(0, data_->makespanNs(), plotWidth());
}

void TimelineView::followSelection() {
    emphasized_.reset();
    if (data_ && selection_)
        emphasized_ = emphasizedBars(*data_, selection_->current(), result_.get());
    viewport()->update();
}

void TimelineView::updateScrollBar() {
    const int lanes = data_ ? data_->laneCount() : 0;
    const int visible = std::max(0, viewport()->height() - Geometry::kRulerHeight);
    verticalScrollBar()->setPageStep(visible);
    verticalScrollBar()->setRange(0, std::max(0, lanes * Geometry::kLaneHeight - visible));
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBar();
    if (!data_)
        return;
    // A view that showed the whole run keeps showing it.
    const double oldWidth = event->oldSize().width() - Geometry::kLabelWidth;
    const double shown = axis_->axis().nsPerPixel * oldWidth;
    const double range = axis_->rangeEnd() - axis_->rangeStart();
    if (oldWidth <= 0 || shown >= range * (1 - 1e-9))
        fitToView();
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter painter(viewport());
    paintTimeline(painter, viewport()->size(), verticalScrollBar()->value(), &stats_);
}

void TimelineView::paintTimeline(QPainter& painter, const QSize& size, int scrollY,
                                 TimelinePaintStats* stats) const {
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    if (!data_)
        return;
    const double width = std::max(1, size.width() - Geometry::kLabelWidth);
    TimelinePainter lanes(painter, axis_->axis(), width);
    const ResultPtr result = result_;
    const BarLabeler labeler = [result](const TimelineBar& bar) {
        return barLabel(bar, result.get());
    };
    const int first = std::max(0, scrollY / Geometry::kLaneHeight);
    const int last =
        std::min(data_->laneCount() - 1,
                 (scrollY + size.height() - Geometry::kRulerHeight) / Geometry::kLaneHeight);
    painter.save();
    painter.setClipRect(QRect(Geometry::kLabelWidth, Geometry::kRulerHeight,
                              size.width() - Geometry::kLabelWidth, size.height()));
    for (int lane = first; lane <= last; ++lane) {
        const QRectF row(Geometry::kLabelWidth,
                         Geometry::kRulerHeight + lane * Geometry::kLaneHeight - scrollY, width,
                         Geometry::kLaneHeight);
        if (lane % 2 == 1)
            painter.fillRect(row, QColor(246, 246, 246));
        lanes.paintLane(*data_, lane, row, emphasized_ ? BarStyle::Dimmed : BarStyle::Normal,
                        labeler);
        if (emphasized_)
            lanes.paintLane(*emphasized_, lane, row, BarStyle::Emphasized, labeler);
    }
    paintArrows(painter, scrollY, size.height());
    painter.restore();
    paintRange(painter, size);
    painter.save();
    painter.setClipRect(QRect(Geometry::kLabelWidth, 0, size.width(), Geometry::kRulerHeight));
    lanes.paintRuler(QRectF(Geometry::kLabelWidth, 0, width, Geometry::kRulerHeight));
    painter.restore();
    paintLabels(painter, size, scrollY);
    if (stats != nullptr)
        *stats = lanes.stats();
}

void TimelineView::paintLabels(QPainter& painter, const QSize& size, int scrollY) const {
    painter.fillRect(QRect(0, 0, Geometry::kLabelWidth, size.height()), QColor(236, 236, 236));
    painter.setPen(QColor(40, 40, 40));
    const QFontMetrics metrics(painter.font());
    for (int lane = 0; lane < data_->laneCount(); ++lane) {
        const int top = Geometry::kRulerHeight + lane * Geometry::kLaneHeight - scrollY;
        if (top + Geometry::kLaneHeight < Geometry::kRulerHeight || top > size.height())
            continue;
        const QRect box(6, top, Geometry::kLabelWidth - 10, Geometry::kLaneHeight);
        const TimelineLane& shown = data_->lane(lane);
        QString name = QString::fromStdString(shown.name);
        if (shown.expandable)
            name = (expanded_.contains(shown.resource) ? u"▾ "_s : u"▸ "_s) + name;
        painter.drawText(box, Qt::AlignVCenter | Qt::AlignLeft,
                         metrics.elidedText(name, Qt::ElideRight, box.width()));
    }
    painter.fillRect(QRect(0, 0, Geometry::kLabelWidth, Geometry::kRulerHeight), Qt::white);
    painter.setPen(QColor(170, 170, 170));
    painter.drawLine(Geometry::kLabelWidth - 1, 0, Geometry::kLabelWidth - 1, size.height());
}

bool TimelineView::exportPng(const QString& path, QString* error) const {
    const auto fail = [error](const QString& message) {
        if (error != nullptr)
            *error = message;
        return false;
    };
    if (!data_)
        return fail(u"no timeline to export"_s);
    const int lanes = data_->laneCount();
    const QSize size(viewport()->width(),
                     std::min(32000, Geometry::kRulerHeight + lanes * Geometry::kLaneHeight));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    paintTimeline(painter, size, 0, nullptr);
    painter.end();
    if (!image.save(path, "PNG"))
        return fail(u"cannot write '%1'"_s.arg(path));
    return true;
}

} // namespace stagecraft::views
