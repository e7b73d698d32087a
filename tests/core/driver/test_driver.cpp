// The driver of both front ends (core/driver): `auto` picks the level
// sim::pickLevel picks and says why, a named or lent level is kept, a lent
// schedule gives the schedule a fresh build gives, a step callback cancels,
// the code plan comes out validated, emission refuses a directory it cannot
// write before compiling anything, and a changed model file is named once.

#include "coretestsupport.h"
#include "driver/emit.h"
#include "driver/model_check.h"
#include "driver/pipeline.h"
#include "sim/level_choice.h"
#include "sim_fixture.h"

#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

using namespace stagecraft;
using namespace stagecraft::test;

/// One fig2-blocks import shared by every test, as the Qt suite's
/// initTestCase made it once.
class TestDriver : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = std::make_unique<test::TempDir>();
        ready_ = false;
        ASSERT_TRUE(dir_->isValid());
        graph_ = importZoo(*dir_, "fig2-blocks", 2);
        ready_ = true;
    }
    static void TearDownTestSuite() { dir_.reset(); }
    void SetUp() override { ASSERT_TRUE(ready_) << "the suite's setup failed"; }

    static inline std::unique_ptr<test::TempDir> dir_;
    static inline ir::Graph graph_;
    static inline bool ready_ = false;

    driver::Request request(schedule::LevelChoice level) const {
        driver::Request r;
        r.graph = &graph_;
        r.arch = preset("stcp920");
        r.level = level;
        r.perCluster = driver::perClusterBatch(graph_);
        r.recordTrace = false;
        return r;
    }

    driver::Scheduled run(const driver::Request& r, const driver::Reuse& reuse = {}) const {
        return valueOrDie(driver::scheduleAndSimulate(r, reuse), "driver run");
    }
};

TEST_F(TestDriver, perClusterBatchIsDimZeroOfTheFirstInput) {
    ASSERT_EQ(driver::perClusterBatch(graph_), int64_t{2});
    ASSERT_EQ(driver::perClusterBatch(ir::Graph{}), int64_t{1});
}

TEST_F(TestDriver, autoPicksWhatPickLevelPicksAndSaysWhy) {
    driver::Request r = request(std::nullopt);
    auto clusters = valueOrDie(
        schedule::makeClusterPlan(r.perCluster * r.arch.clusters, r.arch.clusters, r.perCluster),
        "clusters");
    sim::LevelVerdict verdict =
        valueOrDie(sim::pickLevel(graph_, r.arch, clusters, compareOptions({})), "pickLevel");
    driver::Scheduled done = run(r);
    ASSERT_EQ(done.eval.schedule.level, verdict.level);
    ASSERT_EQ(done.levelWhy, verdict.why);
    driver::Scheduled named = run(request(verdict.level));
    ASSERT_EQ(named.levelWhy, std::string());
    ASSERT_FUZZY_EQ(named.eval.report.latencyUs, done.eval.report.latencyUs);
}

TEST_F(TestDriver, aLentAutoLevelIsKept) {
    driver::Scheduled fresh = run(request(std::nullopt));
    schedule::Level other = fresh.eval.schedule.level == schedule::Level::LB ? schedule::Level::GB
                                                                             : schedule::Level::LB;
    driver::Reuse reuse;
    reuse.autoLevel = other;
    reuse.autoWhy = "kept from the last run";
    driver::Scheduled kept = run(request(std::nullopt), reuse);
    ASSERT_EQ(kept.eval.schedule.level, other);
    ASSERT_EQ(kept.levelWhy, std::string("kept from the last run"));
}

TEST_F(TestDriver, aLentScheduleGivesWhatAFreshBuildGives) {
    for (schedule::Level level : {schedule::Level::LB, schedule::Level::GB}) {
        driver::Scheduled first = run(request(level));
        driver::Request edited = request(level);
        edited.order = schedule::OrderChoice::BFS;
        driver::Reuse reuse;
        reuse.schedule = &first.eval.schedule;
        driver::Scheduled reused = run(edited, reuse);
        driver::Scheduled fresh = run(edited);
        ASSERT_EQ(reused.eval.schedule.order, fresh.eval.schedule.order);
        ASSERT_FUZZY_EQ(reused.eval.report.latencyUs, fresh.eval.report.latencyUs);
    }
}

