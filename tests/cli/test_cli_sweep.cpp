// stagecraft sweep through the real binary: spec errors as one line with
// the field, a sweep killed mid-run and resumed equals an uninterrupted one
// (no point lost or repeated, a torn last line dropped), shards merged equal
// a local run, the Pareto front holds exactly the non-dominated points,
// --slurm --dry-run prints the job array's script, and two sweeps of
// different specs racing into one folder do not mix.

#include "cli_helpers.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <utility>

using stagecraft::test::failed;
using stagecraft::test::readAll;
using stagecraft::test::runCli;
using stagecraft::test::s;

namespace {

/// 3 gb_bytes × 2 levels × 3 strategies × 2 models = 36 points, small
/// enough for the asan build and long enough to be killed mid-run.
const char* kSpec = R"({
  "models": ["zoo:fig3-chain", "zoo:mobilenet-v2"],
  "arch": {"base": "stcp920", "vary": {"gb_bytes": {"from": 2097152, "to": 8388608, "times": 2}}},
  "strategies": ["tvm", "astitch", "graphturbo"],
  "precisions": ["f16"], "per_cluster": [1], "levels": ["auto", "lb"]
})";
constexpr int kPoints = 36;

bool writeText(const QString& path, const QByteArray& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

int lineCount(const QString& path) {
    return static_cast<int>(readAll(path).count('\n'));
}

struct Row {
    int point;
    double x;
    double latency;
};

/// (point, column \p x, latency_ms) of every row of a results.csv.
QList<Row> csvRows(const QString& path, const QByteArray& x) {
    QList<QByteArray> lines = readAll(path).trimmed().split('\n');
    QList<QByteArray> header = lines.value(0).split(',');
    qsizetype gb = header.indexOf(x);
    qsizetype latency = header.indexOf("latency_ms");
    QList<Row> rows;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QList<QByteArray> f = lines[i].split(',');
        rows.append({f[0].toInt(), f.value(gb).toDouble(), f.value(latency).toDouble()});
    }
    return rows;
}

bool dominates(const Row& a, const Row& b) {
    return a.x <= b.x && a.latency <= b.latency && (a.x < b.x || a.latency < b.latency);
}

} // namespace

