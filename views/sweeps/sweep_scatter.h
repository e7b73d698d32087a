#pragma once
// The sweep's scatter plot: one dot per successful point at (x, y) of two
// numeric columns, coloured by a third column (a gradient for numbers, a
// palette with a legend for names), the Pareto front of x and y ringed and
// joined by a line. A click selects a point's row, a double click asks to
// open it. Painted by hand (Qt Charts is GPL in Debian).

#include "sweeps/sweep_table.h"

#include <QWidget>

namespace stagecraft::views {

class SweepScatter : public QWidget {
    Q_OBJECT
public:
    explicit SweepScatter(QWidget* parent = nullptr);

    void setTable(std::shared_ptr<const SweepTable> table);
    /// Columns of the table for x, y and colour.
    void setColumns(int x, int y, int colour);
    void setSelectedRow(int row);
    /// Logarithmic axes (only where every plotted value is above 0).
    void setLogScale(bool x, bool y);
    /// Whether a column's plotted values span a decade or more, all above 0:
    /// what a log axis suits (a "times" range).
    bool suitsLog(int column) const;
    /// The rows on the front of the current x and y.
    const QVector<bool>& front() const { return front_; }

signals:
    void rowClicked(int row);
    void rowActivated(int row);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Range {
        double lo = 0;
        double hi = 1;
    };
    QRectF plotRect() const;
    /// \p v on axis x (or y) as plotted: log10 on a log axis.
    double scaled(double v, bool xAxis) const;
    bool plotted(int row) const;
    bool allPositive(int column) const;
    QPointF position(int row) const;
    QColor colourOf(int row) const;
    int rowAt(QPointF point) const;
    void paintAxes(class QPainter& painter) const;
    void paintLegend(class QPainter& painter) const;
    void paintPoints(class QPainter& painter) const;

    std::shared_ptr<const SweepTable> table_;
    int x_ = -1;
    int y_ = -1;
    int colour_ = -1;
    bool logX_ = false;
    bool logY_ = false;
    int selected_ = -1;
    Range xRange_;
    Range yRange_;
    Range colourRange_;
    QStringList categories_;
    QVector<bool> front_;
};

} // namespace stagecraft::views
