#pragma once
// A finished sweep as Studio shows it (File → Open Sweep): its spec, the
// records of DIR/results.jsonl as rows, each column's values numeric where
// they are numbers, and the Pareto front of two columns (core/sweep).

#include "arch/arch.h"
#include "io/session_json.h"
#include "sweep/records.h"

#include <QSet>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVector>

#include <memory>

namespace stagecraft::views {

struct SweepTable {
    QString directory;
    sweep::SweepSpec spec;
    std::vector<sweep::SweepPoint> points;
    sweep::Records records;
    QStringList columns;
    /// One row per record in point order; a cell is a double or a QString
    /// (invalid when the record has no such field).
    QVector<QVector<QVariant>> rows;
    /// The point of each row.
    QVector<int64_t> rowPoints;
    /// Cells (row × columns.size() + column) whose record holds null: a
    /// figure the run could not give, such as energy without an energy
    /// table. Their value is invalid, as a missing field's, but they read
    /// "—", never 0, and are left off the plot and the front.
    QSet<qint64> unknownCells;

    bool unknown(int row, int column) const {
        return unknownCells.contains(qint64{row} * columns.size() + column);
    }
    /// Whether every value of \p column is a number.
    bool numeric(int column) const;
    /// The rows on the Pareto front of columns \p x and \p y, each minimized
    /// unless it is throughput, efficiency or a speedup (sweep::paretoFront),
    /// over the rows where both are known.
    QVector<bool> front(int x, int y) const;
};

/// Reads DIR/spec.json and DIR/results.jsonl; the error names the file.
Expected<std::shared_ptr<const SweepTable>> loadSweepTable(const QString& directory);

/// The session that opens row \p row in Studio: the model (a zoo model is
/// written to the user's cache at the point's batch), the architecture
/// variant, strategy, level and precision of the point.
Expected<io::Session> sessionForRow(const SweepTable& table, int row);

} // namespace stagecraft::views
