#pragma once
// The bottom of the overlap view (GraphTurbo Fig. 16/17): horizontal
// utilization bars per compute-unit kind, one row for the whole run and one
// per group of the schedule, labelled with percentages. Clicking a group's
// row selects the group.

#include "common/selection.h"
#include "common/time_axis.h"
#include "usage/overlap_data.h"

#include <QPointer>
#include <QWidget>

namespace stagecraft::views {

class UtilizationBars : public QWidget {
    Q_OBJECT
public:
    static constexpr int kLabelWidth = kTimeLabelWidth;
    static constexpr int kBarHeight = 12;
    /// Room right of each kind's bar for its label ("matrix 15.1%").
    static constexpr int kKindLabelWidth = 110;

    explicit UtilizationBars(QWidget* parent = nullptr);

    void setData(OverlapData data);
    void setSelectionModel(SelectionModel* model);
    const OverlapData& data() const { return data_; }

    /// Row 0 is the whole run, row 1 + g is data().groups[g].
    int rowCount() const { return 1 + static_cast<int>(data_.groups.size()); }
    QRect rowRect(int row) const;
    /// The row under \p pos, or -1.
    int rowAt(const QPoint& pos) const;
    /// "vector 42.0%": the label of kind \p kind's bar in row \p row.
    QString barLabel(int row, int kind) const;

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    int rowHeight() const;
    double utilization(int row, int kind) const;
    void paintRow(QPainter& painter, int row);

    OverlapData data_;
    QPointer<SelectionModel> selection_;
};

} // namespace stagecraft::views
