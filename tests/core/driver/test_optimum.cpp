// Each strategy at its own optimum (driver/optimum.h): the configuration
// chosen is the fastest of those tried and each trial is what simulating
// its configuration alone gives, each strategy tries what its search allows
// (sim::Search), what the user fixes is kept, and tvm-llb tries only the
// samples per cluster whose working set the GB retains.

#include "coretestsupport.h"
#include "driver/optimum.h"
#include "hand_cases.h"
#include "schedule/clusters.h"
#include "sim_fixture.h"

#include <gtest/gtest.h>
#include <memory>
#include <set>

using namespace stagecraft;
using namespace stagecraft::test;
using namespace stagecraft::test::handcases;

namespace {

/// Relu then Neg of x [k, 1024] f32, at any k: one group under every
/// strategy's fusion, k x 4 KiB out.
driver::Workload elementwiseWorkload(int64_t totalBatch) {
    driver::Workload w;
    w.totalBatch = totalBatch;
    w.fixedTvmPerCluster = w.fixedPerCluster = 1;
    w.graphAt = driver::rememberGraphs([](int64_t k) -> Expected<std::shared_ptr<const ir::Graph>> {
        return std::make_shared<const ir::Graph>(elementwiseOf({k, 1024}));
    });
    return w;
}

std::set<int64_t> samplesTried(const driver::Optimum& best) {
    std::set<int64_t> tried;
    for (const driver::Trial& t : best.trials)
        tried.insert(t.perCluster);
    return tried;
}

} // namespace

class TestOptimum : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = std::make_unique<test::TempDir>();
        ASSERT_TRUE(dir_->isValid());
        // fig3-chain, the paper's running example, at any batch.
        chain_.totalBatch = 8;
        chain_.fixedTvmPerCluster = chain_.fixedPerCluster = 8;
        chain_.graphAt =
            driver::rememberGraphs([](int64_t k) -> Expected<std::shared_ptr<const ir::Graph>> {
                return std::make_shared<const ir::Graph>(importZoo(*dir_, "fig3-chain", k));
            });
    }
    static void TearDownTestSuite() { dir_.reset(); }

    static driver::Optimum best(const char* strategy, const driver::Fixed& fixed = {}) {
        return valueOrDie(driver::bestConfiguration(chain_, preset("teaching"),
                                                    *sim::findStrategy(strategy), fixed,
                                                    compareOptions(schedule::Level::LB)),
                          strategy);
    }

    static inline std::unique_ptr<test::TempDir> dir_;
    static inline driver::Workload chain_;
};

/// No configuration tried beats the one chosen, and the report is the
/// chosen one's: its samples per cluster times its iterations make the batch.
TEST_F(TestOptimum, theChoiceIsTheFastestTrial) {
    for (const sim::Strategy& s : sim::strategies()) {
        SCOPED_TRACE(s.name);
        driver::Optimum o = best(s.name.c_str());
        const sim::Report& r = o.eval.report;
        ASSERT_EQ(r.perCluster * r.iterations, chain_.totalBatch);
        ASSERT_EQ(r.trials, static_cast<int64_t>(o.trials.size()));
        bool found = false;
        for (const driver::Trial& t : o.trials) {
            ASSERT_TRUE(t.error.empty()) << t.error;
            ASSERT_EQ(t.perCluster * t.iterations, chain_.totalBatch);
            ASSERT_GE(t.latencyUs, r.latencyUs);
            found = found || (t.latencyUs == r.latencyUs && t.perCluster == r.perCluster);
        }
        ASSERT_TRUE(found);
    }
}

/// A trial's latency is what simulating its configuration alone gives.
TEST_F(TestOptimum, aTrialRunAloneGivesItsLatency) {
    const sim::Strategy& s = *sim::findStrategy("graphturbo");
    driver::Optimum o = best("graphturbo");
    for (const driver::Trial& t : o.trials) {
        auto plan = valueOrDie(schedule::makeClusterPlan(8, 1, t.perCluster), "plan");
        schedule::ScheduleOptions options = compareOptions(t.level);
        options.order = t.order;
        auto graph = valueOrDie(chain_.graphAt(t.perCluster), "graph");
        auto alone = valueOrDie(sim::evaluate(*graph, preset("teaching"), s, plan, options), "run");
        ASSERT_EQ(alone.report.latencyUs, t.latencyUs);
    }
}

/// What each strategy's search allows: the baselines their samples per
/// cluster (8, 4, 2, 1), gt-paper too (at the LB level, §3.3's order), the
/// GraphTurbo variants that tune it both levels at each, and graphturbo then
/// the other order at the best.
TEST_F(TestOptimum, eachStrategyTriesWhatItsSearchAllows) {
    for (const char* name : {"tvm", "astitch", "dla", "ago", "ios", "gt-paper"}) {
        driver::Optimum o = best(name);
        ASSERT_EQ(samplesTried(o), (std::set<int64_t>{1, 2, 4, 8})) << name;
        ASSERT_EQ(o.trials.size(), size_t{4}) << name;
        for (const driver::Trial& t : o.trials)
            ASSERT_EQ(t.level, schedule::Level::LB) << name;
    }
    ASSERT_EQ(best("gt-gb").trials.size(), size_t{8});
    driver::Optimum gt = best("graphturbo");
    ASSERT_EQ(gt.trials.size(), size_t{9});
    const driver::Trial& last = gt.trials.back();
    ASSERT_NE(last.order, schedule::OrderChoice::Best);
    ASSERT_EQ(best("tvm").eval.report.level, std::string());
    ASSERT_EQ(best("graphturbo").eval.report.chosenBy, std::string("tuned"));
}

