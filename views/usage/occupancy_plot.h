#pragma once
// One memory's occupancy over time (GraphTurbo Fig. 3b): tensor rectangles in
// the allocator's layout colored by group, the total-occupancy outline, the
// dashed capacity line and the spill marks. Hover names the tensor; a click
// selects it.

#include "common/byte_text.h"
#include "common/highlight.h"
#include "common/pipeline_result.h"
#include "common/selection.h"
#include "usage/occupancy_data.h"
#include "usage/spill_marks.h"
#include "usage/time_plot.h"
#include "usage/usage_lod.h"

#include <QPointer>

#include <vector>

namespace stagecraft::views {

/// The colour of the capacity line and the spill marks.
inline constexpr QRgb kOccupancyAlertRgb = 0xc0392b;

class OccupancyPlot : public TimePlot {
    Q_OBJECT
public:
    explicit OccupancyPlot(QWidget* parent = nullptr);

    /// Shows \p usage of \p result with the spill marks out of its memory.
    void setUsage(ResultPtr result, MemoryUsage usage, std::vector<SpillMark> marks);
    void setSelectionModel(SelectionModel* model);

    const MemoryUsage& usage() const { return usage_; }
    /// The spill marks out of this memory shown, by time: all of them, or
    /// during the step-through's §4.3 steps those decided so far.
    const std::vector<SpillMark>& marks() const { return marks_; }
    /// Follows the step-through: at a §4.3 step only the spills decided so
    /// far are marked, the step's own emphasized with its time; elsewhere all.
    void setStepSpills(const Highlights& step);
    /// The step's own spill among marks(), or -1.
    int currentMark() const { return currentMark_; }
    /// The rectangles emphasized by the current selection (indices into usage().rects).
    const std::vector<int32_t>& emphasized() const { return emphasized_; }
    /// What the last paint drew: rectangles after level of detail, spill labels.
    int lastPaintedRects() const { return lastPaintedRects_; }
    int lastPaintedLabels() const { return lastPaintedLabels_; }

    /// Widget position of \p address at time \p ns.
    QPointF positionOf(double ns, double address) const;
    /// The rectangle under \p pos (index into usage().rects), or -1.
    int rectAt(const QPoint& pos) const;
    QString toolTipAt(const QPoint& pos) const override;
    /// Bytes from the bottom of the memory, in binary units.
    std::vector<ValueTick> valueTicks() const override;

protected:
    void paintPlot(QPainter& painter) override;
    void paintLabels(QPainter& painter) override;
    void clickedAt(const QPoint& pos) override;
    int topMargin() const override { return 8; }

private:
    AddressScale scale() const;
    void updateEmphasis();
    void paintRects(QPainter& painter);
    void paintOutline(QPainter& painter);
    void paintCapacity(QPainter& painter);
    void paintSpills(QPainter& painter);
    int markAt(const QPoint& pos) const;
    void filterMarks();
    void paintCurrentSpill(QPainter& painter);
    double markY(const SpillMark& mark) const;

    ResultPtr result_;
    MemoryUsage usage_;
    std::vector<SpillMark> marks_;
    std::vector<SpillMark> allMarks_;
    bool stepping_ = false;
    std::vector<SpillRef> stepSpills_;
    bool stepHasCurrent_ = false;
    int currentMark_ = -1;
    QPointer<SelectionModel> selection_;
    std::vector<int32_t> emphasized_;
    std::vector<bool> isEmphasized_;
    int lastPaintedRects_ = 0;
    int lastPaintedLabels_ = 0;
};

/// Whether \p selection covers \p rect: its tensor, its group, its instance,
/// or (an op) the op that writes its tensor.
bool selectionCovers(const PipelineResult& result, const Selection& selection,
                     const OccupancyRect& rect);

} // namespace stagecraft::views
