// The scheduling properties of test_schedule_properties on real models, on
// stcp920 (GraphTurbo §5's platform): every model of the zoo (written to a
// temporary directory and imported) and the fetched third-party models
// (PP-OCR detector, recognizer and classifier with their inputs bound, the
// openWakeWord models). Per model: buildSchedule with the best order, BFS
// and DFS through reschedule() from it, every property of schedule_checks.h
// on each, and a second buildSchedule compared field by field. Every model
// runs in Debug builds too (all together take seconds).

#include "arch/presets.h"
#include "coretestsupport.h"
#include "onnx/importer.h"
#include "schedule_checks.h"
#include "suite_fixture.h"
#include "test_rows.h"
#include "zoo/zoo.h"

#include <algorithm>
#include <chrono>
#include <gtest/gtest.h>
#include <memory>

using namespace stagecraft;

namespace {

/// One line for a failed Expected or Status.
template <class T>
std::string message(const T& result) {
    return result.ok() ? std::string() : result.error().message();
}

} // namespace

/// stcp920 and a temporary directory, made once for the whole program (the
/// Qt suite's initTestCase).
class TestScheduleModels : public test::OnceSuite<TestScheduleModels> {
public:
    /// Loads stcp920 (OnceSuite's setup, after dir_).
    static void prepare() {
        auto loaded = arch::loadPreset("stcp920");
        ASSERT_TRUE(loaded.ok()) << message(loaded);
        arch_ = std::move(*loaded);
    }

protected:
    static void checkModel(const ir::Graph& graph) {
        auto start = std::chrono::steady_clock::now();
        auto semantics = partition::SemanticsCache::build(graph);
        ASSERT_TRUE(semantics.ok()) << message(semantics);
        schedule::ScheduleOptions options;
        auto best = schedule::buildSchedule(graph, arch_, options);
        ASSERT_TRUE(best.ok()) << message(best);
        std::string problem = test::scheduleProblem(graph, arch_, *best, &*semantics);
        ASSERT_TRUE(problem.empty()) << ("order best: " + problem);
        for (auto [choice, kind, name] :
             {std::tuple{schedule::OrderChoice::BFS, schedule::OrderKind::BFS, "bfs"},
              std::tuple{schedule::OrderChoice::DFS, schedule::OrderKind::DFS, "dfs"}}) {
            options.order = choice;
            auto s = schedule::reschedule(*best, graph, arch_, options);
            ASSERT_TRUE(s.ok()) << (std::string("order ") + name + ": " + message(s));
            ASSERT_EQ(s->orderKind, kind);
            problem = test::scheduleProblem(graph, arch_, *s, &*semantics, &*best);
            ASSERT_TRUE(problem.empty()) << (std::string("order ") + name + ": " + problem);
            if (best->orderKind == kind) {
                ASSERT_EQ(best->order, s->order);
            }
        }
        options.order = schedule::OrderChoice::Best;
        auto again = schedule::buildSchedule(graph, arch_, options);
        ASSERT_TRUE(again.ok());
        std::string difference = test::scheduleDifference(*best, *again);
        ASSERT_TRUE(difference.empty()) << ("a second buildSchedule differs: " + difference);
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        test::info("%zu ops, %zu groups, %zu instances, %zu moves; checked in %.1f s",
                   graph.opCount(), best->groups.size(), best->instances.size(), best->moves.size(),
                   seconds);
    }

    static inline arch::Arch arch_;
};

class ZooModelRows : public TestScheduleModels,
                     public ::testing::WithParamInterface<test::ZooModelRow> {};

TEST_P(ZooModelRows, zooModels) {
    const std::string& name = GetParam().name;
    std::filesystem::path path = dir_->filePath(name + ".onnx");
    auto written = zoo::writeZooModel(name, {}, path);
    ASSERT_TRUE(written.ok()) << message(written);
    auto imported = onnxio::importModel(path);
    ASSERT_TRUE(imported.ok()) << message(imported);
    checkModel(imported->graph);
}

INSTANTIATE_TEST_SUITE_P(TestScheduleModels, ZooModelRows,
                         ::testing::ValuesIn(test::zooModelRows()), test::RowName{});

class FetchedModelRows : public TestScheduleModels,
                         public ::testing::WithParamInterface<test::FetchedModelRow> {};

TEST_P(FetchedModelRows, fetchedModels) {
    auto imported = test::importFetchedModel(GetParam());
    if (!imported)
        return;
    ASSERT_TRUE(imported->ok()) << message(*imported);
    checkModel(imported->value());
}

INSTANTIATE_TEST_SUITE_P(TestScheduleModels, FetchedModelRows,
                         ::testing::ValuesIn(test::fetchedModelRows()), test::RowName{});
