#pragma once
// The inspector (objectName "inspector"): the properties of the selection,
// the split candidates of its group, the edit controls and the reorderable
// instance order. It follows the shared selection, asks for edits with
// editRequested(), and shows the pipeline's refusal until the next result.

#include "common/edit_request.h"
#include "common/pipeline_result.h"
#include "common/selection.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListView;
class QTableView;
class QTreeView;

namespace stagecraft::views {

class EditPanel;
class InstanceOrderModel;
class PropertiesModel;
class SplitCandidatesModel;

class InspectorWidget : public QWidget {
    Q_OBJECT
public:
    explicit InspectorWidget(QWidget* parent = nullptr);

    void setResult(ResultPtr result);
    void setSelectionModel(SelectionModel* selection);

    PropertiesModel* propertiesModel() const { return properties_; }
    SplitCandidatesModel* candidatesModel() const { return candidates_; }
    InstanceOrderModel* orderModel() const { return order_; }
    /// Shows only the order list's rows of group \p text ("b") or the
    /// instance it names ("b3"), as typing it in the list's filter does;
    /// empty shows every row. Dragging reorders among the rows shown.
    void filterOrder(const QString& text);
    /// Whether row \p row of the order list is shown.
    bool isOrderRowShown(int row) const;

public slots:
    /// Shows why the pipeline refused the last edit (in red, until the next
    /// result) and puts the order list back to the result's order.
    void showRefusal(const QString& reason);

signals:
    void editRequested(const stagecraft::views::EditRequest& request);

private:
    void buildLayout();
    void selectionChanged(const Selection& selection);
    void orderMoved(const QStringList& labels, const QString& description);
    void orderClicked(const QModelIndex& index);
    void showInOrder(const Selection& selection);
    QWidget* orderPanel();
    void applyOrderFilter();

    ResultPtr result_;
    QPointer<SelectionModel> selection_;
    PropertiesModel* properties_ = nullptr;
    SplitCandidatesModel* candidates_ = nullptr;
    InstanceOrderModel* order_ = nullptr;
    QTreeView* propertiesView_ = nullptr;
    QTableView* candidatesView_ = nullptr;
    QListView* orderView_ = nullptr;
    QLineEdit* orderFilter_ = nullptr;
    EditPanel* edits_ = nullptr;
    QLabel* refusal_ = nullptr;
};

} // namespace stagecraft::views