/// The samples per cluster, level and order the user gives are kept;
/// everything fixed runs the workload's fixed samples, LB and §3.3's order.
TEST_F(TestOptimum, whatTheUserFixesIsKept) {
    driver::Fixed two;
    two.perCluster = 2;
    two.level = schedule::Level::GB;
    two.order = schedule::OrderChoice::BFS;
    driver::Optimum o = best("graphturbo", two);
    ASSERT_EQ(o.trials.size(), size_t{1});
    ASSERT_EQ(o.eval.report.perCluster, int64_t{2});
    ASSERT_EQ(o.eval.report.iterations, int64_t{4});
    ASSERT_EQ(o.eval.report.level, std::string("GB"));
    ASSERT_EQ(o.eval.report.order, std::string("bfs"));
    ASSERT_EQ(o.eval.report.chosenBy, std::string("fixed"));
    driver::Fixed all;
    all.everything = true;
    driver::Optimum fixed = best("graphturbo", all);
    ASSERT_EQ(fixed.trials.size(), size_t{1});
    ASSERT_EQ(fixed.eval.report.perCluster, int64_t{8});
    ASSERT_EQ(fixed.eval.report.level, std::string("LB"));
}

/// Table 1's TVM: samples per cluster only as many as the cluster's GB
/// retains. Relu then Neg of k x 4 KiB is one group whose output is the
/// working set: a 16 KiB GB retains 4 samples, so of a batch of 16 on one
/// cluster tvm-llb tries 4, 2 and 1 (loop iterations beyond), while tvm
/// tries every divisor.
TEST_F(TestOptimum, tvmLlbTriesWhatTheGbRetains) {
    arch::Arch small = handArch();
    small.cluster.globalBuffer = arch::MemorySpec{"GB", 16 << 10};
    driver::Workload w = elementwiseWorkload(16);
    auto run = [&](const char* name) {
        return valueOrDie(driver::bestConfiguration(w, small, *sim::findStrategy(name), {},
                                                    compareOptions(schedule::Level::LB)),
                          name);
    };
    ASSERT_EQ(samplesTried(run("tvm-llb")), (std::set<int64_t>{1, 2, 4}));
    ASSERT_EQ(samplesTried(run("tvm")), (std::set<int64_t>{1, 2, 4, 8, 16}));
    small.cluster.globalBuffer = arch::MemorySpec{"GB", 2 << 10};
    ASSERT_EQ(samplesTried(run("tvm-llb")), (std::set<int64_t>{1})); // none fits: the fewest
}

/// A batch that divides over the clusters at no samples per cluster the
/// model can be loaded at is refused with the reason.
TEST_F(TestOptimum, anImpossibleBatchIsRefused) {
    driver::Workload w = elementwiseWorkload(6);
    w.perClusterChoices = {4};
    auto refused = driver::bestConfiguration(w, handArch(), *sim::findStrategy("tvm"));
    ASSERT_TRUE(!refused.ok());
    ASSERT_NE(refused.error().message().find("does not divide"), std::string::npos);
}

/// gt-paper runs the paper's method alone (decisions.md): at the LB level,
/// each group split as Algorithm 1 splits it, every instance launched on
/// its own; graphturbo, on the same Fig. 3 chain, runs consecutive
/// instances of a group in one launch.
TEST_F(TestOptimum, gtPaperRunsThePapersMethodAlone) {
    driver::Optimum paper = best("gt-paper");
    const sim::Evaluation& ev = paper.eval;
    ASSERT_EQ(ev.schedule.level, schedule::Level::LB);
    ASSERT_FALSE(ev.schedule.extensions.rereadLimit);
    ASSERT_FALSE(ev.schedule.extensions.gbFallback);
    ASSERT_FALSE(ev.schedule.extensions.residentSplits);
    for (const schedule::Group& g : ev.schedule.groups) {
        ASSERT_FALSE(g.splitInfo.resident.has_value());
        ASSERT_EQ(g.split, g.splitInfo.best);
    }
    for (const kernel::Kernel& k : ev.program.kernels)
        ASSERT_FALSE(k.continuesLaunch) << k.label;
    driver::Fixed same;
    same.perCluster = paper.eval.report.perCluster;
    same.level = schedule::Level::LB;
    driver::Optimum ours = best("graphturbo", same);
    bool shared = false;
    for (const kernel::Kernel& k : ours.eval.program.kernels)
        shared = shared || k.continuesLaunch;
    ASSERT_TRUE(shared);
}
