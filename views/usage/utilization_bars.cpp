// Utilization bars per kind, whole run and per group.

#include "usage/utilization_bars.h"

#include "common/group_colors.h"
#include "common/time_axis.h"
#include "usage/busy_chart.h"

#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>

#include <algorithm>

namespace stagecraft::views {

UtilizationBars::UtilizationBars(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("utilizationBars"));
}

void UtilizationBars::setData(OverlapData data) {
    data_ = std::move(data);
    updateGeometry();
    update();
}

void UtilizationBars::setSelectionModel(SelectionModel* model) {
    if (selection_)
        disconnect(selection_, nullptr, this, nullptr);
    selection_ = model;
    if (selection_)
        connect(selection_, &SelectionModel::changed, this, qOverload<>(&QWidget::update));
    update();
}

int UtilizationBars::rowHeight() const {
    return static_cast<int>(std::max<size_t>(data_.kinds.size(), 1)) * (kBarHeight + 2) + 8;
}

QRect UtilizationBars::rowRect(int row) const {
    return QRect(0, row * rowHeight(), width(), rowHeight());
}

int UtilizationBars::rowAt(const QPoint& pos) const {
    const int row = pos.y() / std::max(rowHeight(), 1);
    return pos.y() >= 0 && row < rowCount() ? row : -1;
}

double UtilizationBars::utilization(int row, int kind) const {
    if (row == 0)
        return data_.kinds[static_cast<size_t>(kind)].utilization;
    return data_.groups[row - 1].utilization[static_cast<size_t>(kind)];
}

QString UtilizationBars::barLabel(int row, int kind) const {
    return QStringLiteral("%1 %2%")
        .arg(QString::fromStdString(data_.kinds[static_cast<size_t>(kind)].kind))
        .arg(utilization(row, kind) * 100, 0, 'f', 1);
}

QSize UtilizationBars::sizeHint() const {
    return QSize(400, rowCount() * rowHeight());
}

void UtilizationBars::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    for (int row = 0; row < rowCount(); ++row)
        if (rowRect(row).intersects(event->rect()))
            paintRow(painter, row);
}

void UtilizationBars::paintRow(QPainter& painter, int row) {
    const QRect box = rowRect(row);
    const bool selected =
        row > 0 && selection_ && selection_->current().kind == Selection::Kind::Group &&
        partition::GroupId(selection_->current().id) == data_.groups[row - 1].group;
    if (selected)
        painter.fillRect(box, palette().highlight().color().lighter(170));
    painter.setPen(palette().color(QPalette::Text));
    if (row == 0) {
        painter.drawText(QRect(6, box.top() + 4, kLabelWidth - 12, 16), Qt::AlignLeft,
                         tr("whole run"));
    } else {
        const GroupUtilization& g = data_.groups[row - 1];
        painter.fillRect(QRect(6, box.top() + 6, 10, 10), groupColor(g.group));
        painter.drawText(
            QRect(22, box.top() + 4, kLabelWidth - 28, 16), Qt::AlignLeft,
            tr("group %1, %2").arg(QString::fromStdString(g.label), formatNs(g.end - g.start)));
    }
    const int barsWidth = std::max(1, width() - kLabelWidth - 110);
    for (size_t k = 0; k < data_.kinds.size(); ++k) {
        const int top = box.top() + 4 + static_cast<int>(k) * (kBarHeight + 2);
        const double value = std::clamp(utilization(row, static_cast<int>(k)), 0.0, 1.0);
        painter.fillRect(QRectF(kLabelWidth, top, barsWidth, kBarHeight),
                         palette().color(QPalette::AlternateBase));
        painter.fillRect(QRectF(kLabelWidth, top, value * barsWidth, kBarHeight),
                         unitKindColor(data_.kinds[k].kind));
        painter.drawText(QRect(kLabelWidth + barsWidth + 6, top - 1, 104, kBarHeight + 2),
                         Qt::AlignLeft | Qt::AlignVCenter, barLabel(row, static_cast<int>(k)));
    }
    painter.setPen(palette().color(QPalette::Midlight));
    painter.drawLine(box.bottomLeft(), box.bottomRight());
}

void UtilizationBars::mouseReleaseEvent(QMouseEvent* event) {
    const int row = rowAt(event->position().toPoint());
    if (row <= 0 || !selection_)
        return;
    selection_->select(Selection{Selection::Kind::Group, data_.groups[row - 1].group.value(), -1});
}

} // namespace stagecraft::views
