// stagecraft compare and schedule --simulate/--trace/--dot through the real
// binary on the paper's Fig. 3 chain (teaching architecture): every strategy
// in the JSON document with the keys and its configuration, each
// strategy's search and what --per-cluster, --level, --order and --fixed
// keep, byte-identical output, CSV, strategy selection, the exports, and the
// exit codes of bad input and usage.

#include "cli_helpers.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using stagecraft::test::fig3;
using stagecraft::test::parsed;
using stagecraft::test::readAll;
using stagecraft::test::runCli;
using stagecraft::test::s;

namespace {

/// The last stderr line (progress lines come before it) names the fault.
void expectError(const stagecraft::test::CliResult& r, int exitCode, const QString& part) {
    QCOMPARE(r.exitCode, exitCode);
    QString last = r.err.trimmed().split(QLatin1Char('\n')).last();
    QVERIFY2(last.contains(part), qPrintable(r.err));
}

} // namespace

class TestCliCompare : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private slots:
    void jsonHasEveryStrategyWithTheKeys() {
        auto result = runCli(fig3("compare", {s("--json")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QJsonObject doc = parsed(result.out.toUtf8());
        QCOMPARE(doc[s("format")].toString(), s("stagecraft-compare"));
        QJsonArray strategies = doc[s("strategies")].toArray();
        QStringList names;
        for (const QJsonValue& v : strategies) {
            QJsonObject r = v.toObject();
            names << r[s("name")].toString();
            for (const char* key :
                 {"kernels", "latency_us", "throughput", "speedup_vs_tvm", "traffic_bytes",
                  "scopes", "cu_utilization", "roofline_us", "per_cluster", "iterations", "level",
                  "order", "chosen_by", "configurations_tried"})
                QVERIFY2(r.contains(s(key)), key);
            // The Fig. 3 chain at batch 8 on one cluster: 8, 4, 2 or 1 per
            // cluster, the iterations making up the batch.
            QCOMPARE(r[s("per_cluster")].toInt() * r[s("iterations")].toInt(), 8);
            QCOMPARE(r[s("chosen_by")].toString(), s("tuned"));
            for (const char* level : {"DDR", "GB", "LB"}) {
                QVERIFY(r[s("traffic_bytes")].toObject().contains(s(level)));
                QVERIFY(r[s("scopes")].toObject().contains(s(level)));
            }
            QVERIFY(r[s("latency_us")].toDouble() >= r[s("roofline_us")].toDouble());
        }
        QCOMPARE(names,
                 s("tvm tvm-llb astitch dla ago ios gt-gb gt-lb gt-instances gt-paper graphturbo")
                     .split(QLatin1Char(' ')));
        QCOMPARE(strategies[0].toObject()[s("speedup_vs_tvm")].toDouble(), 1.0);
    }

    /// What each strategy searches (sim::Search): the baselines their
    /// samples per cluster (4 configurations), graphturbo also both levels
    /// and, at the best, the other order (9); gt-paper the samples only, at
    /// the LB level with the paper's order. Baselines fill no level and
    /// order no instances.
    void eachStrategySearchesItsOwnConfigurations() {
        auto result = runCli(fig3("compare", {s("--json")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        std::map<QString, QJsonObject> rows;
        for (const QJsonValue& v : parsed(result.out.toUtf8())[s("strategies")].toArray())
            rows[v.toObject()[s("name")].toString()] = v.toObject();
        QCOMPARE(rows[s("tvm")][s("configurations_tried")].toInt(), 4);
        QCOMPARE(rows[s("tvm")][s("level")].toString(), QString());
        QCOMPARE(rows[s("tvm")][s("order")].toString(), QString());
        QCOMPARE(rows[s("graphturbo")][s("configurations_tried")].toInt(), 9);
        QCOMPARE(rows[s("gt-paper")][s("configurations_tried")].toInt(), 4);
        QCOMPARE(rows[s("gt-paper")][s("level")].toString(), s("LB"));
        // Each configuration's line on stderr, with its cost.
        QVERIFY2(result.err.contains(s("graphturbo: ")) && result.err.contains(s("(tuned, 9 ")),
                 qPrintable(result.err));
    }

    /// --per-cluster, --level and --order fix that part for every strategy;
    /// --fixed searches nothing.
    void givenPartsAreKept() {
        auto fixedK = runCli(fig3("compare", {s("--json"), s("--per-cluster"), s("2"), s("--level"),
                                              s("gb"), s("--order"), s("bfs")}));
        QVERIFY2(fixedK.exitCode == 0, qPrintable(fixedK.err));
        for (const QJsonValue& v : parsed(fixedK.out.toUtf8())[s("strategies")].toArray()) {
            QJsonObject r = v.toObject();
            QCOMPARE(r[s("per_cluster")].toInt(), 2);
            QCOMPARE(r[s("configurations_tried")].toInt(), 1);
            if (!r[s("level")].toString().isEmpty())
                QCOMPARE(r[s("level")].toString(), s("GB"));
            if (!r[s("order")].toString().isEmpty())
                QCOMPARE(r[s("order")].toString(), s("bfs"));
        }
        auto fixed = runCli(fig3("compare", {s("--json"), s("--fixed")}));
        QVERIFY2(fixed.exitCode == 0, qPrintable(fixed.err));
        for (const QJsonValue& v : parsed(fixed.out.toUtf8())[s("strategies")].toArray()) {
            QJsonObject r = v.toObject();
            QCOMPARE(r[s("per_cluster")].toInt(), 8); // the model's batch
            QCOMPARE(r[s("chosen_by")].toString(), s("fixed"));
            QCOMPARE(r[s("configurations_tried")].toInt(), 1);
        }
    }

    void outputIsByteIdentical() {
        auto first = runCli(fig3("compare", {s("--json")}));
        auto second = runCli(fig3("compare", {s("--json")}));
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.out, second.out);
    }

    void csvAndStrategySelection() {
        auto result = runCli(fig3("compare", {s("--csv"), s("--strategies"), s("tvm,graphturbo")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QStringList lines = result.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith(s("strategy,kernels,")));
        QVERIFY(lines[1].startsWith(s("tvm,")));
        QVERIFY(lines[2].startsWith(s("graphturbo,")));
    }

    // Energy (docs/simulator.md, "Energy"): the teaching preset's table
    // prices every strategy; the levels and the groups add up to the total.
    void energyInEveryReportAddsUp() {
        auto result = runCli(fig3("compare", {s("--json")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        for (const auto& value : parsed(result)[s("strategies")].toArray()) {
            QJsonObject energy = value.toObject()[s("energy")].toObject();
            double total = energy[s("total_mj")].toDouble();
            QVERIFY(total > 0);
            double levels = 0, groups = 0;
            for (const auto& level : energy[s("by_level_mj")].toObject())
                levels += level.toDouble();
            for (const auto& group : energy[s("groups")].toArray())
                groups += group.toObject()[s("total_mj")].toDouble();
            QVERIFY(qAbs(levels - total) <= 1e-9 * total);
            QVERIFY(qAbs(groups - total) <= 1e-9 * total);
            QVERIFY(energy[s("static_mj")].toDouble() > 0);
            QVERIFY(energy[s("edp_mj_ms")].toDouble() > 0);
        }
        auto text = runCli(fig3("compare", {}));
        QVERIFY(text.out.contains(s("energy per batch, by level")));
        QVERIFY(text.out.contains(s("DDR traffic avoided")) ||
                text.out.contains(s("saves -"))); // a measurement, whichever way it goes
        auto csv = runCli(fig3("compare", {s("--csv")}));
        QStringList header = csv.out.section(QLatin1Char('\n'), 0, 0).split(QLatin1Char(','));
        QStringList row = csv.out.section(QLatin1Char('\n'), 1, 1).split(QLatin1Char(','));
        qsizetype at = header.indexOf(s("energy_mj"));
        QVERIFY(at >= 0 && header.contains(s("edp_mj_ms")) &&
                header.contains(s("energy_ddr_read_mj")));
        QVERIFY(row.value(at).toDouble() > 0);
    }

    // An architecture without an energy table still runs: energy unknown,
    // written as null and empty, never as 0.
    void energyUnknownWithoutATable() {
        auto arch = runCli({s("arch"), s("teaching"), s("--json")});
        QVERIFY2(arch.exitCode == 0, qPrintable(arch.err));
        QJsonObject description = parsed(arch);
        QVERIFY(description.contains(s("energy")));
        description.remove(s("energy"));
        QString file = dir_.filePath(s("no-energy.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(description).toJson());
        out.close();
        QStringList args{s("compare"), s("zoo:fig3-chain"), s("--arch"),
                         file,         s("--strategies"),   s("tvm,graphturbo")};
        auto json = runCli(args + QStringList{s("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        for (const auto& value : parsed(json)[s("strategies")].toArray())
            QVERIFY(value.toObject()[s("energy")].isNull());
        auto text = runCli(args);
        QVERIFY(text.out.contains(s("unknown (the architecture has no energy table)")));
        auto csv = runCli(args + QStringList{s("--csv")});
        QStringList header = csv.out.section(QLatin1Char('\n'), 0, 0).split(QLatin1Char(','));
        QStringList row = csv.out.section(QLatin1Char('\n'), 1, 1).split(QLatin1Char(','));
        QCOMPARE(row.value(header.indexOf(s("energy_mj"))), QString());
    }

    void scheduleSimulatesAndExports() {
        QString trace = dir_.filePath(s("t.json"));
        QString dot = dir_.filePath(s("g.dot"));
        auto result =
            runCli(fig3("schedule", {s("--simulate"), s("--trace"), trace, s("--dot"), dot}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.contains(s("simulation")));
        QVERIFY(result.out.contains(s("roofline")));
        QVERIFY(result.out.contains(s("energy by level:")));
        QJsonObject doc = parsed(readAll(trace));
        QVERIFY(doc[s("traceEvents")].toArray().size() > 10);
        QVERIFY(readAll(dot).startsWith("digraph"));
    }

    void badUsage_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("part");
        QTest::newRow("unknown strategy")
            << fig3("compare", {s("--strategies"), s("tvm,xla")}) << s("unknown strategy 'xla'");
        QTest::newRow("json and csv") << fig3("compare", {s("--json"), s("--csv")})
                                      << s("--json and --csv exclude each other");
        QTest::newRow("bad level")
            << fig3("compare", {s("--level"), s("l3")}) << s("--level must be lb, gb or auto");
        QTest::newRow("bad order") << fig3("compare", {s("--order"), s("zigzag")})
                                   << s("--order must be bfs, dfs or best");
        QTest::newRow("batch word")
            << fig3("compare", {s("--batch"), s("x")}) << s("--batch needs a whole number");
        QTest::newRow("no model") << QStringList{s("compare")} << s("missing MODEL");
    }
    void badUsage() {
        QFETCH(QStringList, args);
        QFETCH(QString, part);
        expectError(runCli(args), 2, part);
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("part");
        QTest::newRow("unknown arch")
            << QStringList{s("compare"), s("zoo:fig3-chain"), s("--arch"), s("tpu9")}
            << s("'tpu9'");
        QTest::newRow("unwritable trace")
            << fig3("compare", {s("--trace"), s("/nonexistent/dir/t.json")})
            << s("/nonexistent/dir/t.json");
        QTest::newRow("unwritable dot")
            << fig3("schedule", {s("--dot"), s("/nonexistent/dir/g.dot")})
            << s("/nonexistent/dir/g.dot");
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, part);
        expectError(runCli(args), 1, part);
    }

    void help() {
        auto result = runCli({s("compare"), s("--help")});
        QCOMPARE(result.exitCode, 0);
        for (const char* option : {"--arch", "--batch", "--per-cluster", "--level", "--order",
                                   "--fixed", "--strategies", "--trace", "--json", "--csv"})
            QVERIFY2(result.out.contains(s(option)), option);
        auto schedule = runCli({s("schedule"), s("--help")});
        for (const char* option : {"--simulate", "--trace", "--dot"})
            QVERIFY2(schedule.out.contains(s(option)), option);
    }
};

QTEST_GUILESS_MAIN(TestCliCompare)
#include "test_cli_compare.moc"
