// The inspector's item models: QAbstractItemModelTester on all three for
// every kind of selection (fig3-chain on teaching, ResNet-50 batch 16 on
// stcp920), split candidates against SplitInfo, the order list and its
// moves, and how long a result and selection changes take on ResNet-50.

#include "inspector/inspector_widget.h"
#include "inspector/instance_order_model.h"
#include "inspector/properties_model.h"
#include "inspector/split_candidates_model.h"
#include "inspector_fixture.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFont>
#include <QMimeData>
#include <QSignalSpy>
#include <QtTest>

#include <memory>

using namespace stagecraft;
using namespace Qt::StringLiterals;
using views::Selection;

namespace {

using Kind = Selection::Kind;

size_t countOf(const views::PipelineResult& result, Kind kind) {
    switch (kind) {
    case Kind::Op:
        return result.graph->opCount();
    case Kind::Tensor:
        return result.graph->tensorCount();
    case Kind::Group:
        return result.eval.schedule.groups.size();
    case Kind::Instance:
        return result.eval.schedule.instances.size();
    case Kind::None:
        break;
    }
    return 0;
}

/// The first, middle and last id of \p kind, and one past the end (a stale
/// selection the models must treat as none).
std::vector<Selection> samples(const views::PipelineResult& result, Kind kind) {
    auto count = static_cast<int32_t>(countOf(result, kind));
    if (count == 0)
        return {Selection{}};
    return {{kind, 0}, {kind, count / 2}, {kind, count - 1}, {kind, count}};
}

} // namespace

class TestInspectorModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void modelTester_data();
    void modelTester();
    void splitCandidatesAreSplitInfo_data();
    void splitCandidatesAreSplitInfo();
    void orderRowsFollowSchedule();
    void orderMoveEmitsNewOrder();
    void orderDropEmitsNewOrder();
    void widgetIsQuickOnResnet50();
    void orderFilterShowsOneGroupOrInstance();
};

void TestInspectorModels::initTestCase() {
    QVERIFY(test::fig3Chain());
    QVERIFY(test::resnet50());
}

void TestInspectorModels::modelTester_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("kind");
    const std::pair<const char*, Kind> kinds[] = {{"none", Kind::None},
                                                  {"op", Kind::Op},
                                                  {"group", Kind::Group},
                                                  {"instance", Kind::Instance},
                                                  {"tensor", Kind::Tensor}};
    for (const char* model : {"fig3-chain", "resnet50"})
        for (const auto& [name, kind] : kinds)
            QTest::addRow("%s/%s", model, name)
                << QString::fromLatin1(model) << static_cast<int>(kind);
}

void TestInspectorModels::modelTester() {
    QFETCH(QString, model);
    QFETCH(int, kind);
    views::ResultPtr result = model == u"resnet50"_s ? test::resnet50() : test::fig3Chain();
    views::PropertiesModel properties;
    views::SplitCandidatesModel candidates;
    views::InstanceOrderModel order;
    using Mode = QAbstractItemModelTester::FailureReportingMode;
    QAbstractItemModelTester propertiesTester(&properties, Mode::QtTest);
    QAbstractItemModelTester candidatesTester(&candidates, Mode::QtTest);
    QAbstractItemModelTester orderTester(&order, Mode::QtTest);
    properties.setResult(result);
    candidates.setResult(result);
    order.setResult(result);
    for (const Selection& selection : samples(*result, static_cast<Kind>(kind))) {
        properties.setSelection(selection);
        candidates.setSelection(selection);
        if (QTest::currentTestFailed())
            return;
        bool valid = selection.id >= 0 &&
                     static_cast<size_t>(selection.id) < countOf(*result, selection.kind);
        // A selection the result does not have shows the overview.
        QVERIFY(properties.rowCount() > 0);
        QCOMPARE(properties.index(0, 0).data().toString() == QStringLiteral("Selection"), !valid);
    }
    QVERIFY(order.moveRows({}, 0, 1, {}, order.rowCount()));
    QVERIFY(order.moveRows({}, order.rowCount() - 1, 1, {}, 0));
    order.reset();
    properties.setResult(nullptr);
    candidates.setResult(nullptr);
    order.setResult(nullptr);
    QCOMPARE(properties.rowCount(), 0);
    QCOMPARE(candidates.rowCount(), 0);
    QCOMPARE(order.rowCount(), 0);
}

