// The scheduling properties of test_schedule_properties on real models, on
// stcp920 (GraphTurbo §5's platform): every model of the zoo (written to a
// temporary directory and imported) and the fetched third-party models
// (PP-OCR detector, recognizer and classifier with their inputs bound, the
// openWakeWord models). Per model: buildSchedule with the best order, BFS
// and DFS through reschedule() from it, every property of schedule_checks.h
// on each, and a second buildSchedule compared field by field. Every model
// runs in Debug builds too (all together take seconds).

#include "arch/presets.h"
#include "onnx/importer.h"
#include "schedule_checks.h"
#include "test_rows.h"
#include "testsupport.h"
#include "zoo/zoo.h"

#include <QtTest>

#include <algorithm>
#include <chrono>

using namespace stagecraft;

namespace {

/// One line for a failed Expected or Status.
template <class T>
std::string message(const T& result) {
    return result.ok() ? std::string() : result.error().message();
}

} // namespace

class TestScheduleModels : public QObject {
    Q_OBJECT
    arch::Arch arch_;
    QTemporaryDir dir_;

    void checkModel(const ir::Graph& graph) {
        auto start = std::chrono::steady_clock::now();
        auto semantics = partition::SemanticsCache::build(graph);
        QVERIFY2(semantics.ok(), message(semantics).c_str());
        schedule::ScheduleOptions options;
        auto best = schedule::buildSchedule(graph, arch_, options);
        QVERIFY2(best.ok(), message(best).c_str());
        std::string problem = test::scheduleProblem(graph, arch_, *best, &*semantics);
        QVERIFY2(problem.empty(), ("order best: " + problem).c_str());
        for (auto [choice, kind, name] :
             {std::tuple{schedule::OrderChoice::BFS, schedule::OrderKind::BFS, "bfs"},
              std::tuple{schedule::OrderChoice::DFS, schedule::OrderKind::DFS, "dfs"}}) {
            options.order = choice;
            auto s = schedule::reschedule(*best, graph, arch_, options);
            QVERIFY2(s.ok(), (std::string("order ") + name + ": " + message(s)).c_str());
            QCOMPARE(s->orderKind, kind);
            problem = test::scheduleProblem(graph, arch_, *s, &*semantics, &*best);
            QVERIFY2(problem.empty(), (std::string("order ") + name + ": " + problem).c_str());
            if (best->orderKind == kind)
                QCOMPARE(best->order, s->order);
        }
        options.order = schedule::OrderChoice::Best;
        auto again = schedule::buildSchedule(graph, arch_, options);
        QVERIFY(again.ok());
        std::string difference = test::scheduleDifference(*best, *again);
        QVERIFY2(difference.empty(), ("a second buildSchedule differs: " + difference).c_str());
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        qInfo("%zu ops, %zu groups, %zu instances, %zu moves; checked in %.1f s", graph.opCount(),
              best->groups.size(), best->instances.size(), best->moves.size(), seconds);
    }

private slots:
    void initTestCase() {
        auto loaded = arch::loadPreset("stcp920");
        QVERIFY2(loaded.ok(), message(loaded).c_str());
        arch_ = std::move(*loaded);
        QVERIFY(dir_.isValid());
    }

    void zooModels_data() { test::addZooModelRows(); }
    void zooModels() {
        QFETCH(QString, name);
        std::filesystem::path path = dir_.filePath(name + QStringLiteral(".onnx")).toStdString();
        auto written = zoo::writeZooModel(name.toStdString(), {}, path);
        QVERIFY2(written.ok(), message(written).c_str());
        auto imported = onnxio::importModel(path);
        QVERIFY2(imported.ok(), message(imported).c_str());
        checkModel(imported->graph);
    }

    void fetchedModels_data() { test::addFetchedModelRows(); }
    void fetchedModels() {
        QFETCH(QString, file);
        QFETCH(QString, input);
        auto imported = test::importFetchedModel(file, input);
        if (!imported)
            return;
        QVERIFY2(imported->ok(), message(*imported).c_str());
        checkModel(imported->value());
    }
};

QTEST_GUILESS_MAIN(TestScheduleModels)
#include "test_schedule_models.moc"
