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
    // One line per row, the kinds side by side: a dock shows many groups.
    return kBarHeight + 6;
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
    const QRect line(0, box.top() + 2, width(), kBarHeight + 2);
    if (row == 0) {
        painter.drawText(line.adjusted(6, 0, 0, 0).intersected(QRect(0, 0, kLabelWidth, height())),
                         Qt::AlignLeft | Qt::AlignVCenter, tr("whole run"));
    } else {
        const GroupUtilization& g = data_.groups[row - 1];
        painter.fillRect(QRect(6, line.top() + 2, 10, 10), groupColor(g.group));
        painter.drawText(
            QRect(22, line.top(), kLabelWidth - 28, line.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            tr("group %1, %2").arg(QString::fromStdString(g.label), formatNs(g.end - g.start)));
    }
    // A column per kind: its bar, then its label.
    const int kinds = static_cast<int>(std::max<size_t>(data_.kinds.size(), 1));
    const int column = std::max(1, (width() - kLabelWidth - 8) / kinds);
    const int barsWidth = std::max(1, column - kKindLabelWidth);
    for (int k = 0; k < static_cast<int>(data_.kinds.size()); ++k) {
        const int left = kLabelWidth + k * column;
        const int top = line.top() + 1;
        const double value = std::clamp(utilization(row, k), 0.0, 1.0);
        painter.fillRect(QRectF(left, top, barsWidth, kBarHeight),
                         palette().color(QPalette::AlternateBase));
        painter.fillRect(QRectF(left, top, value * barsWidth, kBarHeight),
                         unitKindColor(data_.kinds[static_cast<size_t>(k)].kind));
        painter.drawText(QRect(left + barsWidth + 6, top - 1, kKindLabelWidth - 10, kBarHeight + 2),
                         Qt::AlignLeft | Qt::AlignVCenter, barLabel(row, k));
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