void TestInspectorModels::splitCandidatesAreSplitInfo_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("fig3-chain") << u"fig3-chain"_s;
    QTest::newRow("resnet50") << u"resnet50"_s;
}

void TestInspectorModels::splitCandidatesAreSplitInfo() {
    QFETCH(QString, model);
    views::ResultPtr result = model == u"resnet50"_s ? test::resnet50() : test::fig3Chain();
    const auto& s = result->eval.schedule;
    views::SplitCandidatesModel candidates;
    candidates.setResult(result);
    int residents = 0;
    for (partition::GroupId g : s.groups.ids()) {
        const auto& group = s.groups[g];
        residents += group.splitInfo.resident ? 1 : 0;
        // Reach the group through an instance, as a click in the timeline would.
        candidates.setSelection({Selection::Kind::Instance, group.instances.back().value()});
        QCOMPARE(candidates.group(), std::optional<schedule::GroupId>(g));
        // Algorithm 1's candidates, then the GB-resident split when there is one.
        auto rows = group.splitInfo.candidates;
        if (group.splitInfo.resident)
            rows.push_back(*group.splitInfo.resident);
        QCOMPARE(static_cast<size_t>(candidates.rowCount()), rows.size());
        int chosen = 0;
        for (int row = 0; row < candidates.rowCount(); ++row) {
            const auto& expected = rows[static_cast<size_t>(row)];
            bool resident = group.splitInfo.resident && static_cast<size_t>(row) + 1 == rows.size();
            QCOMPARE(candidates.isResident(row), resident);
            QString header = resident                           ? u"GB-resident"_s
                             : expected == group.splitInfo.best ? u"Alg. 1 best"_s
                                                                : u"Alg. 1"_s;
            QCOMPARE(candidates.headerData(row, Qt::Vertical).toString(), header);
            QCOMPARE(candidates.candidate(row), expected);
            QCOMPARE(candidates.index(row, views::SplitCandidatesModel::DimColumn).data().toInt(),
                     expected.dim);
            QCOMPARE(candidates.index(row, views::SplitCandidatesModel::FactorColumn)
                         .data()
                         .toLongLong(),
                     expected.factor);
            QCOMPARE(
                candidates.index(row, views::SplitCandidatesModel::RereadsColumn).data().toString(),
                QString::number(expected.rereads, 'f', 2) + QChar(0x00d7));
            auto check = candidates.index(row, 0).data(Qt::CheckStateRole).toInt();
            bool bold = candidates.index(row, 1).data(Qt::FontRole).value<QFont>().bold();
            QCOMPARE(check == Qt::Checked, bold);
            if (check == Qt::Checked) {
                ++chosen;
                QCOMPARE(expected, *group.split);
            }
        }
        QCOMPARE(chosen, 1); // these schedules use no override: one row is the split
    }
    // ResNet-50 at 16 images per cluster lives in the GB: some group's
    // split is its resident split, shown as the last row.
    QCOMPARE(residents > 0, model == u"resnet50"_s);
}

void TestInspectorModels::orderRowsFollowSchedule() {
    auto result = test::fig3Chain();
    views::InstanceOrderModel order;
    order.setResult(result);
    QCOMPARE(order.rowCount(), 15); // 8 + 4 + 2 + 1 instances
    // The position in the order, then the label and the slice it computes.
    QCOMPARE(order.index(0).data().toString(), u"1. a8 (group a, slice 8)"_s);
    QCOMPARE(order.index(14).data().toString(), u"15. d1 (group d, slice 1)"_s);
    for (int row = 0; row < order.rowCount(); ++row)
        QCOMPARE(order.index(row).data(views::InstanceOrderModel::InstanceIdRole).toInt(),
                 result->eval.schedule.order[static_cast<size_t>(row)].value());
    QCOMPARE(order.rowOf(schedule::InstanceId(test::instanceLabelled(*result, "a3").id)), 8);
}

void TestInspectorModels::orderMoveEmitsNewOrder() {
    views::InstanceOrderModel order;
    order.setResult(test::fig3Chain());
    QStringList before = order.labels();
    QSignalSpy spy(&order, &views::InstanceOrderModel::orderRequested);
    QVERIFY(!order.moveRows({}, 2, 1, {}, 2)); // onto itself: nothing to do
    QVERIFY(order.moveRows({}, 1, 1, {}, 0));  // a7 before a8
    QCOMPARE(spy.count(), 1);
    QStringList expected = before;
    expected.swapItemsAt(0, 1);
    QCOMPARE(spy.at(0).at(0).toStringList(), expected);
    QCOMPARE(spy.at(0).at(1).toString(), u"Move a7 before a8"_s);
    order.reset();
    QCOMPARE(order.labels(), before);
}

