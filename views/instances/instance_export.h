#pragma once
// The whole instance drawing as an SVG (vector, full detail) or a PNG on a
// white background (scaled down when the drawing would exceed ~100 megapixels).

#include "instances/instance_drawing.h"
#include "instances/instance_painter.h"

#include <QString>

namespace stagecraft::views {

bool exportDrawingSvg(const InstanceDrawing& drawing, const PaintOptions& options,
                      const QString& path, QString* error);
bool exportDrawingPng(const InstanceDrawing& drawing, const PaintOptions& options,
                      const QString& path, QString* error);

} // namespace stagecraft::views
