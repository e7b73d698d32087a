#pragma once
// The cost table: every group or every kernel of the shown result, sortable
// by any column (time, bytes by level, spills, where the time goes), with a
// filter on names and first ops and a line that sums what is shown. Selecting a row selects
// its group or instance in every view; a selection made elsewhere selects its
// row (an op's or instance's group, a group's first kernel).

#include "common/pipeline_result.h"
#include "common/selection.h"
#include "costs/cost_rows.h"

#include <QWidget>

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

private:
    void rebuild();
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
};

} // namespace stagecraft::views
