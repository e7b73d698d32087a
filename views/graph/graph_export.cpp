// SVG goes through a buffer and QSaveFile, because QSvgGenerator does not
// report write errors; PNG through QImageWriter, which does.

#include "graph/graph_export.h"

#include "graph/graph_scene.h"

#include <QBuffer>
#include <QGraphicsScene>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace stagecraft::views::graphview {

using namespace Qt::StringLiterals;

namespace {

constexpr double kPreferredScale = 2;
constexpr double kMaxSide = 16384;
constexpr double kMaxPixels = 64e6;

bool fail(QString* error, const QString& message) {
    if (error)
        *error = message;
    return false;
}

void render(QGraphicsScene& scene, QPainter& painter, const QRectF& target) {
    // Exports are figures for documents: paper colors whatever the palette.
    auto* graphScene = dynamic_cast<GraphScene*>(&scene);
    const CanvasColors shown = graphScene ? graphScene->colors() : CanvasColors::paper();
    if (graphScene)
        graphScene->setColors(CanvasColors::paper());
    painter.fillRect(target, Qt::white);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene.render(&painter, target, scene.sceneRect());
    if (graphScene)
        graphScene->setColors(shown);
}

} // namespace

bool exportSceneSvg(QGraphicsScene& scene, const QString& path, QString* error) {
    QRectF source = scene.sceneRect();
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(source.size().toSize());
    generator.setViewBox(QRectF(QPointF(0, 0), source.size()));
    generator.setTitle(u"Stagecraft graph"_s);
    {
        QPainter painter(&generator);
        render(scene, painter, QRectF(QPointF(0, 0), source.size()));
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, u"cannot write %1: %2"_s.arg(path, file.errorString()));
    file.write(buffer.data());
    if (!file.commit())
        return fail(error, u"cannot write %1: %2"_s.arg(path, file.errorString()));
    return true;
}

double pngScale(const QSizeF& size) {
    double scale = kPreferredScale;
    double side = std::max(size.width(), size.height());
    if (side * scale > kMaxSide)
        scale = kMaxSide / side;
    double area = size.width() * size.height();
    if (area * scale * scale > kMaxPixels)
        scale = std::sqrt(kMaxPixels / area);
    return scale;
}

bool exportScenePng(QGraphicsScene& scene, const QString& path, QString* error) {
    QSizeF size = scene.sceneRect().size();
    double scale = pngScale(size);
    QSize pixels(std::max(1, static_cast<int>(std::ceil(size.width() * scale))),
                 std::max(1, static_cast<int>(std::ceil(size.height() * scale))));
    QImage image(pixels, QImage::Format_RGB32);
    if (image.isNull())
        return fail(
            error,
            u"not enough memory for a %1 x %2 image"_s.arg(pixels.width()).arg(pixels.height()));
    {
        QPainter painter(&image);
        render(scene, painter, QRectF(QPointF(0, 0), QSizeF(pixels)));
    }
    QImageWriter writer(path, "png");
    if (!writer.write(image))
        return fail(error, u"cannot write %1: %2"_s.arg(path, writer.errorString()));
    return true;
}

} // namespace stagecraft::views::graphview
