// The split candidates table (see split_candidates_model.h). The column
// headers use the paper's symbols so the table reads next to Algorithm 1.

#include "inspector/split_candidates_model.h"

#include "inspector/inspector_text.h"
#include "inspector/schedule_queries.h"

#include <QFont>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

void SplitCandidatesModel::setResult(ResultPtr result) {
    result_ = std::move(result);
    rebuild();
}

void SplitCandidatesModel::setSelection(const Selection& selection) {
    selection_ = selection;
    rebuild();
}

void SplitCandidatesModel::rebuild() {
    beginResetModel();
    group_ = result_ ? inspector::groupOf(*result_, selection_) : std::nullopt;
    rows_.clear();
    hasResident_ = false;
    if (group_) {
        const auto& info = result_->eval.schedule.groups[*group_].splitInfo;
        rows_ = info.candidates;
        if (info.resident) {
            rows_.push_back(*info.resident);
            hasResident_ = true;
        }
    }
    endResetModel();
}

const partition::SplitCandidate& SplitCandidatesModel::candidate(int row) const {
    return rows_[static_cast<size_t>(row)];
}

bool SplitCandidatesModel::isResident(int row) const {
    return hasResident_ && static_cast<size_t>(row) + 1 == rows_.size();
}

bool SplitCandidatesModel::isChosen(int row) const {
    const auto& split = result_->eval.schedule.groups[*group_].split;
    if (!split || *split != candidate(row))
        return false;
    // A resident split equal to one of Algorithm 1's rows is checked once.
    return isResident(row) || !hasResident_ || rows_.back() != *split;
}

int SplitCandidatesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int SplitCandidatesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SplitCandidatesModel::display(const partition::SplitCandidate& c, int column) const {
    switch (column) {
    case DimColumn:
        return c.dim;
    case FactorColumn:
        return QVariant::fromValue(c.factor);
    case OpsSplitColumn:
        return QVariant::fromValue(c.opsSplit);
    case InstanceBytesColumn:
        return inspector::bytesText(c.instanceBytes);
    case RecomputeColumn:
        return QString(QString::number(c.recompute * 100.0, 'f', 1) % u" %"_s);
    case RereadsColumn:
        return QString(QString::number(c.rereads, 'f', 2) % u"\u00d7"_s);
    default:
        return {};
    }
}

QVariant SplitCandidatesModel::toolTip(int row, bool chosen) const {
    QString text;
    if (isResident(row))
        text = u"the GB-resident split: more instances than Algorithm 1's best, so each "
               u"instance holds its live set and the group's weights in the GB "
               u"(docs/decisions.md)"_s;
    if (chosen)
        text = text.isEmpty() ? u"the split the schedule uses"_s
                              : text % u"; the split the schedule uses"_s;
    return text.isEmpty() ? QVariant() : QVariant(text);
}

QVariant SplitCandidatesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    bool chosen = isChosen(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(candidate(index.row()), index.column());
    case Qt::CheckStateRole:
        if (index.column() == DimColumn)
            return chosen ? Qt::Checked : Qt::Unchecked;
        return {};
    case Qt::FontRole:
        if (chosen) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ToolTipRole:
        return toolTip(index.row(), chosen);
    default:
        return {};
    }
}

QVariant SplitCandidatesModel::rowHeader(int row, int role) const {
    if (row < 0 || static_cast<size_t>(row) >= rows_.size())
        return {};
    const auto& best = result_->eval.schedule.groups[*group_].splitInfo.best;
    bool isBest = !isResident(row) && best && *best == candidate(row);
    if (role == Qt::DisplayRole)
        return isResident(row) ? u"GB-resident"_s : isBest ? u"Alg. 1 best"_s : u"Alg. 1"_s;
    if (role == Qt::ToolTipRole)
        return isResident(row) ? toolTip(row, false)
               : isBest        ? u"Eq. 1's choice among Algorithm 1's candidates"_s
                               : u"a candidate of Algorithm 1 (one per splittable dim)"_s;
    return {};
}

QVariant SplitCandidatesModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == RereadsColumn)
        return u"how many times the instances together read the group's activation inputs "
               u"(§3.1's cost: a split over 2x is refused)"_s;
    if (orientation == Qt::Vertical)
        return rowHeader(section, role);
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case DimColumn:
        return u"dim d"_s;
    case FactorColumn:
        return u"factor f_d"_s;
    case OpsSplitColumn:
        return u"ops split n_d"_s;
    case InstanceBytesColumn:
        return u"instance bytes"_s;
    case RecomputeColumn:
        return u"recompute"_s;
    case RereadsColumn:
        return u"reads r_d"_s;
    default:
        return {};
    }
}

} // namespace stagecraft::views
