// The sweep's records as a table model (sweep_model.h); a null field (an
// energy the architecture cannot price, a batch the spec leaves unset)
// reads "—" with a tooltip saying why, never 0.

#include "sweeps/sweep_model.h"

#include <cmath>

namespace stagecraft::views {

namespace {

/// Whole numbers (bytes, counts) in full, others to six digits.
QString numberText(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return QString::number(static_cast<qint64>(v));
    return QString::number(v, 'g', 6);
}

bool isEnergy(const QString& column) {
    return column == QLatin1String("energy_mj") || column == QLatin1String("edp_mj_ms");
}

} // namespace

SweepModel::SweepModel(std::shared_ptr<const SweepTable> table, QObject* parent)
    : QAbstractTableModel(parent)
    , table_(std::move(table)) {}

int SweepModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(table_->rows.size());
}

int SweepModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(table_->columns.size());
}

QVariant SweepModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const QVariant& value = table_->rows[index.row()][index.column()];
    bool number = value.typeId() == QMetaType::Double;
    bool unknown = table_->unknown(index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole:
        if (unknown)
            return QStringLiteral("\u2014");
        return number ? numberText(value.toDouble()) : value.toString();
    case Qt::UserRole:
        return value;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(number || unknown ? Qt::AlignRight | Qt::AlignVCenter
                                                     : Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (unknown && isEnergy(table_->columns[index.column()]))
            return tr("unknown: the architecture has no energy table (docs/arch.md)");
        return unknown ? tr("not set") : value.toString();
    default:
        return {};
    }
}

QVariant SweepModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Horizontal)
        return table_->columns.value(section);
    return section + 1;
}

} // namespace stagecraft::views
