// Painting of the instance view. Edges are plain straight lines, culled by
// their bounding box and drawn in one drawLines batch per color, antialiased
// only when few show; what remains costs pixels, not bookkeeping. Needed
// edges are dark, redundant ones light gray (Fig. 6); inserted ops are
// ellipses, gray for copy and redistribute (Fig. 9); a bundle of the ops
// between two groups is a stack of cards.

#include "instances/instance_painter.h"

#include "common/group_colors.h"
#include "instances/instance_text.h"
#include "instances/internal/paint_helpers.h"

#include <QPainter>

#include <algorithm>
#include <array>

namespace stagecraft::views {

namespace {

using namespace paint;
using schedule::DataMove;
using namespace Qt::StringLiterals;

const QColor kMoveLink(90, 90, 90);
const QColor kHighlight(235, 110, 0);
const QColor kMark(0x9b, 0x30, 0xff, 150);
constexpr int kAntialiasBelow = 4000;
/// Ellipses are wider than tall: their kind fits only from this zoom on.
constexpr double kMoveLabelScale = 0.45;

bool intersects(const QLineF& line, const QRectF& r) {
    return std::min(line.x1(), line.x2()) <= r.right() &&
           std::max(line.x1(), line.x2()) >= r.left() &&
           std::min(line.y1(), line.y2()) <= r.bottom() &&
           std::max(line.y1(), line.y2()) >= r.top();
}

QColor moveFill(DataMove::Kind kind) {
    return kind == DataMove::Kind::Concat ? QColor(Qt::white) : QColor(215, 215, 215);
}

} // namespace

QColor InstancePainter::moveLinkColor() const {
    return colors_.dark ? colors_.ink.darker(130) : kMoveLink;
}

PaintStats InstancePainter::paint(QPainter& painter, const InstanceDrawing& drawing,
                                  const PaintOptions& options, const QRectF& exposed,
                                  double scale) {
    PaintStats stats;
    colors_ = options.colors;
    painter.save();
    paintGroups(painter, drawing, exposed, scale, stats);
    paintEdges(painter, drawing, options, exposed, stats);
    paintMoves(painter, drawing, exposed, scale, stats);
    paintBundles(painter, drawing, exposed, scale, stats);
    paintInstances(painter, drawing, options, exposed, scale, stats);
    if (scale < kLabelScale)
        paintGroupLetters(painter, drawing, exposed, scale);
    paintOrderStates(painter, drawing, options, exposed);
    paintMarks(painter, drawing, options, exposed);
    paintHighlight(painter, drawing, options, exposed);
    painter.restore();
    return stats;
}

void InstancePainter::paintGroups(QPainter& painter, const InstanceDrawing& drawing,
                                  const QRectF& exposed, double scale, PaintStats& stats) {
    const auto& groups = drawing.layout.groups;
    for (schedule::GroupId g : groups.ids()) {
        const QRectF& rect = groups[g].rect;
        if (!rect.intersects(exposed))
            continue;
        ++stats.groups;
        const QColor color = groupColor(g);
        QColor fill = color;
        fill.setAlpha(90);
        painter.setPen(cosmeticPen(color.darker(150)));
        painter.setBrush(fill);
        painter.drawRect(rect);
        if (scale * 16 < 5)
            continue;
        painter.setPen(colors_.ink);
        painter.setFont(pixelFont(16, true));
        painter.drawText(rect.adjusted(8, 2, -8, 0), Qt::AlignLeft | Qt::AlignTop, groupLetter(g));
    }
}

void InstancePainter::paintGroupLetters(QPainter& painter, const InstanceDrawing& drawing,
                                        const QRectF& exposed, double scale) {
    // Zoomed out, instance labels are gone: the group letters, drawn large
    // over the boxes, keep the picture readable.
    painter.setPen(colors_.ink);
    painter.setFont(pixelFont(14 / scale, true));
    const auto& groups = drawing.layout.groups;
    for (schedule::GroupId g : groups.ids()) {
        const QRectF& rect = groups[g].rect;
        if (rect.intersects(exposed) && rect.width() * scale >= 14 && rect.height() * scale >= 14)
            painter.drawText(rect, Qt::AlignCenter, groupLetter(g));
    }
}

int InstancePainter::flushLines(QPainter& painter, const QPen& pen) {
    const auto count = static_cast<int>(batch_.size());
    painter.setRenderHint(QPainter::Antialiasing, count < kAntialiasBelow);
    painter.setPen(pen);
    painter.drawLines(batch_);
    batch_.clear();
    return count;
}

void InstancePainter::paintEdges(QPainter& painter, const InstanceDrawing& drawing,
                                 const PaintOptions& options, const QRectF& exposed,
                                 PaintStats& stats) {
    const InstanceLayout& layout = drawing.layout;
    if (options.showRedundant) {
        for (const EdgeLine& edge : layout.redundant)
            if (intersects(edge.line, exposed))
                batch_.append(edge.line);
        stats.redundantEdges = flushLines(painter, cosmeticPen(colors_.faintInk));
    }
    int carried = 0;
    for (const EdgeLine& edge : layout.needed) {
        if (!intersects(edge.line, exposed))
            continue;
        if (edge.viaMoves)
            ++carried;
        else
            batch_.append(edge.line);
    }
    stats.neededEdges = flushLines(painter, cosmeticPen(colors_.ink)) + carried;
    for (const QLineF& link : layout.moveLinks)
        if (intersects(link, exposed))
            batch_.append(link);
    stats.moveLinks = flushLines(painter, cosmeticPen(moveLinkColor()));
}

void InstancePainter::paintMoves(QPainter& painter, const InstanceDrawing& drawing,
                                 const QRectF& exposed, double scale, PaintStats& stats) {
    const auto& moves = drawing.layout.moves;
    painter.setRenderHint(QPainter::Antialiasing, scale >= kLabelScale);
    for (size_t m = 0; m < moves.size(); ++m) {
        const QRectF& rect = moves[m].rect;
        if (!rect.intersects(exposed))
            continue;
        ++stats.moves;
        const DataMove& move = drawing.schedule().moves[m];
        // Zoomed out, thousands of outlines would turn the bands into dark blocks.
        painter.setPen(scale < kLabelScale ? QPen(Qt::NoPen) : cosmeticPen(moveLinkColor()));
        painter.setBrush(moveFill(move.kind));
        painter.drawEllipse(rect);
        if (scale < kMoveLabelScale)
            continue;
        painter.setPen(kText);
        if (scale < kDetailScale)
            drawCenteredLines(painter, rect, {QString::fromUtf8(schedule::moveKindName(move.kind))},
                              std::min(24.0, 13 / scale));
        else
            drawCenteredLines(painter, rect, QStringList{moveTitle(move)} << moveDetails(move), 11);
    }
}

void InstancePainter::paintBundles(QPainter& painter, const InstanceDrawing& drawing,
                                   const QRectF& exposed, double scale, PaintStats& stats) {
    painter.setRenderHint(QPainter::Antialiasing, scale >= kLabelScale);
    const double radius = 10;
    for (const MoveBundle& bundle : drawing.layout.bundles) {
        const QRectF& rect = bundle.rect;
        if (!rect.intersects(exposed))
            continue;
        ++stats.bundles;
        // Two cards behind the front one: several ops in one node.
        painter.setPen(scale < kLabelScale ? QPen(Qt::NoPen) : cosmeticPen(moveLinkColor()));
        for (double shift : {8.0, 4.0}) {
            painter.setBrush(moveFill(DataMove::Kind::Copy).darker(110));
            painter.drawRoundedRect(rect.adjusted(shift, -shift, shift, -shift), radius, radius);
        }
        painter.setBrush(moveFill(DataMove::Kind::Copy));
        painter.drawRoundedRect(rect, radius, radius);
        // Few and wide: labelled from the zoom on which instances are, at
        // about 11 device pixels; where two lines do not fit, one.
        if (scale < kLabelScale)
            continue;
        painter.setPen(kText);
        const QStringList details = bundleDetails(drawing.schedule(), bundle);
        const double wanted = 11 / scale;
        QStringList lines{bundleTitle(bundle)};
        if (wanted * 1.25 * 2 > rect.height())
            lines.front() += u" \u00b7 "_s + details.front();
        else
            lines << details.front();
        if (scale >= kDetailScale && wanted * 1.25 * 3 <= rect.height())
            lines << details.back();
        double pixels = std::min(wanted, rect.height() / (1.25 * double(lines.size())));
        painter.setFont(pixelFont(pixels, true));
        double widest = 0;
        for (const QString& line : lines)
            widest = std::max(widest, double(painter.fontMetrics().horizontalAdvance(line)));
        if (widest > rect.width() - 16)
            pixels *= (rect.width() - 16) / widest;
        drawCenteredLines(painter, rect, lines, pixels);
    }
}

void InstancePainter::paintInstances(QPainter& painter, const InstanceDrawing& drawing,
                                     const PaintOptions& options, const QRectF& exposed,
                                     double scale, PaintStats& stats) {
    const schedule::Schedule& s = drawing.schedule();
    if (s.instances.empty())
        return;
    // Outlines only where a box is a few pixels tall; below that they would be all there is.
    const bool outlined = scale * drawing.layout.instances.front().height() >= 4;
    painter.setRenderHint(QPainter::Antialiasing, false);
    // Algorithm 4 at a step: instances not bound yet are pale.
    const bool binding = options.stepBinds.size() == drawing.layout.instances.size();
    for (partition::GroupId g : s.groups.ids()) {
        if (!drawing.layout.groups[g].rect.intersects(exposed))
            continue;
        const QColor color = groupColor(g);
        for (bool pale : {false, true}) {
            for (schedule::InstanceId id : s.groups[g].instances) {
                const QRectF& box = drawing.layout.instances[id];
                const bool unbound = binding && options.stepBinds[id.index()].isEmpty();
                if (unbound == pale && box.intersects(exposed))
                    rects_.append(box);
            }
            stats.instances += static_cast<int>(rects_.size());
            QColor fill = color;
            if (pale)
                fill.setAlpha(60);
            painter.setPen(outlined ? cosmeticPen(pale ? fill : color.darker(170))
                                    : QPen(Qt::NoPen));
            painter.setBrush(fill);
            painter.drawRects(rects_);
            rects_.clear();
        }
    }
    if (scale < kLabelScale)
        return;
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const bool stepping = options.stepOrder.size() == drawing.layout.instances.size();
    const bool withScopes = binding && options.stepScopes.size() == options.stepBinds.size();
    for (schedule::InstanceId id : drawing.layout.instances.ids()) {
        const QRectF& box = drawing.layout.instances[id];
        if (!box.intersects(exposed))
            continue;
        const paint::StepBinding step = withScopes
                                            ? paint::StepBinding{&options.stepBinds[id.index()],
                                                                 &options.stepScopes[id.index()]}
                                            : paint::StepBinding{};
        drawInstanceText(painter, drawing, id, box, scale,
                         stepping ? options.stepOrder[id.index()] : drawing.orderPosition[id],
                         step);
    }
}

void InstancePainter::paintOrderStates(QPainter& painter, const InstanceDrawing& drawing,
                                       const PaintOptions& options, const QRectF& exposed) {
    const InstanceLayout& layout = drawing.layout;
    if (options.orderStates.size() != layout.instances.size())
        return;
    painter.setBrush(Qt::NoBrush);
    for (int8_t state = 1; state <= 3; ++state) {
        for (schedule::InstanceId id : layout.instances.ids())
            if (options.orderStates[id.index()] == state &&
                layout.instances[id].intersects(exposed))
                rects_.append(layout.instances[id].adjusted(2, 2, -2, -2));
        painter.setPen(paint::cosmeticPen(paint::orderStateColor(state), 4));
        painter.drawRects(rects_);
        rects_.clear();
    }
}

void InstancePainter::paintMarks(QPainter& painter, const InstanceDrawing& drawing,
                                 const PaintOptions& options, const QRectF& exposed) {
    const InstanceLayout& layout = drawing.layout;
    if (options.marked.size() != layout.instances.size())
        return;
    for (schedule::InstanceId id : layout.instances.ids())
        if (options.marked[id] && layout.instances[id].intersects(exposed))
            rects_.append(layout.instances[id]);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(cosmeticPen(kMark, 9));
    painter.drawRects(rects_);
    rects_.clear();
}

void InstancePainter::paintHighlight(QPainter& painter, const InstanceDrawing& drawing,
                                     const PaintOptions& options, const QRectF& exposed) {
    const InstanceLayout& layout = drawing.layout;
    const QPen pen = cosmeticPen(kHighlight, 3);
    painter.setBrush(Qt::NoBrush);
    if (layout.groups.contains(options.highlightedGroup)) {
        painter.setPen(pen);
        painter.drawRect(layout.groups[options.highlightedGroup].rect);
    }
    if (options.highlighted.size() != layout.instances.size())
        return;
    auto marked = [&](schedule::InstanceId id) {
        return options.highlighted[id] != 0;
    };
    for (const EdgeLine& edge : layout.needed)
        if ((marked(edge.from) || marked(edge.to)) && !edge.viaMoves &&
            intersects(edge.line, exposed))
            batch_.append(edge.line);
    flushLines(painter, cosmeticPen(kHighlight, 1.5));
    for (schedule::InstanceId id : layout.instances.ids())
        if (options.highlighted[id] && layout.instances[id].intersects(exposed))
            rects_.append(layout.instances[id]);
    painter.setPen(pen);
    painter.drawRects(rects_);
    rects_.clear();
}

} // namespace stagecraft::views
