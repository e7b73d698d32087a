#pragma once
// The cost table's model: one row per group or kernel (cost_rows.h), its
// time, the share of the run, where the time goes (compute, DMA the units
// waited for, launch and sync, the main cause), the bytes it moves per level
// and by cause, its spills and its energy (total, dynamic, static, the share
// of moving bytes to and from DDR; "—" when the architecture has no energy
// table). Qt::UserRole gives each cell's raw figure for
// sorting (the name column: execution order); headers carry tooltips.

#include "costs/cost_rows.h"

#include <QAbstractTableModel>

#include <vector>

namespace stagecraft::views {

class CostTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        FirstOp,
        Kernels,
        Time,
        Share,
        Compute,
        DmaWait,
        Control,
        MainCause,
        Computing,
        DdrTraffic,
        GbTraffic,
        LbTraffic,
        WeightBytes,
        Spills,
        SpillBytes,
        Energy,
        DynamicEnergy,
        StaticEnergy,
        DdrEnergyShare,
        ColumnCount
    };

    explicit CostTableModel(QObject* parent = nullptr);

    /// Shows \p rows of a run that took \p runNs (the attribution's total).
    void setRows(std::vector<CostRow> rows, double runNs);
    const std::vector<CostRow>& rows() const { return rows_; }
    double runNs() const { return runNs_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant rawValue(int row, int column) const;
    QVariant displayValue(int row, int column) const;
    QString rowTip(const CostRow& row) const;
    QVariant energyValue(const CostRow& row, int column) const;

    std::vector<CostRow> rows_;
    double runNs_ = 0;
};

/// "weight load" for sim::Cause::WeightLoad.
QString causeText(sim::Cause cause);

} // namespace stagecraft::views
