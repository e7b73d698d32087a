#pragma once
// The schedule's instance order as a list, one row per instance ("a3 (group
// a, #3)"), reorderable by internal drag and drop. A move changes the list at
// once and emits orderRequested() with the new order; whether it is valid is
// the pipeline's decision: the next result (or reset(), after a refusal)
// shows the schedule's order again.

#include "common/pipeline_result.h"

#include <QAbstractListModel>
#include <QStringList>

#include <vector>

namespace stagecraft::views {

class InstanceOrderModel : public QAbstractListModel {
    Q_OBJECT
public:
    static constexpr auto kMimeType = "application/x-stagecraft-order-rows";
    enum Role { InstanceIdRole = Qt::UserRole, LabelRole };

    using QAbstractListModel::QAbstractListModel;

    void setResult(ResultPtr result);
    /// Back to the result's order (after the pipeline refused a move).
    void reset();
    /// Labels in the current row order.
    QStringList labels() const;
    /// The row of \p instance, or -1.
    int rowOf(schedule::InstanceId instance) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

    Qt::DropActions supportedDropActions() const override;
    Qt::DropActions supportedDragActions() const override;
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;
    bool moveRows(const QModelIndex& sourceParent, int sourceRow, int count,
                  const QModelIndex& destinationParent, int destinationChild) override;

signals:
    /// The user moved instances; \p labels is the whole new order and
    /// \p description one line for the undo history ("Move a7 before a3").
    void orderRequested(const QStringList& labels, const QString& description);

private:
    QString label(int row) const;
    QString moveDescription(int sourceRow, int count, int destinationRow) const;

    ResultPtr result_;
    /// Instance ids in row order.
    std::vector<schedule::InstanceId> rows_;
    /// Row of each instance id.
    IdVector<schedule::InstanceId, int> rowOf_;
};

} // namespace stagecraft::views
