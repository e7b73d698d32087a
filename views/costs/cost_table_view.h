#pragma once
// The cost table: every group or every kernel of the shown result, sortable
// by any column (time, bytes by level, spills, where the time goes), with a
// filter on names and first ops and a line that sums what is shown. Selecting a row selects
// its group or instance in every view; a selection made elsewhere selects its
// row (an op's or instance's group, a group's first kernel). Columns fit the
// table's width in reading order (cost_columns.h); the header's context menu
// shows or hides any of them.

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "costs/cost_rows.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace stagecraft::views {

class CostTableModel;

class CostTableView : public QWidget {
    Q_OBJECT
public:
    explicit CostTableView(QWidget* parent = nullptr);

    void setResult(ResultPtr result);
    void setSelectionModel(SelectionModel* selection);
    void setGrain(CostGrain grain);
    CostGrain grain() const { return grain_; }

    CostTableModel* model() const { return model_; }
    QTableView* table() const { return table_; }

    /// Shows or hides \p column (a CostTableModel::Column) at any width; the
    /// name column always shows.
    void setColumnShown(int column, bool shown);
    bool isColumnShown(int column) const;
    /// Forgets the columns chosen: they fit the width again.
    void fitColumnsToWidth();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    /// Shows the columns that fit (fittedColumns) and says how many do not.
    void applyColumns();
    void showColumnMenu(const QPoint& pos);
    void updateSummary();
    void chooseRow(const QModelIndex& proxyIndex);
    void follow(const Selection& selection);
    /// The model row that stands for \p selection at this grain, or -1.
    int rowFor(const Selection& selection) const;

    CostTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QComboBox* grainBox_;
    QLineEdit* filter_;
    QLabel* summary_;
    SelectionModel* selection_ = nullptr;
    ResultPtr result_;
    CostGrain grain_ = CostGrain::Groups;
    bool choosing_ = false;
    /// Each column's width with every column shown, measured on the rows.
    std::vector<int> naturalWidths_;
    /// The columns the user showed or hid from the header's menu.
    std::vector<std::optional<bool>> chosenColumns_;
};

} // namespace stagecraft::views
