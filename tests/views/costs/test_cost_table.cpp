// The cost table on real results: its rows of either grain add up to the
// run (time to the attribution, traffic per level and spills to the report,
// kernels to the report's count), kernel rows to their group's row; headers
// sort by the raw figures; the filter and the summary line agree; a row
// click selects its group or instance, and a selection made elsewhere
// selects the row standing for it. Columns fit the width in reading order,
// and a column the user shows or hides stays so. Energy: "—" with a tooltip
// saying why when the architecture has no energy table, the report's
// figures (total, dynamic, static, DDR share) when it has one, and the
// graph's energy overlay grey without one and shaded by the figures with one.

#include "common/energy_text.h"
#include "costs/cost_columns.h"
#include "costs/cost_rows.h"
#include "costs/cost_table_model.h"
#include "costs/cost_table_view.h"
#include "costs/group_overlay.h"
#include "result_fixture.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace Qt::StringLiterals;

namespace {

ResultPtr resultOf(const std::string& zoo, const std::string& arch, schedule::Level level,
                   const std::string& strategy = "graphturbo") {
    test::ResultSpec spec;
    spec.zoo = zoo;
    spec.arch = arch;
    spec.level = level;
    spec.strategy = strategy;
    return test::resultFor(spec);
}

/// On "teaching": fig3-chain (4 groups, 15 kernels, spills), resnet-reduced
/// (8 groups, 28 spills), fig2-blocks under tvm.
void addRows() {
    QTest::addColumn<QString>("zoo");
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<int>("level");
    QTest::newRow("fig3-chain/graphturbo/LB")
        << QStringLiteral("fig3-chain") << QStringLiteral("graphturbo") << int(schedule::Level::LB);
    QTest::newRow("resnet-reduced/graphturbo/LB")
        << QStringLiteral("resnet-reduced") << QStringLiteral("graphturbo")
        << int(schedule::Level::LB);
    QTest::newRow("fig2-blocks/tvm/GB")
        << QStringLiteral("fig2-blocks") << QStringLiteral("tvm") << int(schedule::Level::GB);
}

ResultPtr rowResult() {
    QFETCH(QString, zoo);
    QFETCH(QString, strategy);
    QFETCH(int, level);
    return resultOf(zoo.toStdString(), "teaching", static_cast<schedule::Level>(level),
                    strategy.toStdString());
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

void clickRow(QTableView* table, int row) {
    QRect cell = table->visualRect(table->model()->index(row, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
}

QString selectedLabel(QTableView* table) {
    const QModelIndexList rows = table->selectionModel()->selectedRows(CostTableModel::Name);
    return rows.size() == 1 ? rows.front().data().toString() : QString();
}

/// \p result without an energy table (energy unknown).
ResultPtr withoutEnergy(const ResultPtr& result) {
    auto copy = std::make_shared<PipelineResult>(*result);
    copy->eval.report.energy.reset();
    return copy;
}

/// \p result with a made-up energy per kernel: kernel k computes (k + 1) nJ,
/// reads 0.5 nJ from DDR and leaks 0.25 nJ; groups and the run sum them.
ResultPtr withKnownEnergy(const ResultPtr& result) {
    auto copy = std::make_shared<PipelineResult>(*result);
    sim::EnergyReport energy;
    const schedule::Schedule& schedule = copy->eval.schedule;
    for (schedule::GroupId g : schedule.groups.ids())
        energy.groups.push_back({g, partition::Partition::label(g), {}});
    for (const sim::KernelBreakdown& k : copy->eval.report.attribution.kernels) {
        sim::Energy e;
        e.pj[static_cast<size_t>(sim::EnergyAction::ComputeMatrix)] = 1000.0 * (k.kernel + 1);
        e.pj[static_cast<size_t>(sim::EnergyAction::DdrRead)] = 500;
        e.pj[static_cast<size_t>(sim::EnergyAction::StaticCompute)] = 250;
        energy.kernels.push_back({k.kernel, k.label, k.group, e});
        energy.groups[k.group].energy += e;
        energy.run += e;
    }
    copy->eval.report.energy = energy;
    return copy;
}

} // namespace

class TestCostTable : public QObject {
    Q_OBJECT

private slots:
    void rowsAddUpToTheRun_data() { addRows(); }
    void rowsAddUpToTheRun() {
        const ResultPtr result = rowResult();
        const sim::Report& report = result->eval.report;
        for (CostGrain grain : {CostGrain::Groups, CostGrain::Kernels}) {
            const std::vector<CostRow> rows = costRows(*result, grain);
            QVERIFY(!rows.empty());
            double ns = 0;
            sim::PerLevel traffic{};
            int64_t spills = 0;
            int64_t kernels = 0;
            for (const CostRow& row : rows) {
                ns += row.breakdown.totalNs;
                for (size_t level = 0; level < traffic.size(); ++level)
                    traffic[level] += row.traffic[level];
                spills += row.spills;
                kernels += row.kernels;
                QVERIFY(row.computeShare() >= 0 && row.computeShare() <= 1 + 1e-12);
            }
            QVERIFY2(
                near(ns, report.attribution.run.totalNs),
                qPrintable(QStringLiteral("%1 vs %2").arg(ns).arg(report.attribution.run.totalNs)));
            // Each row's bytes are rounded once after scaling to the batch.
            for (size_t level = 0; level < traffic.size(); ++level)
                QVERIFY(std::abs(traffic[level] - report.trafficBytes[level]) <=
                        static_cast<int64_t>(rows.size()));
            QCOMPARE(spills, report.spills);
            QCOMPARE(kernels, report.kernels);
        }
    }

    void kernelRowsAddUpToTheirGroup() {
        const ResultPtr result = resultOf("fig3-chain", "teaching", schedule::Level::LB);
        std::map<std::string, CostRow> sums;
        for (const CostRow& k : costRows(*result, CostGrain::Kernels)) {
            QCOMPARE(k.selection.kind, Selection::Kind::Instance);
            const auto& instance =
                result->eval.schedule.instances[schedule::InstanceId{k.selection.id}];
            QCOMPARE(k.label, instance.label);
            CostRow& sum = sums[k.group];
            sum.kernels += 1;
            sum.breakdown += k.breakdown;
            sum.spills += k.spills;
        }
        const std::vector<CostRow> groups = costRows(*result, CostGrain::Groups);
        QCOMPARE(groups.size(), sums.size());
        QVERIFY(groups.size() > 1);
        for (const CostRow& g : groups) {
            QCOMPARE(g.selection.kind, Selection::Kind::Group);
            const CostRow& sum = sums.at(g.label);
            QCOMPARE(g.kernels, sum.kernels);
            QCOMPARE(g.spills, sum.spills);
            QVERIFY(near(g.breakdown.totalNs, sum.breakdown.totalNs));
            QVERIFY(near(g.computeNs(), sum.computeNs()));
        }
    }

    void modelPassesTheTester() {
        CostTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const ResultPtr result = resultOf("fig3-chain", "teaching", schedule::Level::LB);
        model.setRows(costRows(*result, CostGrain::Kernels),
                      result->eval.report.attribution.run.totalNs);
        QCOMPARE(model.rowCount(), static_cast<int>(result->eval.report.kernels));
        for (int c = 0; c < CostTableModel::ColumnCount; ++c)
            QVERIFY(!model.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
    }

    void headersSortByTheFigures() {
        CostTableView view;
        view.setResult(resultOf("fig3-chain", "teaching", schedule::Level::LB));
        view.setGrain(CostGrain::Kernels);
        QTableView* table = view.table();
        QAbstractItemModel* shown = table->model();
        QVERIFY(shown->rowCount() > 2);
        // Opens sorted by time, longest first.
        for (int r = 1; r < shown->rowCount(); ++r)
            QVERIFY(shown->index(r - 1, CostTableModel::Time).data(Qt::UserRole).toDouble() >=
                    shown->index(r, CostTableModel::Time).data(Qt::UserRole).toDouble());
        for (int column : {int(CostTableModel::DdrTraffic), int(CostTableModel::Computing),
                           int(CostTableModel::Name)}) {
            table->sortByColumn(column, Qt::AscendingOrder);
            for (int r = 1; r < shown->rowCount(); ++r)
                QVERIFY(shown->index(r - 1, column).data(Qt::UserRole).toDouble() <=
                        shown->index(r, column).data(Qt::UserRole).toDouble());
        }
        // By name is execution order: the kernels' order in the program.
        QCOMPARE(shown->index(0, CostTableModel::Name).data().toString(),
                 QString::fromStdString(view.model()->rows().front().label));
    }

    void filterAndSummaryAgree() {
        CostTableView view;
        const ResultPtr result = resultOf("fig3-chain", "teaching", schedule::Level::LB);
        view.setResult(result);
        view.setGrain(CostGrain::Kernels);
        auto* filter = view.findChild<QLineEdit*>(QStringLiteral("costFilter"));
        auto* summary = view.findChild<QLabel*>(QStringLiteral("costSummary"));
        QVERIFY(filter && summary);
        const int all = view.table()->model()->rowCount();
        QVERIFY2(summary->text().startsWith(QStringLiteral("%1 of %1 kernels").arg(all)),
                 qPrintable(summary->text()));
        QVERIFY(summary->text().contains(QStringLiteral("(100.0 % of the run)")));
        const QString first = QString::fromStdString(result->eval.schedule.instances.front().label);
        filter->setText(first);
        const int shown = view.table()->model()->rowCount();
        QVERIFY(shown >= 1 && shown < all);
        for (int r = 0; r < shown; ++r)
            QVERIFY(view.table()->model()->index(r, 0).data().toString().contains(first));
        QVERIFY2(summary->text().startsWith(QStringLiteral("%1 of %2 kernels").arg(shown).arg(all)),
                 qPrintable(summary->text()));
        // An op's name finds the rows of its group, in any case.
        const QString op = QString::fromStdString(view.model()->rows().back().firstOp);
        filter->setText(op.toUpper());
        const QAbstractItemModel* table = view.table()->model();
        QVERIFY(table->rowCount() >= 1 && table->rowCount() < all);
        for (int r = 0; r < table->rowCount(); ++r)
            QVERIFY(table->index(r, CostTableModel::FirstOp).data().toString().contains(op));
    }

    void columnsFitInReadingOrder() {
        const std::vector<int>& order = costColumnPriority();
        QCOMPARE(static_cast<int>(order.size()), static_cast<int>(CostTableModel::ColumnCount));
        const std::vector<int> widths(CostTableModel::ColumnCount, 100);
        const std::vector<std::optional<bool>> none(CostTableModel::ColumnCount);
        std::vector<bool> shown = fittedColumns(widths, 350, none);
        for (size_t i = 0; i < order.size(); ++i)
            QCOMPARE(shown[static_cast<size_t>(order[i])], i < 3);
        // The name shows however narrow; a chosen column takes its room first.
        QVERIFY(fittedColumns(widths, 10, none)[CostTableModel::Name]);
        std::vector<std::optional<bool>> chosen = none;
        chosen[CostTableModel::WeightBytes] = true;
        chosen[CostTableModel::Time] = false;
        shown = fittedColumns(widths, 350, chosen);
        QVERIFY(shown[CostTableModel::WeightBytes] && !shown[CostTableModel::Time]);
        QVERIFY(shown[CostTableModel::Name] && shown[static_cast<size_t>(order[2])]);
        QCOMPARE(std::count(shown.begin(), shown.end(), true), 3);
    }

    void aNarrowTableKeepsTheVerdictAndTheMenuOverrides() {
        CostTableView view;
        view.setResult(resultOf("resnet-reduced", "teaching", schedule::Level::LB));
        view.resize(1900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* summary = view.findChild<QLabel*>(QStringLiteral("costSummary"));
        for (int column = 0; column < CostTableModel::ColumnCount; ++column)
            QVERIFY(view.isColumnShown(column));
        QVERIFY(!summary->text().contains(u"hidden"_s));
        view.resize(520, 600);
        QTRY_VERIFY(!view.isColumnShown(CostTableModel::WeightBytes));
        QVERIFY(view.isColumnShown(CostTableModel::Name) &&
                view.isColumnShown(CostTableModel::Time));
        // The shown columns lead the reading order, with no gap.
        bool gap = false;
        for (int column : costColumnPriority()) {
            QVERIFY(!(gap && view.isColumnShown(column)));
            gap = gap || !view.isColumnShown(column);
        }
        QVERIFY2(summary->text().contains(u"columns hidden"_s), qPrintable(summary->text()));
        // No sideways scrolling.
        QVERIFY(view.table()->horizontalHeader()->length() <= view.table()->viewport()->width());
        // A column shown from the menu stays at any width, and so does one hidden.
        view.setColumnShown(CostTableModel::WeightBytes, true);
        QVERIFY(view.isColumnShown(CostTableModel::WeightBytes));
        QVERIFY(view.table()->columnWidth(CostTableModel::WeightBytes) > 0);
        view.resize(1900, 600);
        view.setColumnShown(CostTableModel::Share, false);
        QTRY_VERIFY(view.isColumnShown(CostTableModel::LbTraffic));
        QVERIFY(!view.isColumnShown(CostTableModel::Share));
        view.fitColumnsToWidth();
        QVERIFY(view.isColumnShown(CostTableModel::Share));
    }

    void aRowSelectsItsGroupOrInstance() {
        SelectionModel selection;
        CostTableView view;
        view.setSelectionModel(&selection);
        const ResultPtr result = resultOf("fig3-chain", "teaching", schedule::Level::LB);
        view.setResult(result);
        view.resize(1200, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        clickRow(view.table(), 0);
        QCOMPARE(selection.current().kind, Selection::Kind::Group);
        QCOMPARE(QString::fromStdString(
                     partition::Partition::label(schedule::GroupId{selection.current().id})),
                 view.table()->model()->index(0, 0).data().toString());
        view.findChild<QComboBox*>(QStringLiteral("costGrain"))->setCurrentIndex(1);
        QCOMPARE(view.grain(), CostGrain::Kernels);
        clickRow(view.table(), 1);
        QCOMPARE(selection.current().kind, Selection::Kind::Instance);
        QCOMPARE(QString::fromStdString(
                     result->eval.schedule.instances[schedule::InstanceId{selection.current().id}]
                         .label),
                 view.table()->model()->index(1, 0).data().toString());
    }

    void followsSelectionsMadeElsewhere() {
        SelectionModel selection;
        CostTableView view;
        const ResultPtr result = resultOf("fig3-chain", "teaching", schedule::Level::LB);
        view.setResult(result);
        view.setSelectionModel(&selection);
        const schedule::Schedule& schedule = result->eval.schedule;
        const schedule::InstanceId last{static_cast<int32_t>(schedule.instances.size() - 1)};
        const std::string group = partition::Partition::label(schedule.instances[last].group);
        selection.select({Selection::Kind::Instance, last.value(), -1});
        QCOMPARE(selectedLabel(view.table()), QString::fromStdString(group));
        view.setGrain(CostGrain::Kernels);
        QCOMPARE(selectedLabel(view.table()),
                 QString::fromStdString(schedule.instances[last].label));
        // An op: its group, shown at this grain as the group's first kernel.
        const ir::OpId op = schedule.partition.ops(schedule.instances[last].group).front();
        view.setGrain(CostGrain::Groups);
        selection.select({Selection::Kind::Op, op.value(), -1});
        QCOMPARE(selectedLabel(view.table()), QString::fromStdString(group));
        selection.clear();
        QVERIFY(selectedLabel(view.table()).isEmpty());
    }

    void energyIsUnknownWithoutAnEnergyTable() {
        const ResultPtr result =
            withoutEnergy(resultOf("fig3-chain", "teaching", schedule::Level::LB));
        CostTableModel model;
        model.setRows(costRows(*result, CostGrain::Kernels), 1);
        QVERIFY(model.rowCount() > 1);
        for (int column : {CostTableModel::Energy, CostTableModel::DynamicEnergy,
                           CostTableModel::StaticEnergy, CostTableModel::DdrEnergyShare})
            for (int row = 0; row < model.rowCount(); ++row) {
                const QModelIndex cell = model.index(row, column);
                QCOMPARE(cell.data().toString(), unknownEnergyText());
                QCOMPARE(cell.data(Qt::ToolTipRole).toString(), unknownEnergyTip());
            }
        CostTableView view;
        view.setResult(result);
        auto* summary = view.findChild<QLabel*>(QStringLiteral("costSummary"));
        QVERIFY2(summary->text().contains(u"unknown"_s), qPrintable(summary->text()));
        const GroupShading shading = groupShading(*result, GroupOverlay::Energy);
        QVERIFY(shading.unknown);
        for (const QColor& color : shading.colors)
            QCOMPARE(color, noFigureColor());
    }

    void energyColumnsShowTheReportsFigures() {
        const ResultPtr result =
            withKnownEnergy(resultOf("fig3-chain", "teaching", schedule::Level::LB));
        const sim::EnergyReport& energy = *result->eval.report.energy;
        CostTableModel model;
        model.setRows(costRows(*result, CostGrain::Kernels), 1);
        for (int row = 0; row < model.rowCount(); ++row) {
            const CostRow& r = model.rows()[static_cast<size_t>(row)];
            QVERIFY(r.energy);
            const int32_t kernel =
                result->eval.report.attribution.kernels[static_cast<size_t>(row)].kernel;
            const double total = 1000.0 * (kernel + 1) + 750;
            QCOMPARE(model.index(row, CostTableModel::Energy).data(Qt::UserRole).toDouble(), total);
            QCOMPARE(model.index(row, CostTableModel::Energy).data().toString(),
                     formatEnergy(total));
            QCOMPARE(model.index(row, CostTableModel::DynamicEnergy).data().toString(),
                     formatEnergy(total - 250));
            QCOMPARE(model.index(row, CostTableModel::StaticEnergy).data().toString(),
                     formatEnergy(250));
            QCOMPARE(model.index(row, CostTableModel::DdrEnergyShare).data(Qt::UserRole).toDouble(),
                     500 / total);
        }
        // Groups sum their kernels, and either grain sums to the run.
        for (CostGrain grain : {CostGrain::Groups, CostGrain::Kernels}) {
            double sum = 0;
            for (const CostRow& row : costRows(*result, grain))
                sum += row.energy->totalPj();
            QVERIFY(near(sum, energy.run.totalPj()));
        }
        // The overlay shades by the figure: the group with the most energy darkest.
        const GroupShading shading = groupShading(*result, GroupOverlay::Energy);
        QVERIFY(!shading.unknown);
        for (const CostRow& row : costRows(*result, CostGrain::Groups)) {
            const size_t g = static_cast<size_t>(row.selection.id);
            QVERIFY(near(shading.values[g], row.energy->totalPj()));
            QCOMPARE(shading.colors[g], shadeAt(shading.values[g] / shading.maxValue));
        }
        QCOMPARE(shading.highText, formatEnergy(shading.maxValue));
    }

    void energyOfARealTableAddsUpToTheRun() {
        const ResultPtr result = resultOf("fig3-chain", "teaching", schedule::Level::LB);
        if (!result->eval.report.energy)
            QSKIP("the teaching architecture has no energy table");
        for (CostGrain grain : {CostGrain::Groups, CostGrain::Kernels}) {
            double sum = 0;
            for (const CostRow& row : costRows(*result, grain)) {
                QVERIFY(row.energy);
                sum += row.energy->totalPj();
            }
            QVERIFY(std::abs(sum - result->eval.report.energy->run.totalPj()) <=
                    1e-6 * result->eval.report.energy->run.totalPj());
        }
    }
};

QTEST_MAIN(TestCostTable)
#include "test_cost_table.moc"
