#pragma once
// SplitInfo of the selected group (or the group of the selected op,
// instance or tensor) as a read-only table: one row per candidate
// (d, f_d, n_d, instance bytes, recompute) of Algorithm 1 (§3.1), then the
// GB-resident split when the group has one (SplitInfo::resident); the split
// the schedule uses is checked (Qt::CheckStateRole, column 0) and bold.

#include "common/pipeline_result.h"
#include "common/selection.h"

#include <QAbstractTableModel>

#include <optional>

namespace stagecraft::views {

class SplitCandidatesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        DimColumn,
        FactorColumn,
        OpsSplitColumn,
        InstanceBytesColumn,
        RecomputeColumn,
        RereadsColumn,
        ColumnCount
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setResult(ResultPtr result);
    void setSelection(const Selection& selection);

    /// The group shown, if any.
    std::optional<schedule::GroupId> group() const { return group_; }
    const partition::SplitCandidate& candidate(int row) const;
    bool isChosen(int row) const;
    /// The row is the GB-resident split, not one of Algorithm 1's candidates.
    bool isResident(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void rebuild();
    QVariant display(const partition::SplitCandidate& candidate, int column) const;
    QVariant toolTip(int row, bool chosen) const;
    QVariant rowHeader(int row, int role) const;

    ResultPtr result_;
    Selection selection_;
    std::optional<schedule::GroupId> group_;
    std::vector<partition::SplitCandidate> rows_;
    bool hasResident_ = false;
};

} // namespace stagecraft::views
