// Exports of the instance view. Both paint with the same InstancePainter as
// the widget, with the whole drawing exposed.

#include "instances/instance_export.h"

#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace stagecraft::views {

namespace {

using namespace Qt::StringLiterals;

constexpr double kMargin = 20;
constexpr double kMaxPixels = 100e6;
constexpr double kMaxSide = 32000;

QRectF pageOf(const InstanceDrawing& drawing) {
    return drawing.layout.bounds.adjusted(-kMargin, -kMargin, kMargin, kMargin);
}

/// \p scale also picks the level of detail: a PNG scaled down shows what the
/// widget would at that zoom.
void paintPage(QPainter& painter, const InstanceDrawing& drawing, const PaintOptions& options,
               double scale) {
    const QRectF page = pageOf(drawing);
    painter.scale(scale, scale);
    painter.translate(-page.topLeft());
    InstancePainter().paint(painter, drawing, options, page, scale);
}

bool fail(QString* error, const QString& message) {
    if (error)
        *error = message;
    return false;
}

bool written(const QString& path, QString* error) {
    const QFileInfo info(path);
    return info.exists() && info.size() > 0 ? true : fail(error, u"cannot write "_s + path);
}

} // namespace

bool exportDrawingSvg(const InstanceDrawing& drawing, const PaintOptions& options,
                      const QString& path, QString* error) {
    const QSize size = pageOf(drawing).size().toSize();
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(u"Sub-graph instances"_s);
    generator.setDescription(QString::fromStdString(drawing.result->modelPath));
    QPainter painter;
    if (!painter.begin(&generator))
        return fail(error, u"cannot write "_s + path);
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    paintPage(painter, drawing, options, 1.0);
    if (!painter.end())
        return fail(error, u"cannot write "_s + path);
    return written(path, error);
}

bool exportDrawingPng(const InstanceDrawing& drawing, const PaintOptions& options,
                      const QString& path, QString* error) {
    const QSizeF page = pageOf(drawing).size();
    const double scale = std::min({1.0, std::sqrt(kMaxPixels / (page.width() * page.height())),
                                   kMaxSide / page.width(), kMaxSide / page.height()});
    const QSize size = (page * scale).toSize().expandedTo(QSize(1, 1));
    QImage image(size, QImage::Format_RGB32);
    if (image.isNull())
        return fail(error, u"not enough memory for a "_s + QString::number(size.width()) +
                               u" x "_s + QString::number(size.height()) + u" image"_s);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        paintPage(painter, drawing, options, scale);
    }
    if (!image.save(path, "PNG"))
        return fail(error, u"cannot write "_s + path);
    return written(path, error);
}

} // namespace stagecraft::views