void TestInspectorModels::orderDropEmitsNewOrder() {
    views::InstanceOrderModel order;
    order.setResult(test::fig3Chain());
    QSignalSpy spy(&order, &views::InstanceOrderModel::orderRequested);
    std::unique_ptr<QMimeData> data(order.mimeData({order.index(0)})); // a8
    QVERIFY(order.canDropMimeData(data.get(), Qt::MoveAction, 15, 0, {}));
    QVERIFY(!order.canDropMimeData(data.get(), Qt::CopyAction, 15, 0, {}));
    QVERIFY(order.dropMimeData(data.get(), Qt::MoveAction, -1, -1, {})); // at the end
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toStringList().last(), u"a8"_s);
    QCOMPARE(spy.at(0).at(1).toString(), u"Move a8 to the end"_s);
    QCOMPARE(order.index(14).data(views::InstanceOrderModel::LabelRole).toString(), u"a8"_s);
}

void TestInspectorModels::widgetIsQuickOnResnet50() {
    auto result = test::resnet50();
    QVERIFY(result->eval.schedule.instances.size() > 150); // 186 at LB, 16 images per cluster
    views::SelectionModel selection;
    views::InspectorWidget widget;
    widget.setSelectionModel(&selection);
    widget.resize(400, 900);
    widget.show();
    QElapsedTimer timer;
    timer.start();
    widget.setResult(result);
    QCoreApplication::processEvents(); // layout and paint count too
    qint64 setResultMs = timer.restart();
    const auto& s = result->eval.schedule;
    std::vector<Selection> steps = {
        {Selection::Kind::Group, static_cast<int32_t>(s.groups.size() / 2)},
        {Selection::Kind::Instance, static_cast<int32_t>(s.instances.size() / 2)},
        {Selection::Kind::Op, static_cast<int32_t>(result->graph->opCount() / 2)},
        {Selection::Kind::Tensor, static_cast<int32_t>(result->graph->tensorCount() / 2)},
        {Selection::Kind::Instance, static_cast<int32_t>(s.instances.size() - 1)}};
    qint64 slowestMs = 0;
    for (const Selection& step : steps) {
        timer.restart();
        selection.select(step);
        QCoreApplication::processEvents();
        slowestMs = std::max(slowestMs, timer.elapsed());
    }
    qInfo("inspector on resnet50 (%zu instances): setResult %lld ms, slowest selection %lld ms",
          s.instances.size(), static_cast<long long>(setResultMs),
          static_cast<long long>(slowestMs));
    QCOMPARE(widget.orderModel()->rowCount(), static_cast<int>(s.order.size()));
}

void TestInspectorModels::orderFilterShowsOneGroupOrInstance() {
    auto result = test::resnet50();
    views::InspectorWidget widget;
    widget.setResult(result);
    const QStringList labels = widget.orderModel()->labels();
    auto shownLabels = [&] {
        QStringList shown;
        for (int row = 0; row < labels.size(); ++row)
            if (widget.isOrderRowShown(row))
                shown << labels[row];
        return shown;
    };
    QCOMPARE(shownLabels(), labels);
    widget.filterOrder(u"B"_s); // any case
    const QStringList groupB = shownLabels();
    QVERIFY(!groupB.isEmpty());
    const auto& s = result->eval.schedule;
    QCOMPARE(groupB.size(),
             static_cast<qsizetype>(s.groups[partition::GroupId(1)].instances.size()));
    for (const QString& label : groupB)
        QVERIFY2(label.startsWith(u'b') && label.mid(1).toInt() > 0, qPrintable(label));
    widget.filterOrder(groupB.front());
    QCOMPARE(shownLabels(), QStringList{groupB.front()});
    widget.filterOrder(u"zz"_s);
    QVERIFY(shownLabels().isEmpty());
    // A new result keeps the filter.
    widget.filterOrder(u"b"_s);
    widget.setResult(result);
    QCOMPARE(shownLabels(), groupB);
    widget.filterOrder(QString());
    QCOMPARE(shownLabels(), labels);
}

QTEST_MAIN(TestInspectorModels)
#include "test_inspector_models.moc"
