// The cost table model (cost_table_model.h). Times are shown in µs with
// three significant decimals as the comparison shows latencies; traffic in SI
// bytes (common/byte_text.h); energies in the unit that suits them
// (common/energy_text.h), "—" when unknown.

#include "costs/cost_table_model.h"

#include "common/byte_text.h"
#include "common/energy_text.h"

namespace stagecraft::views {

namespace {

using sim::Cause;

constexpr int kDdr = 0;
constexpr int kGb = 1;
constexpr int kLb = 2;

// In Column's order.
const char* const kHeaders[] = {
    "Name",       "First op", "Kernels",   "Time µs",     "Share",      "Compute µs", "DMA wait µs",
    "Control µs", "Mostly",   "Computing", "DDR traffic", "GB traffic", "LB traffic", "Weights",
    "Spills",     "Spilled",  "Energy",    "Dynamic",     "Static",     "DDR energy"};
const char* const kHeaderTips[] = {
    "The group (its label in the graph) or the kernel (its instance); sorts by execution order",
    "The first of its group's ops in graph order",
    "Kernel launches of the group",
    "Simulated time attributed to it over the whole batch (docs/simulator.md, Attribution)",
    "Its part of the run's time",
    "Time in which some compute unit runs its tiles",
    "Time in which no unit computes while its DMA runs: the transfers compute did not hide",
    "Kernel launch and the synchronization that ends it",
    "The cause that took most of its time",
    "The part of its time in which some unit computes (100 %: no wait for data or control)",
    "Bytes it moves to and from DDR (SI units)",
    "Bytes it moves to and from the GB",
    "Bytes it moves to and from the LBs",
    "Weight bytes it loads",
    "Tensors its layers move to a slower memory (LB to GB or DDR, GB to DDR)",
    "Bytes it spills out and reads back",
    "Energy of the simulated run over the whole batch: its actions times the architecture's "
    "energy per action, plus leakage over its time (docs/simulator.md, Energy)",
    "Energy of its actions: operations, LB/GB/DDR reads and writes, wires",
    "Leakage of every unit and memory over its share of the run's time",
    "The part of its energy spent moving bytes to and from DDR (reads, writes, wires)"};

/// One decimal in every row, so the column's figures line up ("6.0" beside
/// "13.0"); a time too small for it says so.
QString micros(double ns) {
    if (ns > 0 && ns < 50)
        return QStringLiteral("<0.1");
    return QString::number(ns / 1000.0, 'f', 1);
}

QString percent(double fraction) {
    return QString::number(100.0 * fraction, 'f', 1) + QStringLiteral(" %");
}

} // namespace

QString causeText(sim::Cause cause) {
    return QString::fromUtf8(sim::causeName(cause).data(),
                             static_cast<qsizetype>(sim::causeName(cause).size()))
        .replace(QLatin1Char('_'), QLatin1Char(' '));
}

CostTableModel::CostTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void CostTableModel::setRows(std::vector<CostRow> rows, double runNs) {
    beginResetModel();
    rows_ = std::move(rows);
    runNs_ = runNs;
    endResetModel();
}

int CostTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CostTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CostTableModel::rawValue(int index, int column) const {
    const CostRow& row = rows_[static_cast<size_t>(index)];
    switch (column) {
    case Name:
        return index;
    case FirstOp:
        return QString::fromStdString(row.firstOp);
    case Kernels:
        return row.kernels;
    case Time:
        return row.breakdown.totalNs;
    case Share:
        return runNs_ > 0 ? row.breakdown.totalNs / runNs_ : 0.0;
    case Compute:
        return row.computeNs();
    case DmaWait:
        return row.breakdown.dmaWaitNs();
    case Control:
        return row.controlNs();
    case MainCause:
        return causeText(sim::dominantCause(row.breakdown));
    case Computing:
        return row.computeShare();
    case DdrTraffic:
        return qlonglong(row.traffic[kDdr]);
    case GbTraffic:
        return qlonglong(row.traffic[kGb]);
    case LbTraffic:
        return qlonglong(row.traffic[kLb]);
    case WeightBytes:
        return qlonglong(row.bytesOf(Cause::WeightLoad));
    case Spills:
        return qlonglong(row.spills);
    case SpillBytes:
        return qlonglong(row.bytesOf(Cause::SpillOut) + row.bytesOf(Cause::SpillBack));
    default:
        return energyValue(row, column);
    }
}

QVariant CostTableModel::energyValue(const CostRow& row, int column) const {
    // Unknown sorts below every figure (as -1), never as a 0 J that is not.
    if (!row.energy)
        return -1.0;
    switch (column) {
    case Energy:
        return row.energy->totalPj();
    case DynamicEnergy:
        return row.energy->dynamicPj();
    case StaticEnergy:
        return row.energy->staticPj();
    case DdrEnergyShare:
        return row.energy->totalPj() > 0 ? row.energy->ddrTrafficPj() / row.energy->totalPj() : 0.0;
    default:
        return {};
    }
}

QVariant CostTableModel::displayValue(int index, int column) const {
    const CostRow& row = rows_[static_cast<size_t>(index)];
    switch (column) {
    case Name:
        return QString::fromStdString(row.label);
    case Time:
    case Compute:
    case DmaWait:
    case Control:
        return micros(rawValue(index, column).toDouble());
    case Share:
    case Computing:
        return percent(rawValue(index, column).toDouble());
    case DdrTraffic:
    case GbTraffic:
    case LbTraffic:
    case WeightBytes:
    case SpillBytes:
        return formatBytes(rawValue(index, column).toLongLong());
    case Energy:
    case DynamicEnergy:
    case StaticEnergy:
        return row.energy ? formatEnergy(rawValue(index, column).toDouble()) : unknownEnergyText();
    case DdrEnergyShare:
        return row.energy ? percent(rawValue(index, column).toDouble()) : unknownEnergyText();
    default:
        return rawValue(index, column).toString();
    }
}

QString CostTableModel::rowTip(const CostRow& row) const {
    const bool isGroup = row.selection.kind == Selection::Kind::Group;
    QString tip =
        isGroup ? tr("Group %1: %2 ops, %3 kernels")
                      .arg(QString::fromStdString(row.label))
                      .arg(row.ops)
                      .arg(row.kernels)
                : tr("Kernel %1 of group %2: %3 ops")
                      .arg(QString::fromStdString(row.label), QString::fromStdString(row.group))
                      .arg(row.ops);
    tip += tr("; mostly %1").arg(causeText(sim::dominantCause(row.breakdown)));
    if (row.energy)
        tip += tr("; %1 (%2 dynamic, %3 static)")
                   .arg(formatEnergy(row.energy->totalPj()), formatEnergy(row.energy->dynamicPj()),
                        formatEnergy(row.energy->staticPj()));
    return tip;
}

QVariant CostTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(index.row(), index.column());
    case Qt::UserRole:
        return rawValue(index.row(), index.column());
    case Qt::ToolTipRole:
        if (index.column() >= Energy && !rows_[static_cast<size_t>(index.row())].energy)
            return unknownEnergyTip();
        return rowTip(rows_[static_cast<size_t>(index.row())]);
    case Qt::TextAlignmentRole:
        return index.column() == Name || index.column() == FirstOp || index.column() == MainCause
                   ? QVariant()
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant CostTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return QString::fromUtf8(kHeaders[section]);
    if (role == Qt::ToolTipRole)
        return QString::fromUtf8(kHeaderTips[section]);
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace stagecraft::views
