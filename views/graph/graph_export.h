#pragma once
// The whole graph scene as an SVG or PNG file, on white, whatever part of it
// the view shows.

#include <QSizeF>
#include <QString>

class QGraphicsScene;

namespace stagecraft::views::graphview {

/// Writes \p scene as SVG (1 scene point = 1 SVG unit) to \p path; on failure
/// returns false with the reason in \p error (when given).
bool exportSceneSvg(QGraphicsScene& scene, const QString& path, QString* error);

/// Writes \p scene as PNG at 2 pixels per point, less for scenes that would
/// exceed 16,384 pixels a side or 64 megapixels.
bool exportScenePng(QGraphicsScene& scene, const QString& path, QString* error);

/// The PNG scale exportScenePng uses for a scene of \p size points.
double pngScale(const QSizeF& size);

} // namespace stagecraft::views::graphview
