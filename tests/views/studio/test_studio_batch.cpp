// The batch in Studio as the CLI has it (driver/batch_plan.h): a zoo model
// of Table 2 opens at its row's batch and says so, the toolbar's batch
// controls edit the session (undoable, saved), and Studio shows the same
// figures `stagecraft schedule --simulate` prints for the same model, batch,
// samples per cluster (given or auto), architecture and level.

#include "driver/pipeline.h"
#include "studio/session_document.h"
#include "studio_fixture.h"

#include <QComboBox>
#include <QProcess>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStatusBar>
#include <QUndoStack>

#include <map>

using namespace stagecraft;

namespace {

/// The figures `schedule --simulate` prints that the test compares.
struct Figures {
    QString latencyMs;
    QString kernels;
    QString spills;
    QString batchLine;
};

QString captured(const QString& text, const QString& pattern) {
    QRegularExpressionMatch match = QRegularExpression(pattern).match(text);
    return match.hasMatch() ? match.captured(1) : QStringLiteral("(missing: %1)").arg(pattern);
}

Figures cliFigures(std::initializer_list<const char*> words) {
    QStringList args{QStringLiteral("schedule")};
    for (const char* word : words)
        args << QString::fromUtf8(word);
    args << QStringLiteral("--simulate");
    QProcess cli;
    cli.start(qEnvironmentVariable("STAGECRAFT_CLI"), args);
    cli.waitForFinished(300000);
    const QString out = QString::fromUtf8(cli.readAllStandardOutput());
    if (cli.exitCode() != 0)
        qWarning("stagecraft schedule failed: %s", cli.readAllStandardError().constData());
    return {captured(out, QStringLiteral("latency ([0-9.]+) ms")),
            captured(out, QStringLiteral("kernels ([0-9]+) per cluster")),
            captured(out, QStringLiteral("spills ([0-9]+)")),
            captured(out, QStringLiteral("(batch [0-9]+ = [^\\n(]*)"))};
}

Figures studioFigures(const studio::MainWindow& window) {
    const sim::Report& r = window.result()->eval.report;
    const schedule::ClusterPlan& plan = window.result()->eval.schedule.clusters;
    return {QString::number(r.latencyUs / 1000, 'f', 3), QString::number(r.kernels),
            QString::number(r.spills),
            QStringLiteral("batch %1 = %2 cluster%3 x %4 per cluster x %5 iteration%6 ")
                .arg(plan.totalBatch)
                .arg(plan.clusters)
                .arg(plan.clusters == 1 ? QString() : QStringLiteral("s"))
                .arg(plan.perCluster)
                .arg(plan.iterations)
                .arg(plan.iterations == 1 ? QString() : QStringLiteral("s"))};
}

void compareFigures(const Figures& studio, const Figures& cli) {
    QCOMPARE(studio.batchLine, cli.batchLine);
    QCOMPARE(studio.latencyMs, cli.latencyMs);
    QCOMPARE(studio.kernels, cli.kernels);
    QCOMPARE(studio.spills, cli.spills);
}

} // namespace

class TestStudioBatch : public QObject {
    Q_OBJECT

private slots:
    void aTable2ModelOpensAtItsRow() {
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("stcp920"));
        QVERIFY(window.openPath(QStringLiteral("zoo:resnet50")));
        QVERIFY(test::waitForResult(window));
        QVERIFY(window.document()->session().batch == (schedule::BatchChoice{64, 16, false}));
        const schedule::Schedule& schedule = window.result()->eval.schedule;
        QCOMPARE(schedule.clusters.totalBatch, 64);
        QCOMPARE(schedule.clusters.perCluster, 16);
        QCOMPARE(driver::perClusterBatch(*window.result()->graph), 16);
        QVERIFY2(schedule.instances.size() > schedule.groups.size(),
                 "at 16 per cluster some group is split into instances");
        const QString said = window.statusBar()->currentMessage();
        QVERIFY2(said.contains(QStringLiteral("Table 2 row A")), qPrintable(said));
        compareFigures(studioFigures(window), cliFigures({"zoo:resnet50", "--level", "lb",
                                                          "--batch", "64", "--per-cluster", "16"}));

