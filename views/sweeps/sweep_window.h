#pragma once
// File → Open Sweep: a finished sweep's scatter plot (x, y and colour
// chosen from its columns, the Pareto front marked) above its sortable
// table. Selecting a point in either selects it in the other; a double click
// or "Open in Studio" asks to open the point's model with its architecture
// variant, strategy, level and precision.

#include "sweeps/sweep_table.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace stagecraft::views {

class SweepScatter;

class SweepWindow : public QWidget {
    Q_OBJECT
public:
    explicit SweepWindow(std::shared_ptr<const SweepTable> table, QWidget* parent = nullptr);

    SweepScatter* scatter() const { return scatter_; }
    QTableView* table() const { return view_; }
    /// Chooses the plotted columns by name (an empty \p colour keeps the
    /// colour column); false when x or y is not a numeric column or colour
    /// not a column. Each axis is log when its column suits it.
    bool setColumns(const QString& x, const QString& y, const QString& colour = {});
    /// The columns x and y can show: those whose known values are numbers.
    QStringList axisColumns() const;
    /// Selects the row of \p point in the plot and the table.
    void selectPoint(int64_t point);

signals:
    /// The user asked to open this point in the main window.
    void openRequested(const io::Session& session);
    /// Opening failed (a failed point, a missing model): the reason.
    void openFailed(const QString& message);

private:
    void applyColumns();
    void selectRow(int row);
    void openRow(int row);
    int selectedRow() const;

    std::shared_ptr<const SweepTable> sweep_;
    SweepScatter* scatter_;
    QComboBox* x_;
    QComboBox* y_;
    QComboBox* colour_;
    QCheckBox* logX_;
    QCheckBox* logY_;
    QLabel* summary_;
    QPushButton* open_;
    QTableView* view_;
    QSortFilterProxyModel* proxy_;
};

} // namespace stagecraft::views
