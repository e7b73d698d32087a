// The comparison table model: rows fixed to sim::strategies(), filled as the
// runner's results arrive.

#include "compare/comparison_model.h"

#include "common/energy_text.h"

#include <QFont>

namespace stagecraft::views {

namespace {

constexpr int kDdr = 0;
constexpr int kGb = 1;
constexpr int kLb = 2;

// In Column's order.
const char* const kHeaders[] = {"Strategy",   "vs tvm",     "Latency µs", "DDR traffic",
                                "Spills",     "Energy mJ",  "EDP mJ·ms",  "Config",
                                "Kernels",    "GB traffic", "LB traffic", "Samples/s",
                                "LB tensors", "GB tensors", "DDR tensors"};
const char* const kHeaderTips[] = {
    "The scheduling strategy",
    "Speedup over tvm's schedule of the same model on the same architecture",
    "Simulated latency of one run, in microseconds",
    "Bytes moved to and from DDR (SI units)",
    "Spills out of the LB and out of the GB",
    "Energy of the whole batch in millijoules: every simulated action times the architecture's "
    "energy per action, plus leakage over the latency (docs/simulator.md, Energy); — without "
    "an energy table",
    "Energy-delay product: energy (mJ) × latency (ms), lower is better; — without an energy "
    "table",
    "Samples per cluster × loop iterations, level and order: each strategy's fastest, "
    "found by simulating the configurations its search may vary (§5.1), as stagecraft "
    "compare does",
    "Kernel launches",
    "Bytes moved to and from the GB",
    "Bytes moved to and from the LBs",
    "Samples per second",
    "Tensors declared in the LB (§3.4), graph outputs left out",
    "Tensors declared in the GB (§3.4), graph outputs left out",
    "Tensors declared in DDR (§3.4), graph outputs left out"};

} // namespace

ComparisonModel::ComparisonModel(QObject* parent)
    : QAbstractTableModel(parent) {
    for (const sim::Strategy& s : sim::strategies())
        rows_.push_back(
            {QString::fromStdString(s.name), QString::fromStdString(s.description), nullptr, {}});
}

void ComparisonModel::setResults(const std::map<std::string, ResultPtr>& results) {
    std::vector<sim::Report> reports;
    for (Row& row : rows_) {
        auto found = results.find(row.strategy.toStdString());
        row.result = found == results.end() ? nullptr : found->second;
        if (row.result)
            reports.push_back(row.result->eval.report);
    }
    sim::fillSpeedups(reports);
    size_t next = 0;
    for (Row& row : rows_)
        row.report = row.result ? reports[next++] : sim::Report{};
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void ComparisonModel::setCurrentStrategy(const QString& strategy) {
    if (strategy == current_)
        return;
    current_ = strategy;
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::FontRole});
}

QString ComparisonModel::strategyAt(int row) const {
    return row >= 0 && row < rowCount() ? rows_[static_cast<size_t>(row)].strategy : QString();
}

ResultPtr ComparisonModel::resultAt(int row) const {
    return row >= 0 && row < rowCount() ? rows_[static_cast<size_t>(row)].result : nullptr;
}

const sim::Report* ComparisonModel::reportAt(int row) const {
    return resultAt(row) ? &rows_[static_cast<size_t>(row)].report : nullptr;
}

int ComparisonModel::rowOf(const QString& strategy) const {
    for (size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].strategy == strategy)
            return static_cast<int>(i);
    return -1;
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonModel::rawValue(const Row& row, int column) const {
    const sim::Report& r = row.report;
    switch (column) {
    case Strategy:
        return row.strategy;
    case Speedup:
        return r.speedupVsTvm;
    case Latency:
        return r.latencyUs;
    case Throughput:
        return r.throughput;
    case Kernels:
        return qlonglong(r.kernels);
    case DdrTraffic:
        return qlonglong(r.trafficBytes[kDdr]);
    case GbTraffic:
        return qlonglong(r.trafficBytes[kGb]);
    case LbTraffic:
        return qlonglong(r.trafficBytes[kLb]);
    case LbScopes:
        return qlonglong(r.scopes[kLb]);
    case GbScopes:
        return qlonglong(r.scopes[kGb]);
    case DdrScopes:
        return qlonglong(r.scopes[kDdr]);
    case Spills:
        return qlonglong(r.spills);
    case Configuration:
        return QString::fromStdString(sim::configurationText(r));
    case Energy:
        return r.energyMj() ? QVariant(*r.energyMj()) : QVariant();
    case Edp:
        return r.edpMjMs() ? QVariant(*r.edpMjMs()) : QVariant();
    default:
        return {};
    }
}

QVariant ComparisonModel::displayValue(const Row& row, int column) const {
    if (column == Strategy)
        return row.strategy;
    if (!row.result)
        return column == Speedup ? QStringLiteral("…") : QString();
    const sim::Report& r = row.report;
    switch (column) {
    case Speedup:
        return r.speedupVsTvm > 0
                   ? QString(QString::number(r.speedupVsTvm, 'f', 2) + QLatin1Char('x'))
                   : QStringLiteral("–");
    case Latency:
        return QString::number(r.latencyUs, 'f', 1);
    case Throughput:
        return QString::number(r.throughput, 'f', 1);
    case DdrTraffic:
    case GbTraffic:
    case LbTraffic:
        return formatBytes(rawValue(row, column).toLongLong());
    case Energy:
    case Edp: {
        const QVariant value = rawValue(row, column);
        return value.isValid() ? formatSignificant(value.toDouble()) : unknownEnergyText();
    }
    case Configuration: { // "16×1 GB dfs"; the tooltip and UserRole say it in words
        QString text =
            QString::number(r.perCluster) + QStringLiteral("×") + QString::number(r.iterations);
        for (const std::string& part : {r.level, r.order})
            if (!part.empty())
                text += QLatin1Char(' ') + QString::fromStdString(part);
        return text;
    }
    default:
        return QString::number(rawValue(row, column).toLongLong());
    }
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Row& row = rows_[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(row, index.column());
    case Qt::UserRole:
        return row.result ? rawValue(row, index.column()) : QVariant();
    case Qt::ToolTipRole:
        if (row.result && (index.column() == Energy || index.column() == Edp) && !row.report.energy)
            return unknownEnergyTip();
        return row.result
                   ? QString(row.description + QStringLiteral("\n") +
                             QString::fromStdString(row.report.chosenBy) + QStringLiteral(": ") +
                             QString::fromStdString(sim::configurationText(row.report)))
                   : row.description;
    case Qt::TextAlignmentRole:
        return index.column() == Strategy || index.column() == Configuration
                   ? QVariant()
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole: {
        if (row.strategy != current_)
            return {};
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    default:
        return {};
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return QString::fromUtf8(kHeaders[section]);
    if (role == Qt::ToolTipRole)
        return QString::fromUtf8(kHeaderTips[section]);
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace stagecraft::views
