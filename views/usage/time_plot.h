#pragma once
// The base of the usage plots: a label column on the left (as wide as the
// timeline's), a plot area whose x positions come from the shared time axis,
// time ticks at the bottom, wheel zoom around the cursor, drag to pan, click
// and tool tips handed to the subclass. A subclass may give a value axis:
// its marks are drawn at the right of the label column, with faint grid lines
// across the plot.

#include "common/time_axis.h"

#include <QPointer>
#include <QString>
#include <QWidget>

#include <vector>

namespace stagecraft::views {

/// A mark of a plot's value axis: its widget y and its label.
struct ValueTick {
    double y = 0;
    QString label;
};

class TimePlot : public QWidget {
    Q_OBJECT
public:
    /// Width of the label column, the same as the timeline's.
    static constexpr int kLabelWidth = kTimeLabelWidth;
    static constexpr int kTickHeight = 18;
    /// The value axis's labels: the right part of the label column.
    static constexpr int kValueAxisWidth = 52;
    /// What is left of the label column for a subclass's labels.
    static constexpr int kLabelTextWidth = kLabelWidth - kValueAxisWidth - 12;

    explicit TimePlot(QWidget* parent = nullptr);

    /// Shares \p model's axis (nullptr: a private one).
    void setTimeAxisModel(TimeAxisModel* model);
    TimeAxisModel* timeAxisModel() const { return model_; }
    /// The plot area in widget coordinates.
    QRect plotRect() const;
    /// Widget x of simulated time \p ns.
    double xOf(double ns) const;
    /// Simulated time at widget x \p x.
    double timeAt(double x) const;

    /// What the tool tip at \p pos says; empty for none.
    virtual QString toolTipAt(const QPoint& pos) const = 0;
    /// The marks of the value axis, top to bottom (an empty label: a mark
    /// alone); none by default.
    virtual std::vector<ValueTick> valueTicks() const { return {}; }

protected:
    virtual void paintPlot(QPainter& painter) = 0;
    virtual void paintLabels(QPainter& painter) = 0;
    /// A click (a press and release without dragging) at \p pos.
    virtual void clickedAt(const QPoint& pos) { Q_UNUSED(pos); }
    /// Space above the plot for a title.
    virtual int topMargin() const { return 4; }

    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void paintTicks(QPainter& painter);
    void paintValueGrid(QPainter& painter, const std::vector<ValueTick>& ticks);
    void paintValueTicks(QPainter& painter, const std::vector<ValueTick>& ticks);

    TimeAxisModel ownModel_;
    QPointer<TimeAxisModel> model_;
    QPoint pressPos_;
    bool pressed_ = false;
    bool dragging_ = false;
};

} // namespace stagecraft::views
