// The comparison runner and view on real results (fig3-chain on "teaching"):
// every strategy computed once, at its best configuration, and kept, the
// table showing each report's figures (its configuration among them) with
// sim::fillSpeedups' speedups, the chart scaled to them, a row click
// choosing the kept result without any recomputation, and the same rows as
// `stagecraft compare` prints for the same file. Energy and EDP read "—"
// (cells and bars) without an energy table, and the reports' figures with one.

#include "common/energy_text.h"
#include "compare/comparison_chart.h"
#include "compare/comparison_model.h"
#include "compare/comparison_runner.h"
#include "compare/comparison_view.h"
#include "compare/diff_view.h"
#include "onnx/importer.h"
#include "result_fixture.h"
#include "zoo/zoo.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace stagecraft;
using namespace stagecraft::views;

namespace {

constexpr int kTimeoutMs = 120000;

int strategyCount() {
    return static_cast<int>(sim::strategies().size());
}

/// Waits until \p runner has a result or a failure for every strategy.
bool waitComplete(ComparisonRunner& runner) {
    return QTest::qWaitFor(
        [&] {
            return !runner.isBusy() &&
                   static_cast<int>(runner.results().size() + runner.failures().size()) ==
                       strategyCount();
        },
        kTimeoutMs);
}

void clickRow(QTableView* table, int row) {
    QRect cell = table->visualRect(table->model()->index(row, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
}

/// The runner's results, each with its energy unknown (\p pj < 0) or \p pj
/// picojoules of compute in the whole run.
std::map<std::string, ResultPtr> withEnergy(const ComparisonRunner& runner, double pj) {
    std::map<std::string, ResultPtr> results;
    for (const auto& [name, result] : runner.results()) {
        auto copy = std::make_shared<PipelineResult>(*result);
        copy->eval.report.energy.reset();
        if (pj >= 0) {
            sim::EnergyReport energy;
            energy.run.pj[static_cast<size_t>(sim::EnergyAction::ComputeMatrix)] = pj;
            copy->eval.report.energy = energy;
        }
        results[name] = copy;
    }
    return results;
}

} // namespace

class TestComparisonView : public QObject {
    Q_OBJECT
    PipelineRequest request = test::requestFor({});
    ComparisonRunner runner;

private slots:
    void initTestCase() {
        QSignalSpy progress(&runner, &ComparisonRunner::progress);
        QSignalSpy finished(&runner, &ComparisonRunner::finished);
        runner.setRequest(request);
        QVERIFY(runner.isBusy());
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY2(runner.failures().empty(),
                 runner.failures().empty() ? "" : runner.failures().begin()->second.c_str());
        QCOMPARE(static_cast<int>(runner.results().size()), strategyCount());
        QCOMPARE(runner.runCount(), strategyCount());
        QCOMPARE(progress.size(), strategyCount());
        QCOMPARE(progress.last().at(0).toInt(), strategyCount());
        QCOMPARE(progress.last().at(1).toInt(), strategyCount());
    }

    void everyStrategyMatchesADirectRun() {
        for (const sim::Strategy& s : sim::strategies()) {
            ResultPtr kept = runner.result(QString::fromStdString(s.name));
            QVERIFY(kept);
            QCOMPARE(kept->strategy, s.name);
            QCOMPARE(kept->graph, request.graph);
            PipelineRequest one = request;
            one.strategy = s.name;
            auto direct = runBestConfiguration(one, 1);
            QVERIFY(direct.ok());
            QCOMPARE(kept->eval.report.latencyUs, (*direct)->eval.report.latencyUs);
            QCOMPARE(kept->eval.report.kernels, (*direct)->eval.report.kernels);
            QCOMPARE(sim::configurationText(kept->eval.report),
                     sim::configurationText((*direct)->eval.report));
        }
    }

    void tableCellsEqualTheReports() {
        ComparisonModel model;
        QAbstractItemModelTester tester(&model);
        model.setResults(runner.results());
        std::vector<sim::Report> reports;
        for (const sim::Strategy& s : sim::strategies())
            reports.push_back(runner.result(QString::fromStdString(s.name))->eval.report);
        sim::fillSpeedups(reports);
        QCOMPARE(model.rowCount(), strategyCount());
        auto raw = [&](int row, int column) {
            return model.data(model.index(row, column), Qt::UserRole);
        };
        for (int row = 0; row < model.rowCount(); ++row) {
            const sim::Report& r = reports[static_cast<size_t>(row)];
            QCOMPARE(model.strategyAt(row).toStdString(), r.strategy);
            QCOMPARE(raw(row, ComparisonModel::Speedup).toDouble(), r.speedupVsTvm);
            QCOMPARE(raw(row, ComparisonModel::Latency).toDouble(), r.latencyUs);
            QCOMPARE(raw(row, ComparisonModel::Throughput).toDouble(), r.throughput);
            QCOMPARE(raw(row, ComparisonModel::Kernels).toLongLong(), r.kernels);
            QCOMPARE(raw(row, ComparisonModel::DdrTraffic).toLongLong(), r.trafficBytes[0]);
            QCOMPARE(raw(row, ComparisonModel::GbTraffic).toLongLong(), r.trafficBytes[1]);
            QCOMPARE(raw(row, ComparisonModel::LbTraffic).toLongLong(), r.trafficBytes[2]);
            QCOMPARE(raw(row, ComparisonModel::DdrScopes).toLongLong(), r.scopes[0]);
            QCOMPARE(raw(row, ComparisonModel::GbScopes).toLongLong(), r.scopes[1]);
            QCOMPARE(raw(row, ComparisonModel::LbScopes).toLongLong(), r.scopes[2]);
            QCOMPARE(raw(row, ComparisonModel::Spills).toLongLong(), r.spills);
            QCOMPARE(raw(row, ComparisonModel::Configuration).toString().toStdString(),
                     sim::configurationText(r));
            QCOMPARE(model.data(model.index(row, ComparisonModel::Kernels)).toString(),
                     QString::number(r.kernels));
            QCOMPARE(model.data(model.index(row, ComparisonModel::DdrTraffic)).toString(),
                     formatBytes(r.trafficBytes[0]));
        }
        QCOMPARE(raw(model.rowOf(QStringLiteral("tvm")), ComparisonModel::Speedup).toDouble(), 1.0);
    }

    /// Studio's Compare and `stagecraft compare` give every strategy the same
    /// configuration and figures for the same file and architecture, each
    /// at its own optimum (level auto: every strategy tunes its own).
    void theCliComparesTheSameFileAlike() {
        QTemporaryDir dir;
        QString file = dir.filePath(QStringLiteral("chain.onnx"));
        zoo::ZooOptions options;
        options.batch = 8;
        QVERIFY(zoo::writeZooModel("fig3-chain", options, file.toStdString()).ok());
        PipelineRequest same = request;
        same.graph = std::make_shared<const ir::Graph>(
            onnxio::importModel(file.toStdString()).value().graph);
        same.modelPath = file.toStdString();
        same.level = std::nullopt;
        ComparisonRunner studio;
        studio.setRequest(same);
        QVERIFY(waitComplete(studio));
        QProcess cli;
        cli.start(qEnvironmentVariable("STAGECRAFT_CLI"),
                  {QStringLiteral("compare"), file, QStringLiteral("--arch"),
                   QStringLiteral("teaching"), QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished(300000));
        QCOMPARE(cli.exitCode(), 0);
        const QJsonArray rows =
            QJsonDocument::fromJson(cli.readAllStandardOutput()).object()[u"strategies"].toArray();
        QCOMPARE(rows.size(), strategyCount());
        for (const QJsonValue& value : rows) {
            QJsonObject row = value.toObject();
            QString name = row[u"name"].toString();
            ResultPtr ours = studio.result(name);
            QVERIFY2(ours, qPrintable(name));
            const sim::Report& r = ours->eval.report;
            QCOMPARE(row[u"latency_us"].toDouble(), r.latencyUs);
            QCOMPARE(row[u"throughput"].toDouble(), r.throughput);
            QCOMPARE(row[u"per_cluster"].toInteger(), r.perCluster);
            QCOMPARE(row[u"iterations"].toInteger(), r.iterations);
            QCOMPARE(row[u"level"].toString().toStdString(), r.level);
            QCOMPARE(row[u"order"].toString().toStdString(), r.order);
            QCOMPARE(row[u"configurations_tried"].toInteger(), r.trials);
            QCOMPARE(row[u"kernels"].toInteger(), r.kernels);
        }
    }

    void formatsBytes_data() {
        QTest::addColumn<qlonglong>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("bytes") << 999LL << QStringLiteral("999 B");
        QTest::newRow("kilo") << 1500LL << QStringLiteral("1.5 kB");
        QTest::newRow("mega") << 25'300'000LL << QStringLiteral("25.3 MB");
    }
    void formatsBytes() {
        QFETCH(qlonglong, bytes);
        QFETCH(QString, text);
        QCOMPARE(views::formatBytes(bytes), text);
    }

    void aCachedStrategyIsNotRecomputed() {
        int runs = runner.runCount();
        PipelineRequest again = request;
        again.strategy = "tvm";
        runner.setRequest(again);
        QVERIFY(!runner.isBusy());
        QTest::qWait(50);
        QCOMPARE(runner.runCount(), runs);
        QCOMPARE(static_cast<int>(runner.results().size()), strategyCount());
    }

    void aNewRequestRecomputesAndTheNewestWins() {
        ComparisonRunner fresh;
        PipelineRequest edited = request;
        edited.overrides.splits.push_back({"stage4.conv1", 0, 2});
        fresh.setRequest(edited);
        fresh.setRequest(request); // newest wins: the edited run is dropped
        QVERIFY(waitComplete(fresh));
        for (const auto& [name, result] : fresh.results())
            QVERIFY2(result->overrides.empty(), name.c_str());
        QVERIFY(fresh.runCount() >= strategyCount());
        QVERIFY(fresh.runCount() <= 2 * strategyCount());
    }

    void clickingARowEmitsItsStrategyAndResult() {
        ComparisonView view;
        view.setRunner(&runner);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy chosen(&view, &ComparisonView::strategyChosen);
        int row = view.model()->rowOf(QStringLiteral("astitch"));
        clickRow(view.table(), row);
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.first().at(0).toString(), QStringLiteral("astitch"));
        QCOMPARE(chosen.first().at(1).value<ResultPtr>(), runner.result(QStringLiteral("astitch")));
        QCOMPARE(view.currentStrategy(), QStringLiteral("astitch"));
        QVERIFY(
            view.model()->data(view.model()->index(row, 0), Qt::FontRole).value<QFont>().bold());
    }

    void theVerdictFitsADockedTable() {
        // The Compare dock at 1920x1200 is about 560 px wide: speedup,
        // latency, DDR traffic and spills show without scrolling.
        ComparisonView view;
        view.setRunner(&runner);
        view.resize(560, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTableView* table = view.table();
        const int spills =
            table->horizontalHeader()->sectionViewportPosition(ComparisonModel::Spills) +
            table->columnWidth(ComparisonModel::Spills);
        QVERIFY2(spills <= table->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(spills).arg(table->viewport()->width())));
        for (int column : {ComparisonModel::Speedup, ComparisonModel::Spills})
            QVERIFY(!view.model()
                         ->headerData(column, Qt::Horizontal, Qt::ToolTipRole)
                         .toString()
                         .isEmpty());
    }

    void theChartScalesToTheSpeedups() {
        ComparisonView view;
        view.setRunner(&runner);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto& bars = view.chart()->bars();
        QCOMPARE(static_cast<int>(bars.size()), strategyCount());
        size_t top = 0;
        for (size_t i = 0; i < bars.size(); ++i) {
            QVERIFY(bars[i].ready);
            QCOMPARE(bars[i].speedup, view.model()->reportAt(static_cast<int>(i))->speedupVsTvm);
            if (bars[i].speedup > bars[top].speedup)
                top = i;
        }
        int full = view.chart()->barLength(static_cast<int>(top));
        QCOMPARE(full, view.chart()->slotRect(static_cast<int>(top)).width());
        for (size_t i = 0; i < bars.size(); ++i)
            QVERIFY(std::abs(view.chart()->barLength(static_cast<int>(i)) -
                             full * bars[i].speedup / bars[top].speedup) <= 1.0);
        QSignalSpy chosen(&view, &ComparisonView::strategyChosen);
        QTest::mouseClick(view.chart(), Qt::LeftButton, {}, view.chart()->slotRect(0).center());
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.first().at(0).toString(), bars[0].strategy);
    }

    void energyIsUnknownWithoutATableAndShownWithOne() {
        ComparisonModel model;
        QAbstractItemModelTester tester(&model);
        model.setResults(withEnergy(runner, -1));
        for (int row = 0; row < model.rowCount(); ++row)
            for (int column : {ComparisonModel::Energy, ComparisonModel::Edp}) {
                QCOMPARE(model.index(row, column).data().toString(), unknownEnergyText());
                QCOMPARE(model.index(row, column).data(Qt::ToolTipRole).toString(),
                         unknownEnergyTip());
            }
        // 2.5e9 pJ = 2.5 mJ; EDP = 2.5 mJ x the latency in ms.
        model.setResults(withEnergy(runner, 2.5e9));
        for (int row = 0; row < model.rowCount(); ++row) {
            const sim::Report* report = model.reportAt(row);
            QVERIFY(report);
            QCOMPARE(model.index(row, ComparisonModel::Energy).data().toString(),
                     formatSignificant(2.5));
            const double edp = 2.5 * report->latencyUs / 1000;
            QVERIFY(std::abs(model.index(row, ComparisonModel::Edp).data(Qt::UserRole).toDouble() -
                             edp) <= 1e-9 * edp);
            QCOMPARE(model.index(row, ComparisonModel::Edp).data().toString(),
                     formatSignificant(edp));
        }
    }

    void theChartDrawsEnergyOrADashWhenUnknown() {
        ComparisonChart chart;
        chart.resize(600, 200);
        chart.setMetric(ComparisonChart::Metric::Energy);
        chart.setBars({{QStringLiteral("a"), 1, 100, 2.0, 0.2, true},
                       {QStringLiteral("b"), 1, 200, 1.0, 0.2, true},
                       {QStringLiteral("c"), 1, 300, std::nullopt, std::nullopt, true}});
        QCOMPARE(chart.barLength(0), chart.slotRect(0).width());
        QVERIFY(std::abs(chart.barLength(1) - chart.slotRect(1).width() / 2) <= 1);
        QCOMPARE(chart.barLength(2), 0);
        chart.setMetric(ComparisonChart::Metric::Edp);
        QCOMPARE(chart.barLength(0), chart.barLength(1));
        QCOMPARE(chart.barLength(2), 0);
    }

    // With no B chosen the diff takes the baseline as soon as it is computed.
    void theDiffStartsAgainstTvm() {
        DiffView diff;
        diff.setShownResult(runner.result(QStringLiteral("graphturbo")),
                            QStringLiteral("graphturbo"));
        QVERIFY(diff.summary().contains(QStringLiteral("Computing")));
        diff.setRunner(&runner);
        QCOMPARE(diff.compareWith()->currentText(), QStringLiteral("tvm"));
        QVERIFY2(diff.summary().contains(QStringLiteral("tvm")), qPrintable(diff.summary()));
        QVERIFY(diff.tree()->topLevelItemCount() > 0);
        DiffView ofTvm;
        ofTvm.setShownResult(runner.result(QStringLiteral("tvm")), QStringLiteral("tvm"));
        ofTvm.setRunner(&runner);
        QCOMPARE(ofTvm.compareWith()->currentText(), QStringLiteral("graphturbo"));
    }

    void switchingACachedRowRunsNothing() {
        ComparisonView view;
        DiffView diff;
        view.setRunner(&runner);
        diff.setRunner(&runner);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        ResultPtr shown = runner.result(QStringLiteral("graphturbo"));
        connect(&view, &ComparisonView::strategyChosen, &diff,
                [&](const QString& name, ResultPtr b) {
                    diff.setPair(shown, QStringLiteral("graphturbo"), b, name);
                });
        int runs = runner.runCount();
        constexpr int kSwitches = 60;
        for (int i = 0; i < kSwitches; ++i) {
            clickRow(view.table(), i % strategyCount());
            view.repaint();
        }
        QCOMPARE(runner.runCount(), runs); // every switch reads the cached results
        QCOMPARE(diff.compareWith()->count(), strategyCount());
    }
};

QTEST_MAIN(TestComparisonView)
#include "test_comparison_view.moc"