class TestCliSweep : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString spec_;
    QString full_;

    QString path(const char* name) const { return dir_.filePath(s(name)); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        spec_ = path("spec.json");
        QVERIFY(writeText(spec_, kSpec));
        full_ = path("full");
        auto result = runCli({s("sweep"), spec_, s("--out"), full_}, 600000);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QCOMPARE(lineCount(full_ + s("/results.jsonl")), kPoints);
        QCOMPARE(lineCount(full_ + s("/results.csv")), kPoints + 1);
        QVERIFY2(result.err.contains(s("36 of 36 points recorded, 0 failed")),
                 qPrintable(result.err));
    }

    void rerunningAFinishedSweepRunsNothing() {
        QByteArray before = readAll(full_ + s("/results.jsonl"));
        auto result = runCli({s("sweep"), spec_, s("--out"), full_});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.err.contains(s("36 done before, 0 to run")), qPrintable(result.err));
        QCOMPARE(readAll(full_ + s("/results.jsonl")), before);
    }

    void killedSweepResumesWithoutLossOrRepeat() {
        QString out = path("killed");
        QProcess process;
        process.start(QString::fromLocal8Bit(qgetenv("STAGECRAFT_CLI")),
                      {s("sweep"), spec_, s("--out"), out, s("--jobs"), s("1")});
        QVERIFY(process.waitForStarted());
        QElapsedTimer timer;
        timer.start();
        while (lineCount(out + s("/results.jsonl")) < 4 && timer.elapsed() < 300000 &&
               process.state() == QProcess::Running)
            QThread::msleep(5);
        process.kill(); // SIGKILL: no chance to tidy up
        process.waitForFinished();
        int kept = lineCount(out + s("/results.jsonl"));
        QVERIFY2(kept >= 4 && kept < kPoints, qPrintable(QString::number(kept)));
        // A writer killed mid-line leaves a torn line; make sure there is one.
        QFile results(out + s("/results.jsonl"));
        QVERIFY(results.open(QIODevice::Append));
        results.write(R"({"point":35,"key":"model=zoo:mob)");
        results.close();

        auto resumed = runCli({s("sweep"), spec_, s("--out"), out}, 600000);
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.err.contains(s("dropped 1 torn last line")), qPrintable(resumed.err));
        QVERIFY2(resumed.err.contains(s("%1 done before, %2 to run").arg(kept).arg(kPoints - kept)),
                 qPrintable(resumed.err));
        QCOMPARE(readAll(out + s("/results.jsonl")), readAll(full_ + s("/results.jsonl")));
        QCOMPARE(readAll(out + s("/results.csv")), readAll(full_ + s("/results.csv")));
    }

    void shardsMergeIntoTheLocalResult() {
        QString out = path("sharded");
        for (const char* shard : {"2/3", "1/3", "3/3"}) {
            auto result = runCli({s("sweep"), spec_, s("--out"), out, s("--shard"), s(shard)});
            QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        }
        QVERIFY(QFile::exists(out + s("/shards/shard-2-of-3.jsonl")));
        QVERIFY(!QFile::exists(out + s("/results.csv")));
        auto merged = runCli({s("sweep"), spec_, s("--out"), out});
        QVERIFY2(merged.exitCode == 0, qPrintable(merged.err));
        QVERIFY2(merged.err.contains(s("36 done before, 0 to run")), qPrintable(merged.err));
        QCOMPARE(readAll(out + s("/results.jsonl")), readAll(full_ + s("/results.jsonl")));
        QCOMPARE(readAll(out + s("/results.csv")), readAll(full_ + s("/results.csv")));
        QVERIFY(!QFile::exists(out + s("/shards")));
    }

    void paretoFrontHoldsExactlyTheNonDominatedPoints_data() {
        QTest::addColumn<QByteArray>("x");
        QTest::newRow("gb_bytes") << QByteArray("gb_bytes");
        QTest::newRow("energy_mj") << QByteArray("energy_mj");
    }

    void paretoFrontHoldsExactlyTheNonDominatedPoints() {
        QFETCH(QByteArray, x);
        QString objectives = QString::fromLatin1(x) + s(",latency_ms");
        auto result = runCli({s("sweep"), spec_, s("--out"), full_, s("--pareto"), objectives});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QStringList lines = result.out.trimmed().split(QLatin1Char('\n'));
        QVERIFY2(lines.value(0).startsWith(s("Pareto front of min ") + QString::fromLatin1(x) +
                                           s(" and min latency_ms")),
                 qPrintable(result.out));
        QSet<int> front;
        for (qsizetype i = 2; i < lines.size(); ++i)
            front.insert(lines[i].section(QLatin1Char(' '), 0, 0).toInt());
        QList<Row> rows = csvRows(full_ + s("/results.csv"), x);
        for (const Row& row : rows)
            QVERIFY2(row.x > 0, "every point has a positive figure");
        QCOMPARE(rows.size(), kPoints);
        for (const Row& row : rows) {
            bool beaten = false;
            for (const Row& other : rows)
                beaten = beaten || dominates(other, row);
            QVERIFY2(front.contains(row.point) == !beaten, qPrintable(QString::number(row.point)));
        }
    }

    void slurmDryRunPrintsTheArrayScript() {
        QString out = path("slurm-dry");
        auto result = runCli({s("sweep"), spec_, s("--out"), out, s("--slurm"), s("--dry-run"),
                              s("--max-tasks"), s("5"), s("--partition"), s("batch")});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        for (const char* line : {"#SBATCH --array=1-5", "#SBATCH --partition=batch",
                                 "--shard \"$SLURM_ARRAY_TASK_ID/5\"", "/slurm-dry/spec.json"})
            QVERIFY2(result.out.contains(s(line)), line);
        QVERIFY2(!QFile::exists(out), "--dry-run wrote the directory");
    }

    void badSpecs_data() {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QString>("part");
        QTest::newRow("no models") << QByteArray("{}") << s("models: missing");
        QTest::newRow("unknown field")
            << QByteArray(R"({"models": ["zoo:resnet50"], "arch": {"vary": {"lb": [1]}}})")
            << s("arch.vary.lb: unknown field");
        QTest::newRow("no such pointer")
            << QByteArray(R"({"models": ["zoo:resnet50"], "arch": {"vary": {"/cluster/x": [1]}}})")
            << s("arch.vary./cluster/x: names no number of 'stcp920'");
        QTest::newRow("unknown zoo model") << QByteArray(R"({"models": ["zoo:resnet5"]})")
                                           << s("models[0]: unknown zoo model 'resnet5'");
        QTest::newRow("missing file")
            << QByteArray(R"({"models": ["zoo:resnet50", "/nonexistent/m.onnx"]})")
            << s("models[1]: /nonexistent/m.onnx");
        QTest::newRow("bad range")
            << QByteArray(R"({"models": ["zoo:resnet50"], "batch": {"from": 8, "to": 2}})")
            << s("batch.to: must be at least 'from' (got 2)");
        QTest::newRow("unknown arch")
            << QByteArray(R"({"models": ["zoo:resnet50"], "arch": "tpu9"})")
            << s("arch: no preset or file named 'tpu9'");
    }
    void badSpecs() {
        QFETCH(QByteArray, spec);
        QFETCH(QString, part);
        QString file = path("bad.json");
        QVERIFY(writeText(file, spec));
        auto result = runCli({s("sweep"), file, s("--out"), path("bad-out")});
        QVERIFY(failed(result, 1, s("stagecraft sweep: ") + file + s(": ")));
        QVERIFY2(result.err.contains(part), qPrintable(result.err));
        QVERIFY2(!QFile::exists(path("bad-out")), "a bad spec created the directory");
    }

    void anotherSpecInTheDirectoryIsRefused() {
        QString other = path("other.json");
        QByteArray text = kSpec;
        QVERIFY(writeText(other, text.replace("\"lb\"", "\"gb\"")));
        auto result = runCli({s("sweep"), other, s("--out"), full_});
        QVERIFY(failed(result, 1, s("holds the results of another spec")));
    }

    /// Two sweeps of different specs started at once into one new folder:
    /// one runs, the other is refused before its first point (the folder is
    /// locked, or holds the other spec), and the folder holds the points of
    /// one spec only.
    void twoSpecsRacingIntoOneFolderDoNotMix() {
        QString other = path("racing.json");
        QByteArray text = kSpec;
        QVERIFY(writeText(other, text.replace("\"lb\"", "\"gb\"")));
        QString out = path("raced");
        QProcess first, second;
        for (auto [process, spec] : {std::pair{&first, spec_}, std::pair{&second, other}})
            process->start(qEnvironmentVariable("STAGECRAFT_CLI"),
                           {s("sweep"), spec, s("--out"), out});
        QVERIFY(first.waitForFinished(600000) && second.waitForFinished(600000));
        int succeeded = (first.exitCode() == 0 ? 1 : 0) + (second.exitCode() == 0 ? 1 : 0);
        QCOMPARE(succeeded, 1);
        QProcess& loser = first.exitCode() == 0 ? second : first;
        QString why = QString::fromUtf8(loser.readAllStandardError());
        QVERIFY2(why.contains(s("another sweep is running in it")) ||
                     why.contains(s("holds the results of another spec")),
                 qPrintable(why));
        QVERIFY2(!why.contains(s("points recorded")), "the refused sweep ran points");
        QCOMPARE(lineCount(out + s("/results.jsonl")), kPoints);
    }

    void badUsage() {
        QVERIFY(failed(runCli({s("sweep"), spec_}), 2, s("--out DIR is required")));
        QVERIFY(failed(runCli({s("sweep"), spec_, s("--out"), full_, s("--shard"), s("4/3")}), 2,
                       s("--shard needs I/N")));
        QVERIFY(failed(runCli({s("sweep"), spec_, s("--out"), full_, s("--jobs"), s("0")}), 2,
                       s("--jobs needs")));
        QVERIFY(failed(runCli({s("sweep"), spec_, s("--out"), full_, s("--pareto"), s("x")}), 2,
                       s("--pareto needs two columns")));
        QVERIFY(failed(runCli({s("sweep"), spec_, s("--out"), full_, s("--dry-run")}), 2,
                       s("go with --slurm")));
        auto help = runCli({s("sweep"), s("--help")});
        QCOMPARE(help.exitCode, 0);
        for (const char* option : {"--out", "--jobs", "--shard", "--pareto", "--slurm",
                                   "--partition", "--max-tasks", "--dry-run"})
            QVERIFY2(help.out.contains(s(option)), option);
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"
