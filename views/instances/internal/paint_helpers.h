#pragma once
// Internal to the instance painter: pens, fonts and the texts inside boxes
// and ellipses, in scene units (the painter maps them to the device).

#include "instances/instance_drawing.h"

#include <QColor>
#include <QFont>
#include <QPen>
#include <QRectF>
#include <QStringList>

#include <cstddef>

class QPainter;

namespace stagecraft::views::paint {

inline const QColor kText(20, 20, 20);
/// Algorithm 4 step-through: a binding not decided yet.
inline const QColor kUnboundText(140, 140, 140);

/// A pen of \p width device pixels whatever the zoom (0: one pixel).
QPen cosmeticPen(const QColor& color, double width = 0);
QFont pixelFont(double pixels, bool bold = false);

/// Lines of text centered in \p rect, the first one bold.
void drawCenteredLines(QPainter& painter, const QRectF& rect, const QStringList& lines,
                       double pixels);
/// The order position in a small circle at the top right of \p box (Fig.
/// 7f); nothing for 0 (not ordered).
void drawOrderBadge(QPainter& painter, const QRectF& box, int position);
/// Algorithm 4 at a step: the binding and scope decided so far ("" when
/// not yet); null outside the step-through's Algorithm 4 steps.
struct StepBinding {
    const QString* bind = nullptr;
    const QString* scope = nullptr;
};
/// The label of instance \p id, with shape, binding, scope and its order
/// position (\p orderPosition, 0 for no badge) from the detail zoom on;
/// with \p step, the binding and scope so far ("bind=?" in grey before).
void drawInstanceText(QPainter& painter, const InstanceDrawing& drawing, schedule::InstanceId id,
                      const QRectF& box, double scale, int orderPosition, StepBinding step = {});
/// Algorithm 3's states at a step (1 visited, 2 ready, 3 ordered): blue,
/// gold, green; the instance view's legend names them.
QColor orderStateColor(int state);

} // namespace stagecraft::views::paint
