// stagecraft schedule through the real binary: the paper's Fig. 3 chain on the
// teaching architecture (instances 8, 4, 2, 1; the BFS and DFS orders of
// Fig. 7), the document's contract keys, --out/--overrides reproducing a
// schedule byte for byte, refused overrides, batch handling for files and zoo
// models, and the exit codes of bad input and usage (--explain:
// test_cli_explain.cpp).

#include "cli_helpers.h"
#include "onnx/model_builder.h"
#include "testsupport.h"
#include "zoo/zoo.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace stagecraft;
using stagecraft::test::parsed;
using stagecraft::test::readAll;
using stagecraft::test::runCli;
using stagecraft::test::s;
using stagecraft::test::scheduleFig3;

namespace {

QStringList orderLabels(const QJsonObject& doc) {
    QStringList labels;
    for (const QJsonValue& step : doc[s("order")].toArray())
        labels << step[s("instance")].toString();
    return labels;
}

bool writeText(const QString& path, const QString& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(text.toUtf8()) == text.toUtf8().size();
}

void expectOneLineError(const test::CliResult& r, int exitCode, const QStringList& parts) {
    QCOMPARE(r.exitCode, exitCode);
    QString err = r.err.trimmed();
    QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err));
    QVERIFY2(err.startsWith(s("stagecraft schedule: ")), qPrintable(err));
    for (const QString& part : parts)
        QVERIFY2(err.contains(part), qPrintable(err + s(" lacks ") + part));
}

} // namespace

class TestCliSchedule : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString file(const char* name) const { return dir_.filePath(s(name)); }

