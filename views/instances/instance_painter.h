#pragma once
// Paints an instance drawing with QPainter, for the widget and for the
// exports alike: only what intersects the exposed rectangle, edges in a few
// batched drawLines calls, and detail by zoom level (the chip example's
// level of detail): boxes only, then labels, then shape, binding, scope and
// the order position.

#include "common/canvas_colors.h"
#include "instances/instance_drawing.h"

#include <QColor>
#include <QLineF>
#include <QRectF>
#include <QVector>

#include <vector>

class QPainter;
class QPen;

namespace stagecraft::views {

struct PaintOptions {
    bool showRedundant = true;
    /// Drawn highlighted when non-zero (may be empty).
    IdVector<schedule::InstanceId, char> highlighted;
    /// Its box is drawn highlighted; -1 for none.
    schedule::GroupId highlightedGroup = partition::kNoGroup;
    /// Marked by a teaching or diff tool (a halo) when non-zero.
    IdVector<schedule::InstanceId, char> marked;
    /// Algorithm 3 at a step of the step-through (common/highlight.h), by
    /// instance id: an outline per state, and the order so far in the
    /// badges instead of the final order. Empty: not shown.
    std::vector<int8_t> orderStates;
    std::vector<int32_t> stepOrder;
    /// Algorithm 4 at a step (common/highlight.h), by instance id: the
    /// binding and scope so far, "" before; empty: the final ones.
    std::vector<QString> stepBinds;
    std::vector<QString> stepScopes;
    /// Background and ink; the widget takes them from its palette.
    CanvasColors colors = CanvasColors::paper();
};

/// What one paint() drew. A needed edge that runs through data-movement ops
/// counts once when its ops' links were drawn.
struct PaintStats {
    int instances = 0;
    int groups = 0;
    int neededEdges = 0;
    int redundantEdges = 0;
    int moves = 0;
    /// Bundles of moves between two groups.
    int bundles = 0;
    int moveLinks = 0;
};

class InstancePainter {
public:
    /// Device pixels per scene unit at which labels, then details, appear.
    static constexpr double kLabelScale = 0.2;
    static constexpr double kDetailScale = 0.6;

    /// Paints the part of \p drawing inside \p exposed (scene coordinates);
    /// \p painter already maps scene to device, \p scale is its zoom.
    PaintStats paint(QPainter& painter, const InstanceDrawing& drawing, const PaintOptions& options,
                     const QRectF& exposed, double scale);

private:
    void paintGroups(QPainter& painter, const InstanceDrawing& drawing, const QRectF& exposed,
                     double scale, PaintStats& stats);
    void paintEdges(QPainter& painter, const InstanceDrawing& drawing, const PaintOptions& options,
                    const QRectF& exposed, PaintStats& stats);
    void paintMoves(QPainter& painter, const InstanceDrawing& drawing, const QRectF& exposed,
                    double scale, PaintStats& stats);
    void paintBundles(QPainter& painter, const InstanceDrawing& drawing, const QRectF& exposed,
                      double scale, PaintStats& stats);
    void paintInstances(QPainter& painter, const InstanceDrawing& drawing,
                        const PaintOptions& options, const QRectF& exposed, double scale,
                        PaintStats& stats);
    void paintOrderStates(QPainter& painter, const InstanceDrawing& drawing,
                          const PaintOptions& options, const QRectF& exposed);
    void paintGroupLetters(QPainter& painter, const InstanceDrawing& drawing, const QRectF& exposed,
                           double scale);
    void paintMarks(QPainter& painter, const InstanceDrawing& drawing, const PaintOptions& options,
                    const QRectF& exposed);
    void paintHighlight(QPainter& painter, const InstanceDrawing& drawing,
                        const PaintOptions& options, const QRectF& exposed);
    /// Draws and empties the batch of lines with \p pen; returns how many it held.
    int flushLines(QPainter& painter, const QPen& pen);

    /// Ink of links between data-movement ops.
    QColor moveLinkColor() const;

    CanvasColors colors_ = CanvasColors::paper();
    QVector<QLineF> batch_;
    QVector<QRectF> rects_;
};

} // namespace stagecraft::views