// The CLI's --batch: a cluster plan given as is, and the schedule alone
// (the Schedule step only) equal to what the simulated run schedules.
TEST_F(TestDriver, aGivenClusterPlanIsUsedAsIs) {
    driver::Request r = request(schedule::Level::LB);
    schedule::ClusterPlan given =
        valueOrDie(schedule::makeClusterPlan(3 * r.arch.clusters * r.perCluster, r.arch.clusters,
                                             r.perCluster),
                   "plan");
    given.chosenBy = "given";
    r.clusters = given;
    std::vector<driver::Step> seen;
    auto planned = driver::scheduleOnly(r, {}, [&](driver::Step step) {
        seen.push_back(step);
        return true;
    });
    ASSERT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    ASSERT_EQ(planned->schedule.clusters.totalBatch, given.totalBatch);
    ASSERT_EQ(planned->schedule.clusters.iterations, int64_t{3});
    ASSERT_EQ(planned->schedule.clusters.chosenBy, std::string("given"));
    ASSERT_EQ(seen, std::vector<driver::Step>{driver::Step::Schedule});
    ASSERT_EQ(run(r).eval.schedule.order, planned->schedule.order);
}

TEST_F(TestDriver, aStepCallbackCancels) {
    std::vector<driver::Step> seen;
    auto stopAtSimulate = [&](driver::Step step) {
        seen.push_back(step);
        return step != driver::Step::Simulate;
    };
    auto cancelled = driver::scheduleAndSimulate(request(schedule::Level::GB), {}, stopAtSimulate);
    ASSERT_TRUE(!cancelled.ok());
    ASSERT_EQ(cancelled.error().message(), std::string("cancelled"));
    ASSERT_EQ(seen, (std::vector<driver::Step>{driver::Step::Schedule, driver::Step::Simulate}));
}

TEST_F(TestDriver, badRequestsFailNamingWhat) {
    driver::Request r = request(schedule::Level::LB);
    r.strategy = "nope";
    auto unknown = driver::scheduleAndSimulate(r);
    ASSERT_TRUE(!unknown.ok());
    ASSERT_EQ(unknown.error().message(),
              std::string("unknown strategy 'nope' (expected tvm, tvm-llb, astitch, dla, ago, "
                          "ios, gt-gb, gt-lb, gt-instances, gt-paper or graphturbo)"));
    r = request(schedule::Level::LB);
    r.graph = nullptr;
    ASSERT_TRUE(!driver::scheduleAndSimulate(r).ok());
}

// The plan is the one codegen::planCode makes, and it validates (the
// validator's own refusals are test_code_plan's).
TEST_F(TestDriver, theCodePlanComesOutValidated) {
    driver::Scheduled done = run(request(schedule::Level::LB));
    auto plan = driver::planCode(graph_, done.eval);
    ASSERT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().message().c_str());
    auto direct = codegen::planCode(graph_, done.eval.schedule, done.eval.program);
    ASSERT_TRUE(direct.ok());
    ASSERT_EQ(plan->kernels.size(), direct->kernels.size());
    ASSERT_TRUE(codegen::validateCodePlan(graph_, *plan).ok());
}

TEST_F(TestDriver, emissionRefusesADirectoryBeforeCompiling) {
    driver::Scheduled done = run(request(schedule::Level::LB));
    codegen::CodePlan plan = valueOrDie(driver::planCode(graph_, done.eval), "plan");
    std::string file = dir_->filePath(std::string("not-a-directory"));
    std::ofstream(file) << "x";
    int compiled = 0;
    auto counting = [&](const codegen::EmitCount&) {
        ++compiled;
        return true;
    };
    codegen::ManifestInfo info{"fig2-blocks", "stcp920", "graphturbo"};
    auto refused =
        driver::emitKernels(file, graph_, *done.eval.schedule.semantics, plan, {}, info, counting);
    ASSERT_TRUE(!refused.ok());
    ASSERT_EQ(compiled, 0);
    std::string out = dir_->filePath(std::string("kernels"));
    auto emitted =
        driver::emitKernels(out, graph_, *done.eval.schedule.semantics, plan, {}, info, counting);
    ASSERT_TRUE(emitted.ok()) << (emitted.ok() ? "" : emitted.error().message().c_str());
    ASSERT_EQ(emitted->program.kernels.size(), plan.kernels.size());
    ASSERT_TRUE(compiled > 0);
    ASSERT_TRUE(std::filesystem::exists(std::filesystem::path(out) / "manifest.json"));
}

TEST_F(TestDriver, aChangedModelIsNamedOnce) {
    ASSERT_TRUE(!driver::modelChangedMessage("m.onnx", "", "abc").has_value());
    ASSERT_TRUE(!driver::modelChangedMessage("m.onnx", "abc", "abc").has_value());
    std::string saved(64, 'a'), now(64, 'b');
    auto message = driver::modelChangedMessage("m.onnx", saved, now);
    ASSERT_TRUE(message.has_value());
    ASSERT_EQ(*message, "m.onnx changed on disk since the session was saved (sha256 " +
                            saved.substr(0, 12) + "… now " + now.substr(0, 12) + "…)");
}