private slots:
    void bfsOrderOfFig3() {
        auto result = runCli(scheduleFig3({s("--order"), s("bfs"), s("--json")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QJsonObject doc = parsed(result);
        QList<int> instances;
        for (const QJsonValue& group : doc[s("groups")].toArray())
            instances << group[s("instances")].toInt();
        QCOMPARE(instances, (QList<int>{8, 4, 2, 1}));
        QCOMPARE(orderLabels(doc),
                 s("a1 a2 a3 a4 a5 a6 a7 a8 b1 b2 b3 b4 c1 c2 d1").split(QLatin1Char(' ')));
        QCOMPARE(doc[s("order_kind")].toString(), s("bfs"));
    }

    void dfsOrderOfFig3() {
        auto result = runCli(scheduleFig3({s("--order"), s("dfs"), s("--json")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QJsonObject doc = parsed(result);
        QCOMPARE(orderLabels(doc),
                 s("a8 a7 b4 a6 a5 b3 c2 a4 a3 b2 a2 a1 b1 c1 d1").split(QLatin1Char(' ')));
        QCOMPARE(doc[s("order_kind")].toString(), s("dfs"));
        QVERIFY(!doc.contains(s("trace")));
    }

    void documentHasTheContractKeys() {
        auto result = runCli(scheduleFig3({s("--json")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QCOMPARE(runCli(scheduleFig3({s("--json")})).out, result.out);
        QJsonObject doc = parsed(result);
        QCOMPARE(doc[s("format")].toString(), s("stagecraft-schedule"));
        QCOMPARE(doc[s("version")].toInt(), 1);
        auto hasKeys = [](const QJsonObject& object, const char* keys) {
            for (const QString& key : s(keys).split(QLatin1Char(' ')))
                if (!object.contains(key)) {
                    qWarning("missing key %s", qPrintable(key));
                    return false;
                }
            return true;
        };
        QVERIFY(hasKeys(doc,
                        "model arch level capacity_bytes clusters order_choice overrides groups "
                        "instances edges redundant_edges order_kind order utilization "
                        "inserted"));
        QVERIFY(hasKeys(doc[s("model")].toObject(), "path graph ops"));
        QCOMPARE(doc[s("model")][s("path")].toString(), s("zoo:fig3-chain"));
        QCOMPARE(doc[s("arch")].toString(), s("teaching"));
        QVERIFY(hasKeys(doc[s("clusters")].toObject(),
                        "count per_cluster total_batch iterations chosen_by"));
        QCOMPARE(doc[s("clusters")][s("per_cluster")].toInt(), 8);
        QCOMPARE(doc[s("clusters")][s("chosen_by")].toString(), s("model"));
        QVERIFY(hasKeys(doc[s("utilization")].toObject(), "bfs dfs"));
        QVERIFY(hasKeys(doc[s("overrides")].toObject(), "merge ungroup split order scope"));
        QJsonObject group = doc[s("groups")][0].toObject();
        QVERIFY(hasKeys(group, "id label ops output shape peak_bytes split split_overridden "
                               "split_info instances"));
        QVERIFY(hasKeys(group[s("split")].toObject(), "dim factor"));
        QVERIFY(hasKeys(group[s("split_info")][s("candidates")][0].toObject(),
                        "dim factor ops_split instance_bytes recompute"));
        QVERIFY(hasKeys(doc[s("instances")][0].toObject(),
                        "label group index shape footprint_bytes fits_lb bind scope"));
        QVERIFY(hasKeys(doc[s("edges")][0].toObject(), "from to"));
        QVERIFY(hasKeys(doc[s("order")][0].toObject(), "group instance"));
        QJsonArray inserted = doc[s("inserted")].toArray();
        QVERIFY(!inserted.isEmpty());
        QVERIFY(hasKeys(inserted[0].toObject(), "kind consumer sources tensor shape scope bind"));
    }

    void textSummary() {
        auto result = runCli(scheduleFig3({s("--order"), s("dfs")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.startsWith(s("model zoo:fig3-chain (graph fig3-chain, 16 ops) on "
                                        "teaching\n")));
        QVERIFY(result.out.contains(s("\ngroups (4)\n")));
        QVERIFY(result.out.contains(s("split dim 0 / 8")));
        QVERIFY(result.out.contains(s("\norder (15)\n  a8 a7 b4 a6 a5 b3 c2 a4 a3 b2 a2 a1 b1 c1 "
                                      "d1\n")));
        QVERIFY(result.out.contains(s("\nbindings and scopes\n  a   a1..a8 [")));
        QVERIFY(result.out.contains(s("\ninserted ops: ")));
    }

    /// --strategy schedules as another system does: DLA keeps the chain
    /// as one part (one input and one output op), TVM fuses each conv with
    /// its ReLU, AGO clusters by weight; none splits into instances.
    void strategyPicksTheScheduler() {
        auto groupsOf = [](const char* strategy) {
            auto result =
                runCli(scheduleFig3({s("--strategy"), s(strategy), s("--level"), s("lb")}));
            return result.exitCode == 0 ? result.out : s("failed: ") + result.err;
        };
        QString dla = groupsOf("dla"), tvm = groupsOf("tvm"), ago = groupsOf("ago");
        QVERIFY2(dla.contains(s("\ngroups (1)\n")), qPrintable(dla));
        QVERIFY2(tvm.contains(s("\ngroups (8)\n")), qPrintable(tvm));
        QVERIFY2(ago.contains(s("\ngroups (3)\n")), qPrintable(ago));
        for (const QString& out : {dla, tvm, ago})
            QVERIFY2(!out.contains(s("split dim")), qPrintable(out));
        auto simulated = runCli(scheduleFig3({s("--strategy"), s("ago"), s("--simulate")}));
        QVERIFY2(simulated.exitCode == 0 && simulated.out.contains(s("where the time goes")),
                 qPrintable(simulated.err));
    }

    void outThenOverridesReproduces_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("overrides");
        QTest::newRow("dfs") << QStringList{s("--order"), s("dfs")} << QString();
        QTest::newRow("bfs, explained")
            << QStringList{s("--order"), s("bfs"), s("--explain")} << QString();
        QTest::newRow("split and order overrides")
            << QStringList{} << s(R"({"format": "stagecraft-overrides", "version": 1,
                     "split": [{"op": "stage4.conv1", "dim": 0, "factor": 2}],
                     "order": ["a1", "a2", "b1", "a3", "a4", "b2", "c1", "a5", "a6", "b3",
                               "a7", "a8", "b4", "c2", "d1", "d2"]})");
    }
    void outThenOverridesReproduces() {
        QFETCH(QStringList, options);
        QFETCH(QString, overrides);
        QStringList first = options;
        if (!overrides.isEmpty()) {
            QVERIFY(writeText(file("edits.json"), overrides));
            first << s("--overrides") << file("edits.json");
        }
        auto a = runCli(scheduleFig3(first + QStringList{s("--out"), file("a.json")}));
        QVERIFY2(a.exitCode == 0, qPrintable(a.err));
        QVERIFY(a.out.contains(s("wrote ") + file("a.json")));
        auto b =
            runCli(scheduleFig3(options + QStringList{s("--overrides"), file("a.json"), s("--out"),
                                                      file("b.json"), s("--json")}));
        QVERIFY2(b.exitCode == 0, qPrintable(b.err));
        QByteArray written = readAll(file("a.json"));
        QVERIFY(!written.isEmpty());
        QCOMPARE(readAll(file("b.json")), written);
        QCOMPARE(b.out.toUtf8(), written);
        if (!overrides.isEmpty()) {
            QJsonObject doc = QJsonDocument::fromJson(written).object();
            QCOMPARE(doc[s("order_kind")].toString(), s("user"));
            QCOMPARE(doc[s("groups")][3][s("split_overridden")].toBool(), true);
        }
    }

    void refusedOverrides_data() {
        QTest::addColumn<QString>("overrides");
        QTest::addColumn<QStringList>("parts");
        QTest::newRow("order not topological")
            << s(R"({"format": "stagecraft-overrides", "version": 1,
                     "order": ["b1", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b2", "b3",
                               "b4", "c1", "c2", "d1"]})")
            << QStringList{s("'b1'"), s("'a1'")};
        QTest::newRow("factor does not divide")
            << s(R"({"format": "stagecraft-overrides", "version": 1,
                     "split": [{"op": "stage1.conv1", "dim": 0, "factor": 3}]})")
            << QStringList{s("stage1.conv1"), s("3"), s("divide")};
        QTest::newRow("bad file") << s(R"({"format": "stagecraft-overrides", "version": 1,
                     "split": [{"op": "stage1.conv1", "dim": 0, "factor": "4"}]})")
                                  << QStringList{
                                         s("edits.json: split[0].factor: must be an integer >= 1")};
        QTest::newRow("not json") << s("{") << QStringList{s("edits.json: not valid JSON")};
    }
    void refusedOverrides() {
        QFETCH(QString, overrides);
        QFETCH(QStringList, parts);
        QVERIFY(writeText(file("edits.json"), overrides));
        auto result = runCli(scheduleFig3({s("--overrides"), file("edits.json")}));
        expectOneLineError(result, 1, parts);
        QVERIFY(result.out.isEmpty());
    }

    void fileModels() {
        // x: [N, 8, 16, 16] with a symbolic batch N -> Conv -> Relu.
        onnxio::ModelBuilder m("dyn", 13);
        m.addInput("x", ir::DType::Float32,
                   {std::string("N"), int64_t{8}, int64_t{16}, int64_t{16}});
        m.addExternalInitializer("w", ir::DType::Float32, {8, 8, 3, 3});
        m.addNode("Conv", {"x", "w"}, {"c"}, "conv").attr("pads", std::vector<int64_t>{1, 1, 1, 1});
        m.addNode("Relu", {"c"}, {"y"}, "relu");
        m.addOutput("y", ir::DType::Float32, {}, false);
        QVERIFY(m.save(file("dyn.onnx").toStdString()).ok());
        QStringList dyn{s("schedule"), file("dyn.onnx"), s("--arch"), s("teaching"), s("--json")};

        expectOneLineError(runCli(dyn), 1, {s("dyn.onnx"), s("--per-cluster K or --dim N=K")});
        auto given = runCli(dyn + QStringList{s("--per-cluster"), s("4")});
        QVERIFY2(given.exitCode == 0, qPrintable(given.err));
        QJsonObject doc = parsed(given);
        QCOMPARE(doc[s("clusters")][s("per_cluster")].toInt(), 4);
        QCOMPARE(doc[s("clusters")][s("chosen_by")].toString(), s("given"));
        QCOMPARE(doc[s("groups")][0][s("shape")][0].toInt(), 4);
        auto bound = runCli(dyn + QStringList{s("--dim"), s("N=2")});
        QVERIFY2(bound.exitCode == 0, qPrintable(bound.err));
        QCOMPARE(parsed(bound)[s("clusters")][s("per_cluster")].toInt(), 2);
        QCOMPARE(parsed(bound)[s("clusters")][s("chosen_by")].toString(), s("model"));
        expectOneLineError(
            runCli(dyn + QStringList{s("--dim"), s("N=2"), s("--per-cluster"), s("4")}), 1,
            {s("batch is fixed to 2"), s("--per-cluster 2")});

        // A zoo file has a fixed batch (8 for fig3-chain).
        QVERIFY(zoo::writeZooModel("fig3-chain", {}, file("chain.onnx").toStdString()).ok());
        QStringList chain{s("schedule"), file("chain.onnx"), s("--arch"), s("teaching"),
                          s("--json")};
        auto fixed = runCli(chain);
        QVERIFY2(fixed.exitCode == 0, qPrintable(fixed.err));
        QCOMPARE(parsed(fixed)[s("clusters")][s("per_cluster")].toInt(), 8);
        expectOneLineError(runCli(chain + QStringList{s("--per-cluster"), s("4")}), 1,
                           {s("chain.onnx"), s("the model's batch is fixed to 8")});
    }

    void zooBatchFollowsPerCluster() {
        auto result =
            runCli(scheduleFig3({s("--per-cluster"), s("2"), s("--batch"), s("6"), s("--json")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QJsonObject clusters = parsed(result)[s("clusters")].toObject();
        QCOMPARE(clusters[s("per_cluster")].toInt(), 2);
        QCOMPARE(clusters[s("total_batch")].toInt(), 6);
        QCOMPARE(clusters[s("iterations")].toInt(), 3);
        QCOMPARE(parsed(result)[s("groups")][0][s("instances")].toInt(), 2);
    }

    void levelChoosesTheBufferAlgorithm1Fills() {
        auto lb = runCli(scheduleFig3({s("--level"), s("lb"), s("--json")}));
        auto gb = runCli(scheduleFig3({s("--level"), s("gb"), s("--json")}));
        QVERIFY2(lb.exitCode == 0 && gb.exitCode == 0, qPrintable(lb.err + gb.err));
        QCOMPARE(parsed(lb)[s("level")].toString(), s("LB"));
        QCOMPARE(parsed(gb)[s("level")].toString(), s("GB"));
        // The teaching GB holds more than the cluster's local buffers together,
        // so fewer instances are needed.
        QVERIFY(parsed(gb)[s("capacity_bytes")].toDouble() >
                parsed(lb)[s("capacity_bytes")].toDouble());
        QVERIFY(parsed(gb)[s("instances")].toArray().size() <
                parsed(lb)[s("instances")].toArray().size());
        auto text = runCli(scheduleFig3({s("--level"), s("gb")}));
        QVERIFY2(text.out.contains(s("; GB capacity ")), qPrintable(text.out));
    }

    /// The default, auto, simulates both levels, keeps the faster and says
    /// so (in the text; the document has the level) with both latencies.
    void levelAutoIsTheDefaultAndSaysWhy() {
        auto result = runCli(scheduleFig3({s("--level"), s("auto"), s("--json")}));
        QVERIFY2(result.exitCode == 0 && result.err.isEmpty(), qPrintable(result.err));
        QString level = parsed(result)[s("level")].toString();
        QVERIFY(level == s("LB") || level == s("GB"));
        auto forced = runCli(scheduleFig3({s("--level"), level.toLower(), s("--json")}));
        QCOMPARE(forced.out, result.out); // the same schedule as asking for it
        auto text = runCli(scheduleFig3({s("--level"), s("auto")}));
        // On stderr: stdout is the schedule, for a pipe.
        QVERIFY2(text.err.startsWith(s("stagecraft schedule: level auto: ") + level +
                                     s(": graphturbo simulates ")),
                 qPrintable(text.err));
        QVERIFY2(text.err.contains(s(" at LB")) && text.err.contains(s(" at GB")),
                 qPrintable(text.err));
        QVERIFY(!text.out.contains(s("level auto")));
        QVERIFY(!runCli(scheduleFig3({s("--level"), s("lb")})).err.contains(s("level auto")));
    }

    void perClusterAuto() {
        auto result = runCli(
            scheduleFig3({s("--per-cluster"), s("auto"), s("--batch"), s("64"), s("--json")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QJsonObject clusters = parsed(result)[s("clusters")].toObject();
        QVERIFY(clusters[s("chosen_by")].toString().startsWith(s("auto")));
        // Candidates are tried largest first; the first that fits is taken.
        QStringList tried = result.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(!tried.isEmpty());
        QVERIFY2(tried.first().startsWith(s("stagecraft schedule: per-cluster 64: ")),
                 qPrintable(result.err));
        for (int i = 0; i + 1 < tried.size(); ++i)
            QVERIFY2(tried[i].endsWith(s(" does not fit a cluster")), qPrintable(result.err));
        QString chosen =
            s("per-cluster ") + QString::number(clusters[s("per_cluster")].toInt()) + s(": ");
        QVERIFY2(tried.last().contains(chosen) && tried.last().endsWith(s(" fits a cluster")),
                 qPrintable(result.err));
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("parts");
        QTest::newRow("unknown arch")
            << QStringList{s("schedule"), s("zoo:fig3-chain"), s("--arch"), s("tpu9")}
            << QStringList{s("'tpu9'")};
        QTest::newRow("unknown zoo model") << QStringList{s("schedule"), s("zoo:resnet51")}
                                           << QStringList{s("unknown zoo model 'resnet51'")};
        QTest::newRow("missing file") << QStringList{s("schedule"), s("/nonexistent/m.onnx")}
                                      << QStringList{s("/nonexistent/m.onnx")};
        QTest::newRow("batch does not divide")
            << scheduleFig3({s("--batch"), s("10")}) << QStringList{s("10"), s("does not divide")};
        QTest::newRow("batch zero")
            << scheduleFig3({s("--batch"), s("0")}) << QStringList{s("--batch must be at least 1")};
        QTest::newRow("missing overrides file")
            << scheduleFig3({s("--overrides"), s("/nonexistent/o.json")})
            << QStringList{s("/nonexistent/o.json")};
        QTest::newRow("unwritable out") << scheduleFig3({s("--out"), s("/nonexistent/dir/s.json")})
                                        << QStringList{s("/nonexistent/dir/s.json")};
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QStringList, parts);
        expectOneLineError(runCli(args), 1, parts);
    }

    void badUsage_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("part");
        QTest::newRow("no model") << QStringList{s("schedule")} << s("missing MODEL");
        QTest::newRow("bad order")
            << scheduleFig3({s("--order"), s("zigzag")}) << s("--order must be bfs, dfs or best");
        QTest::newRow("bad strategy") << scheduleFig3({s("--strategy"), s("fast")})
                                      << s("--strategy: unknown strategy 'fast' (expected tvm, "
                                           "tvm-llb, astitch, dla, ago, ios, gt-gb, gt-lb, "
                                           "gt-instances, gt-paper or graphturbo)");
        QTest::newRow("bad level")
            << scheduleFig3({s("--level"), s("l2")}) << s("--level must be lb, gb or auto");
        QTest::newRow("auto without batch") << scheduleFig3({s("--per-cluster"), s("auto")})
                                            << s("--per-cluster auto needs --batch N");
        QTest::newRow("per-cluster word") << scheduleFig3({s("--per-cluster"), s("many")})
                                          << s("--per-cluster needs a whole number");
        QTest::newRow("batch word")
            << scheduleFig3({s("--batch"), s("x")}) << s("--batch needs a whole number");
        QTest::newRow("unknown option") << scheduleFig3({s("--colour")}) << s("--colour");
        QTest::newRow("seq for a file")
            << QStringList{s("schedule"), s("m.onnx"), s("--seq"), s("64")}
            << s("--seq applies to zoo models");
        QTest::newRow("dim for zoo") << scheduleFig3({s("--dim"), s("N=2")})
                                     << s("--input, --dim and --value apply to .onnx files");
    }
    void badUsage() {
        QFETCH(QStringList, args);
        QFETCH(QString, part);
        expectOneLineError(runCli(args), 2, {part});
    }

    void help() {
        auto result = runCli({s("schedule"), s("--help")});
        QCOMPARE(result.exitCode, 0);
        for (const char* option :
             {"--arch", "--strategy", "--order", "--batch", "--per-cluster", "--overrides", "--out",
              "--json", "--explain", "--input", "--dim", "--seq"})
            QVERIFY2(result.out.contains(s(option)), option);
        auto top = runCli({s("--help")});
        QVERIFY(top.out.contains(s("schedule")));
    }
};

QTEST_GUILESS_MAIN(TestCliSchedule)
#include "test_cli_schedule.moc"
