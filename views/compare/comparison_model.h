#pragma once
// The comparison table: one row per strategy of sim::strategies(), its
// report's figures in columns (the configuration its search chose among
// them), speedups from sim::fillSpeedups over the computed reports, energy
// and energy-delay product ("—" when the architecture has no energy table).
// Rows not computed yet show "…". Qt::UserRole gives the raw figure (double,
// qlonglong, or the configuration's text) of a cell.

#include "common/byte_text.h"
#include "common/pipeline_result.h"

#include <QAbstractTableModel>
#include <QString>

#include <map>
#include <string>
#include <vector>

namespace stagecraft::views {

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// What a verdict needs first (speed, DDR traffic, spills, energy), so
    /// that a narrow dock shows it without scrolling.
    enum Column {
        Strategy,
        Speedup,
        Latency,
        DdrTraffic,
        Spills,
        Energy,
        Edp,
        Configuration,
        Kernels,
        GbTraffic,
        LbTraffic,
        Throughput,
        LbScopes,
        GbScopes,
        DdrScopes,
        ColumnCount
    };

    explicit ComparisonModel(QObject* parent = nullptr);

    /// Shows \p results (by strategy name); missing strategies stay empty rows.
    void setResults(const std::map<std::string, ResultPtr>& results);
    /// Marks \p strategy's row as the one the views show (bold).
    void setCurrentStrategy(const QString& strategy);
    const QString& currentStrategy() const { return current_; }

    QString strategyAt(int row) const;
    ResultPtr resultAt(int row) const;
    /// The report of \p row with its speedup filled, or null when not computed.
    const sim::Report* reportAt(int row) const;
    int rowOf(const QString& strategy) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString strategy;
        QString description;
        ResultPtr result;
        sim::Report report;
    };
    QVariant rawValue(const Row& row, int column) const;
    QVariant displayValue(const Row& row, int column) const;

    std::vector<Row> rows_;
    QString current_;
};

} // namespace stagecraft::views
