// stagecraft schedule --explain through the real binary: the algorithm
// traces of each strategy, as text and in the document — Algorithm 3's
// lists of Fig. 7 on the Fig. 3 chain, AGO's CLUSTER merges and DLA's
// sub-graphs on Fig. 2's blocks, IOS's stages with their costs.

#include "cli_helpers.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QtTest>

#include <cmath>

using namespace stagecraft;
using stagecraft::test::parsed;
using stagecraft::test::runCli;
using stagecraft::test::s;
using stagecraft::test::scheduleFig3;

class TestCliExplain : public QObject {
    Q_OBJECT

private slots:
    void explainShowsAlgorithm3Lists() {
        auto result = runCli(scheduleFig3({s("--order"), s("dfs"), s("--explain")}));
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY(result.out.contains(s("Algorithm 2, grouping (§3.2)")));
        QVERIFY(result.out.contains(s("Algorithm 3, DFS order (§3.3)")));
        QVERIFY(result.out.contains(s("Algorithm 4, binding and scopes (§3.4)")));
        // The first Algorithm 3 step moves the sources a1..a8 to ready.
        QVERIFY(result.out.contains(s("    ready: a1 a2 a3 a4 a5 a6 a7 a8\n")));
        QVERIFY(result.out.contains(s("    visit: ")));
        QVERIFY(
            result.out.contains(s("    order: a8 a7 b4 a6 a5 b3 c2 a4 a3 b2 a2 a1 b1 c1 d1\n")));
        auto json = runCli(scheduleFig3({s("--order"), s("dfs"), s("--explain"), s("--json")}));
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        QJsonObject trace = parsed(json)[s("trace")].toObject();
        QVERIFY(!trace[s("merges")].toArray().isEmpty());
        QVERIFY(!trace[s("binding")].toArray().isEmpty());
        QJsonArray steps = trace[s("order")].toArray();
        QVERIFY(!steps.isEmpty());
        QJsonArray last = steps.last()[s("order")].toArray();
        QCOMPARE(last.size(), 15);
        QCOMPARE(last.first().toString(), s("a8"));
    }

    /// ago and dla explain their own grouping: CLUSTER's merges (each one
    /// hyper node fewer: 15 ops, 10 merges, 5 groups) and DLA's sub-graphs.
    void explainShowsAgoMergesAndDlaParts() {
        auto fig2 = [](const char* strategy, QStringList more) {
            return runCli(QStringList{s("schedule"), s("zoo:fig2-blocks"), s("--strategy"),
                                      s(strategy), s("--explain")} +
                          more);
        };
        auto ago = fig2("ago", {});
        QVERIFY2(ago.exitCode == 0, qPrintable(ago.err));
        QVERIFY2(ago.out.contains(s("(graph fig2-blocks, 15 ops)")) &&
                     ago.out.contains(s("\ngroups (5)\n")),
                 qPrintable(ago.out));
        QVERIFY(ago.out.contains(s("AGO CLUSTER (AGO §IV-B, Algorithm 1): 10 merges\n")));
        QVERIFY(ago.out.contains(s("  CLUSTER (AGO §IV-B): the heaviest candidate, "
                                   "'conv_block.conv3' (1 op, weight 34.6), takes the lightest "
                                   "node of its affix set, 'conv_block.relu2' (1 op, weight "
                                   "12.5): 47.0 < Td 155.5\n")));
        QVERIFY(!ago.out.contains(s("Algorithm 2, grouping")));
        auto json = fig2("ago", {s("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        QJsonArray steps = parsed(json)[s("trace")][s("ago")].toArray();
        QCOMPARE(steps.size(), 10);
        for (const QJsonValue& step : steps)
            QVERIFY(step[s("into_weight")].toDouble() + step[s("taken_weight")].toDouble() <
                    step[s("threshold")].toDouble());
        auto dla = fig2("dla", {});
        QVERIFY2(dla.exitCode == 0, qPrintable(dla.err));
        QVERIFY2(dla.out.contains(s("DLA extraction and post-prune (DLA §3): 1 sub-graph\n")) &&
                     dla.out.contains(s("'conv_block.conv1' (15 ops) is cut by the post-prune "
                                        "(Fig. 3) into 3 parts")) &&
                     dla.out.contains(s("\ngroups (3)\n")),
                 qPrintable(dla.out));
    }

    /// ios explains its stages in order, each with its block's DP, runs them
    /// in that order, and a concurrent stage's kernels start at their own cores.
    void explainShowsIosStages() {
        auto run = [](QStringList more) {
            return runCli(QStringList{s("schedule"), s("zoo:inception-v3-block"), s("--strategy"),
                                      s("ios"), s("--explain")} +
                          more);
        };
        auto text = run({});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains(s("IOS stages (IOS §3-4, Algorithm 1 per block), in order: ")) &&
                     text.out.contains(s("groups run at once on their share of the cores")) &&
                     text.out.contains(s("\norder stages")) && text.out.contains(s("  search: ")) &&
                     text.out.contains(s(" ms in the DP\n")),
                 qPrintable(text.out));
        QVERIFY(!text.out.contains(s("Algorithm 2, grouping")));
        QVERIFY(!text.out.contains(s("Algorithm 3, DFS order")));
        auto json = run({s("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        QJsonObject doc = parsed(json);
        QJsonArray stages = doc[s("trace")][s("ios")].toArray();
        QVERIFY(!stages.isEmpty());
        int kernels = 0, joining = 0;
        double blockCost = 0;
        int block = -1;
        for (const QJsonValue& stage : stages) {
            QVERIFY(stage[s("states")].toInt() >= 1);
            kernels += stage[s("merged")].toBool() ? 1 : stage[s("groups")].toArray().size();
            // The DP's state each stage ends: cost[S] adds up the block's
            // stages so far, and the stage is the cheapest of its endings.
            if (stage[s("block")].toInt() != block)
                blockCost = 0, block = stage[s("block")].toInt();
            blockCost += stage[s("latency_ns")].toDouble();
            QVERIFY(std::abs(stage[s("state_cost_ns")].toDouble() - blockCost) <= 1e-6 * blockCost);
            QVERIFY(stage[s("endings")].toInt() >= 1 && stage[s("state_units")].toInt() >= 1);
            double next = stage[s("runner_up_ns")].toDouble();
            QVERIFY(next < 0 || next >= stage[s("state_cost_ns")].toDouble());
            QVERIFY(stage[s("explanation")].toString().contains(s("endings")));
        }
        for (const QJsonValue& instance : doc[s("instances")].toArray())
            joining += instance[s("joins_stage")].toBool() ? 1 : 0;
        QCOMPARE(doc[s("instances")].toArray().size(), kernels);
        QCOMPARE(kernels - joining, stages.size());
        QVERIFY(joining > 0);
    }
};

QTEST_GUILESS_MAIN(TestCliExplain)
#include "test_cli_explain.moc"
