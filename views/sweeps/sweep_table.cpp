// A sweep's spec and records read for Studio (sweep_table.h): cells as
// numbers or text, nulls remembered as unknown, the Pareto front over the
// rows that know both columns, and the session that opens a row.

#include "sweeps/sweep_table.h"

#include "arch/presets.h"
#include "ir/precision.h"
#include "support/file.h"
#include "sweep/pareto.h"
#include "sweep/variant.h"
#include "zoo/zoo.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace stagecraft::views {

namespace {

QVariant cellOf(const QJsonValue& value) {
    if (value.isDouble())
        return value.toDouble();
    if (value.isString())
        return value.toString();
    return {};
}

void fillRows(SweepTable& table) {
    for (const std::string& column : sweep::recordColumns(table.spec))
        table.columns << QString::fromStdString(column);
    for (const auto& [point, line] : table.records) {
        QJsonObject record = QJsonDocument::fromJson(QByteArray::fromStdString(line)).object();
        QVector<QVariant> row;
        for (const QString& column : table.columns) {
            if (record.contains(column) && record.value(column).isNull())
                table.unknownCells.insert(qint64{table.rows.size()} * table.columns.size() +
                                          row.size());
            row << cellOf(record.value(column));
        }
        table.rows << row;
        table.rowPoints << point;
    }
}

/// A file model of the spec, found next to the sweep directory or from the
/// current directory.
Expected<std::string> fileModel(const SweepTable& table, const std::string& text) {
    QString path = QString::fromStdString(text);
    if (QFileInfo(path).isAbsolute())
        return text;
    for (const QString& base : {QFileInfo(table.directory).absolutePath(), QDir::currentPath()}) {
        QString candidate = base + QLatin1Char('/') + path;
        if (QFileInfo(candidate).isFile())
            return candidate.toStdString();
    }
    return Error(text + ": not found next to " + table.directory.toStdString() +
                 " or in the current directory");
}

} // namespace

bool SweepTable::numeric(int column) const {
    bool any = false;
    for (const QVector<QVariant>& row : rows) {
        if (row[column].isValid() && row[column].typeId() != QMetaType::Double)
            return false;
        any = any || row[column].isValid();
    }
    return any;
}

QVector<bool> SweepTable::front(int x, int y) const {
    QVector<bool> onFront(rows.size(), false);
    std::string text = columns[x].toStdString() + "," + columns[y].toStdString();
    Expected<std::vector<sweep::Objective>> objectives = sweep::parseObjectives(text);
    if (!objectives.ok())
        return onFront;
    // A point that does not know x or y (energy without an energy table) is
    // neither on the front nor beating anything.
    sweep::Records known;
    for (int row = 0; row < rows.size(); ++row)
        if (rows[row][x].typeId() == QMetaType::Double &&
            rows[row][y].typeId() == QMetaType::Double)
            known.emplace(rowPoints[row], records.at(rowPoints[row]));
    Expected<std::vector<int64_t>> frontPoints = sweep::paretoFront(known, *objectives);
    if (!frontPoints.ok())
        return onFront;
    for (int64_t point : *frontPoints)
        onFront[static_cast<int>(rowPoints.indexOf(point))] = true;
    return onFront;
}

Expected<std::shared_ptr<const SweepTable>> loadSweepTable(const QString& directory) {
    auto table = std::make_shared<SweepTable>();
    table->directory = QFileInfo(directory).absoluteFilePath();
    std::string dir = table->directory.toStdString();
    SC_ASSIGN_OR_RETURN(std::string specText, readFile(dir + "/spec.json", 16 << 20));
    SC_ASSIGN_OR_RETURN(table->spec, sweep::parseSpec(specText, dir + "/spec.json"));
    if (sweep::countPoints(table->spec) > 1000000)
        return Error(dir + "/spec.json: more than 1000000 points");
    table->points = sweep::expandPoints(table->spec);
    int64_t torn = 0;
    SC_RETURN_IF_ERROR(sweep::readRecords(dir + "/results.jsonl", table->spec, table->points,
                                          table->records, torn));
    if (table->records.empty())
        return Error(dir + "/results.jsonl: no records (run 'stagecraft sweep' first)");
    fillRows(*table);
    return std::shared_ptr<const SweepTable>(std::move(table));
}

Expected<io::Session> sessionForRow(const SweepTable& table, int row) {
    int64_t point = table.rowPoints.value(row, -1);
    if (point < 0 || point >= static_cast<int64_t>(table.points.size()))
        return Error("no such row");
    const sweep::SweepPoint& p = table.points[static_cast<size_t>(point)];
    QJsonObject record =
        QJsonDocument::fromJson(QByteArray::fromStdString(table.records.at(point))).object();
    if (record.value(QStringLiteral("status")).toString() != QStringLiteral("ok"))
        return Error("point " + std::to_string(point) +
                     " failed: " + record.value(QStringLiteral("error")).toString().toStdString());
    io::Session session;
    SC_ASSIGN_OR_RETURN(arch::Arch base, arch::resolveArch(table.spec.arch));
    SC_ASSIGN_OR_RETURN(session.arch, sweep::archVariant(base, table.spec, p));
    session.strategy = p.strategy;
    session.level = schedule::parseLevel(
        record.value(QStringLiteral("level_used")).toString().toLower().toStdString());
    if (p.precision != "model") {
        SC_ASSIGN_OR_RETURN(ir::DType dtype, ir::parsePrecision(p.precision));
        session.precision = dtype;
    }
    auto batch = static_cast<int64_t>(record.value(QStringLiteral("per_cluster_used")).toDouble());
    if (p.model.text.rfind("zoo:", 0) == 0) {
        SC_ASSIGN_OR_RETURN(session.modelPath,
                            zoo::cachedZooModel(p.model.text.substr(4), p.model.seq, batch));
    } else {
        SC_ASSIGN_OR_RETURN(session.modelPath, fileModel(table, p.model.text));
    }
    return session;
}

} // namespace stagecraft::views
