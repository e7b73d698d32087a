// Text and pens shared by the instance painter: labels sized for the zoom,
// the lines of Fig. 9 ellipses, the order badge of Fig. 7f.

#include "instances/internal/paint_helpers.h"

#include "instances/instance_painter.h"
#include "instances/instance_text.h"

#include <QPainter>

#include <algorithm>

namespace stagecraft::views::paint {

QPen cosmeticPen(const QColor& color, double width) {
    QPen pen(color, width);
    pen.setCosmetic(true);
    return pen;
}

QFont pixelFont(double pixels, bool bold) {
    QFont font;
    font.setPixelSize(std::max(1, static_cast<int>(pixels)));
    font.setBold(bold);
    return font;
}

void drawCenteredLines(QPainter& painter, const QRectF& rect, const QStringList& lines,
                       double pixels) {
    const double lineHeight = pixels * 1.25;
    double y = rect.center().y() - lineHeight * static_cast<double>(lines.size()) / 2;
    for (qsizetype i = 0; i < lines.size(); ++i, y += lineHeight) {
        painter.setFont(pixelFont(pixels, i == 0));
        painter.drawText(QRectF(rect.left(), y, rect.width(), lineHeight), Qt::AlignCenter,
                         lines[i]);
    }
}

void drawOrderBadge(QPainter& painter, const QRectF& box, int position) {
    if (position <= 0)
        return;
    const QString text = QString::number(position);
    painter.setFont(pixelFont(10, true));
    const double width = std::max(22.0, painter.fontMetrics().horizontalAdvance(text) + 8.0);
    const QRectF badge(box.right() - width - 3, box.top() + 3, width, 22);
    painter.setPen(cosmeticPen(kText));
    painter.setBrush(Qt::white);
    painter.drawEllipse(badge);
    painter.drawText(badge, Qt::AlignCenter, text);
}

QColor orderStateColor(int state) {
    switch (state) {
    case 1:
        return QColor(0x1f, 0x77, 0xb4);
    case 2:
        return QColor(0xd9, 0xa4, 0x00);
    default:
        return QColor(0x2c, 0xa0, 0x2c);
    }
}

void drawInstanceText(QPainter& painter, const InstanceDrawing& drawing, schedule::InstanceId id,
                      const QRectF& box, double scale, int orderPosition, StepBinding step) {
    painter.setPen(kText);
    if (scale < InstancePainter::kDetailScale) {
        // The order position, when shown, takes the right third of the box
        // as a small circled number; the label the rest.
        QRectF label = box;
        if (orderPosition > 0) {
            const double side = std::min(box.height() * 0.62, box.width() * 0.3);
            const QRectF badge(box.right() - side - box.height() * 0.12,
                               box.center().y() - side / 2, side, side);
            label.setRight(badge.left());
            painter.setBrush(Qt::white);
            painter.setPen(cosmeticPen(kText));
            painter.drawEllipse(badge);
            painter.setFont(pixelFont(side * 0.55, true));
            painter.drawText(badge, Qt::AlignCenter, QString::number(orderPosition));
        }
        // 13 px on screen when it fits; bold digits are about 0.62 em wide.
        const auto chars = static_cast<double>(std::max<qsizetype>(drawing.labels[id].size(), 2));
        painter.setFont(pixelFont(
            std::min({label.height() * 0.7, 13 / scale, label.width() * 0.9 / (0.62 * chars)}),
            true));
        painter.drawText(label, Qt::AlignCenter, drawing.labels[id]);
        return;
    }
    const QRectF text = box.adjusted(6, 4, -4, -4);
    painter.setFont(pixelFont(14, true));
    painter.drawText(text, Qt::AlignLeft | Qt::AlignTop, drawing.labels[id]);
    painter.setFont(pixelFont(10));
    QStringList details = instanceDetails(drawing.schedule().instances[id]);
    // Algorithm 4 so far: "bind=?" until the instance is bound.
    const bool unbound = step.bind && step.bind->isEmpty();
    if (step.bind && details.size() >= 3) {
        const QString unknown = QStringLiteral("?");
        details[1] = QStringLiteral("bind=") + (unbound ? unknown : *step.bind);
        details[2] = QStringLiteral("scope=") + (unbound ? unknown : *step.scope);
    }
    double y = text.top() + 22;
    for (qsizetype i = 0; i < details.size(); ++i) {
        painter.setPen(unbound && i > 0 ? kUnboundText : kText);
        const QString elided = painter.fontMetrics().elidedText(details[i], Qt::ElideRight,
                                                                static_cast<int>(text.width()));
        painter.drawText(QPointF(text.left(), y + 10), elided);
        y += 14;
    }
    painter.setPen(kText);
    drawOrderBadge(painter, box, orderPosition);
}

} // namespace stagecraft::views::paint
