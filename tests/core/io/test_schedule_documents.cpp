// Schedule documents of real schedules: the engine schedules the paper's
// figure models on the teaching architecture; each schedule is written, read
// back (and still valid), and written again byte for byte.

#include "arch/presets.h"
#include "io/overrides_json.h"
#include "io/schedule_json.h"
#include "onnx/importer.h"
#include "schedule/pipeline.h"
#include "schedule/validate.h"
#include "zoo/zoo.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace stagecraft;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(stagecraft::schedule::OrderChoice)

namespace {

ir::Graph zooGraph(const std::string& name) {
    QTemporaryDir dir;
    std::filesystem::path file = dir.filePath(QStringLiteral("model.onnx")).toStdString();
    auto written = zoo::writeZooModel(name, {}, file);
    SC_ASSERT(written.ok(), "zoo model written");
    auto imported = onnxio::importModel(file);
    SC_ASSERT(imported.ok(), "zoo model imported");
    return std::move(imported->graph);
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

class TestScheduleDocuments : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data() {
        QTest::addColumn<std::string>("model");
        QTest::addColumn<std::string>("archName");
        QTest::addColumn<schedule::OrderChoice>("order");
        QTest::addColumn<std::string>("overrides");
        using schedule::OrderChoice;
        const std::string none;
        for (std::string model : {"fig3-chain", "fig2-blocks"}) {
            const char* name = model.c_str();
            QTest::addRow("%s bfs", name)
                << model << std::string("teaching") << OrderChoice::BFS << none;
            QTest::addRow("%s dfs", name)
                << model << std::string("teaching") << OrderChoice::DFS << none;
            QTest::addRow("%s best", name)
                << model << std::string("teaching") << OrderChoice::Best << none;
        }
        // Larger models: copies, redistributions, hundreds of instances.
        for (std::string model : {"resnet50", "densenet121", "bert-base"})
            QTest::addRow("%s stcp920", model.c_str())
                << model << std::string("stcp920") << OrderChoice::Best << none;
        QTest::newRow("fig3-chain split override")
            << std::string("fig3-chain") << std::string("teaching") << OrderChoice::DFS
            << std::string(R"({"format": "stagecraft-overrides", "version": 1,
                              "split": [{"op": "stage4.conv1", "dim": 0, "factor": 2}]})");
    }
    void roundTrip() {
        QFETCH(std::string, model);
        QFETCH(std::string, archName);
        QFETCH(schedule::OrderChoice, order);
        QFETCH(std::string, overrides);
        ir::Graph graph = zooGraph(model);
        auto target = arch::loadPreset(archName);
        QVERIFY(target.ok());
        schedule::ScheduleOptions options;
        options.order = order;
        if (!overrides.empty()) {
            auto read = io::readOverridesJson(overrides, "o.json");
            QVERIFY2(read.ok(), read.ok() ? "" : read.error().message().c_str());
            options.overrides = *read;
        }
        auto built = schedule::buildSchedule(graph, *target, options);
        QVERIFY2(built.ok(), built.ok() ? "" : built.error().message().c_str());
        QVERIFY(schedule::validateSchedule(graph, *target, *built).ok());

        io::ScheduleDocInfo info{"zoo:" + model, target->name, order, options.overrides, true};
        std::string first = io::writeScheduleJson(graph, *built, info);
        QCOMPARE(qs(io::writeScheduleJson(graph, *built, info)), qs(first));
        QCOMPARE(first.find("\"split_overridden\": true") != std::string::npos, !overrides.empty());
        auto read = io::readScheduleJson(first, graph, "doc.json");
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message().c_str());
        Status valid = schedule::validateSchedule(graph, *target, read->schedule);
        QVERIFY2(valid.ok(), valid.ok() ? "" : valid.error().message().c_str());
        QCOMPARE(qs(io::writeScheduleJson(graph, read->schedule, read->info)), qs(first));

        // The read schedule is the built one, not only its text.
        const schedule::Schedule& a = *built;
        const schedule::Schedule& b = read->schedule;
        QCOMPARE(b.order, a.order);
        QCOMPARE(b.instances.size(), a.instances.size());
        for (size_t i = 0; i < a.instances.size(); ++i) {
            QCOMPARE(b.instances[i].bind, a.instances[i].bind);
            QCOMPARE(b.instances[i].shape, a.instances[i].shape);
            QCOMPARE(b.instances[i].scope, a.instances[i].scope);
        }
        QCOMPARE(b.groups.size(), a.groups.size());
        for (size_t g = 0; g < a.groups.size(); ++g) {
            QCOMPARE(b.groups[g].split, a.groups[g].split);
            QCOMPARE(b.groups[g].splitInfo.candidates, a.groups[g].splitInfo.candidates);
        }
        QCOMPARE(b.edges.size(), a.edges.size());
        QCOMPARE(b.moves.size(), a.moves.size());
        QCOMPARE(b.trace.order.size(), a.trace.order.size());
        QCOMPARE(b.trace.merges.size(), a.trace.merges.size());
    }

    void otherModelRefused() {
        auto arch = arch::loadPreset("teaching");
        QVERIFY(arch.ok());
        ir::Graph chain = zooGraph("fig3-chain");
        auto built = schedule::buildSchedule(chain, *arch, {});
        QVERIFY(built.ok());
        std::string text = io::writeScheduleJson(chain, *built, {});
        ir::Graph blocks = zooGraph("fig2-blocks");
        auto read = io::readScheduleJson(text, blocks, "chain.json");
        QVERIFY(!read.ok());
        QVERIFY2(qs(read.error().message()).startsWith(QStringLiteral("chain.json: model.ops: ")) ||
                     qs(read.error().message()).contains(QStringLiteral("unknown op")),
                 read.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestScheduleDocuments)
#include "test_schedule_documents.moc"