        studio::MainWindow fixed;
        fixed.setInteractive(false);
        io::Session defaults = test::testDefaults("stcp920");
        defaults.batch.perCluster = 2;
        fixed.setDefaults(defaults);
        fixed.setBatchFixed(true);
        QVERIFY(fixed.openPath(QStringLiteral("zoo:resnet50")));
        QVERIFY(test::waitForResult(fixed));
        QCOMPARE(fixed.result()->eval.schedule.clusters.perCluster, 2);
        QCOMPARE(fixed.result()->eval.schedule.clusters.totalBatch, 8);
    }

    void theBatchControlsEditTheSession() {
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("stcp920"));
        QVERIFY(window.openPath(QStringLiteral("zoo:fig3-chain")));
        QVERIFY(test::waitForResult(window));
        QCOMPARE(window.result()->eval.schedule.clusters.perCluster, 8); // the model's batch
        auto* total = window.findChild<QSpinBox*>(QStringLiteral("batchTotal"));
        auto* perCluster = window.findChild<QComboBox*>(QStringLiteral("perClusterCombo"));
        QVERIFY(total && perCluster);
        total->setValue(16);
        QVERIFY(test::waitForEdit(window, nullptr));
        QCOMPARE(*window.document()->session().batch.total, 16);
        QCOMPARE(window.result()->eval.schedule.clusters.iterations, 2); // 16 = 1 x 8 x 2
        const int four = perCluster->findData(qlonglong{4});
        QVERIFY2(four >= 0, "4 divides 16 on one cluster, so it is offered");
        QVERIFY2(perCluster->findData(qlonglong{3}) < 0, "3 does not divide 16");
        perCluster->setCurrentIndex(four);
        QVERIFY(test::waitForEdit(window, nullptr));
        QVERIFY(window.document()->session().batch == (schedule::BatchChoice{16, 4, false}));
        QCOMPARE(driver::perClusterBatch(*window.result()->graph), 4);
        std::map<std::string, int> perGroup;
        for (const schedule::Instance& instance : window.result()->eval.schedule.instances)
            ++perGroup[partition::Partition::label(instance.group)];
        // Fig. 6 at batch 8 splits a into 8; at 4 samples no group has more instances.
        for (const auto& [group, count] : perGroup)
            QVERIFY2(count <= 4, group.c_str());

        window.document()->undoStack()->undo();
        QVERIFY(test::waitForResult(window));
        QCOMPARE(window.document()->session().batch.perCluster, std::optional<int64_t>());
        QCOMPARE(window.result()->eval.schedule.clusters.perCluster, 8);
    }

    void autoChoosesAsTheCliDoes() {
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("stcp920"));
        QVERIFY(window.openPath(QStringLiteral("zoo:fig3-chain"))); // teaching, LB
        QVERIFY(test::waitForResult(window));
        io::Session next = window.document()->session();
        next.batch = {32, std::nullopt, true};
        window.tryChange(QStringLiteral("auto"), next);
        QVERIFY(test::waitForEdit(window, nullptr));
        QCOMPARE(window.result()->eval.schedule.clusters.chosenBy, std::string("auto (footprint)"));
        QVERIFY(!window.result()->perClusterWhy.empty());
        compareFigures(studioFigures(window),
                       cliFigures({"zoo:fig3-chain", "--arch", "teaching", "--level", "lb",
                                   "--batch", "32", "--per-cluster", "auto"}));
    }

    void autoWithoutATotalIsRefused() {
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("teaching"));
        QVERIFY(window.openPath(QStringLiteral("zoo:fig3-chain")));
        QVERIFY(test::waitForResult(window));
        io::Session next = window.document()->session();
        next.batch = {std::nullopt, std::nullopt, true};
        window.tryChange(QStringLiteral("auto"), next);
        QString refusal;
        QVERIFY(!test::waitForEdit(window, &refusal));
        QVERIFY2(refusal.contains(QStringLiteral("needs a total batch")), qPrintable(refusal));
        QVERIFY(window.document()->session().batch == schedule::BatchChoice{});
    }
};

QTEST_MAIN(TestStudioBatch)
#include "test_studio_batch.moc"
