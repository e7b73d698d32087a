#pragma once
// The records of a sweep as a table: one row per point, one column per
// record field; Qt::UserRole holds the raw value (a double for numbers), so
// that a QSortFilterProxyModel sorting by it orders numbers as numbers.

#include "sweeps/sweep_table.h"

#include <QAbstractTableModel>

namespace stagecraft::views {

class SweepModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit SweepModel(std::shared_ptr<const SweepTable> table, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const SweepTable> table_;
};

} // namespace stagecraft::views
