// The `ios` strategy end to end (docs/baselines.md, IOS): on Inception-v3's
// last block its stages are the DP's over the block's schedule units, a
// concurrent stage's kernels take disjoint cores and run at once; a chain
// has no concurrent stage; a model whose blocks pass the DP's bound (DLRM's
// lookups) is cut and still scheduled whole; the schedule document keeps
// the stages, and validation refuses a stage whose cores overlap.

#include "io/schedule_json.h"
#include "partition/ios_scheduler.h"
#include "schedule/validate.h"
#include "sim/ios_cost.h"
#include "sim_fixture.h"

#include <algorithm>

using namespace stagecraft;

namespace {

class TestIosStrategy : public ::testing::Test {
protected:
    static sim::Evaluation evaluate(const ir::Graph& graph, const char* strategy = "ios") {
        return test::valueOrDie(sim::evaluate(graph, stcp920(), *sim::findStrategy(strategy), {},
                                              test::compareOptions(schedule::Level::GB)),
                                strategy);
    }

    static const arch::Arch& stcp920() {
        static const arch::Arch arch = test::preset("stcp920");
        return arch;
    }

    static ir::Graph zoo(const char* name, int64_t batch) {
        static test::TempDir dir;
        return test::importZoo(dir, name, batch);
    }
};

/// Stages as (first kernel, kernel count), in order.
std::vector<std::pair<size_t, size_t>> stagesOf(const kernel::Program& program) {
    std::vector<std::pair<size_t, size_t>> stages;
    for (size_t k = 0; k < program.kernels.size(); ++k)
        if (k == 0 || !program.kernels[k].joinsStage)
            stages.push_back({k, 1});
        else
            stages.back().second += 1;
    return stages;
}

} // namespace

TEST_F(TestIosStrategy, inceptionBlockRunsTheDpsStagesAtOnce) {
    ir::Graph graph = zoo("inception-v3-block", 1);
    sim::Evaluation ev = evaluate(graph);
    auto semantics = test::valueOrDie(partition::SemanticsCache::build(graph), "semantics");
    std::vector<ir::OpId> all(graph.opIds().begin(), graph.opIds().end());
    auto dp = test::valueOrDie(
        partition::scheduleIosUnits(graph, partition::iosScheduleUnits(graph, all),
                                    sim::iosStageCost(graph, stcp920(), semantics), {3, 8, 0}),
        "the DP on the whole block");
    auto stages = stagesOf(ev.program);
    ASSERT_EQ(stages.size(), dp.stages.size());
    size_t concurrent = 0;
    for (size_t i = 0; i < stages.size(); ++i) {
        const partition::IosStage& expected = dp.stages[i];
        ASSERT_EQ(stages[i].second, expected.merged ? size_t{1} : expected.groups.size()) << i;
        int64_t next = 0;
        for (size_t k = stages[i].first; k < stages[i].first + stages[i].second; ++k) {
            const kernel::Kernel& kern = ev.program.kernels[k];
            ASSERT_GE(kern.firstCore, next) << kern.label;
            next = kern.firstCore + kern.cores;
            ASSERT_LE(next, 8) << kern.label;
        }
        concurrent += stages[i].second > 1 ? 1 : 0;
    }
    ASSERT_GE(concurrent, size_t{1});
    // A concurrent stage's second kernel computes before its first syncs.
    for (auto [first, count] : stages) {
        if (count < 2)
            continue;
        double firstSync = 0, secondCompute = -1;
        for (kernel::TaskId t : ev.tasks.tasks.ids()) {
            const kernel::Task& task = ev.tasks.tasks[t];
            if (task.kernel == static_cast<int32_t>(first) && task.kind == kernel::TaskKind::Sync)
                firstSync = ev.sim.events[t].start;
            if (task.kernel == static_cast<int32_t>(first + 1) &&
                task.kind == kernel::TaskKind::Compute && secondCompute < 0)
                secondCompute = ev.sim.events[t].start;
        }
        ASSERT_GE(secondCompute, 0);
        ASSERT_LT(secondCompute, firstSync);
    }
}

TEST_F(TestIosStrategy, aChainHasNoConcurrentStage) {
    sim::Evaluation ev = evaluate(zoo("fig3-chain", 1));
    for (const kernel::Kernel& kern : ev.program.kernels) {
        ASSERT_FALSE(kern.joinsStage) << kern.label;
        ASSERT_EQ(kern.firstCore, 0) << kern.label;
    }
}

TEST_F(TestIosStrategy, wideBlocksAreCutAndEveryOpScheduled) {
    ir::Graph graph = zoo("dlrm", 4);
    sim::Evaluation ev = evaluate(graph);
    size_t ops = 0;
    for (schedule::GroupId g : ev.schedule.partition.groupIds())
        ops += ev.schedule.partition.ops(g).size();
    ASSERT_EQ(ops, graph.opCount());
    ASSERT_GT(stagesOf(ev.program).size(), size_t{1});
    ASSERT_LT(stagesOf(ev.program).size(), ev.program.kernels.size());
}

TEST_F(TestIosStrategy, theDocumentKeepsTheStages) {
    ir::Graph graph = zoo("inception-v3-block", 1);
    sim::Evaluation ev = evaluate(graph);
    std::string text = io::writeScheduleJson(graph, ev.schedule, {});
    auto doc = test::valueOrDie(io::readScheduleJson(text, graph, "ios.json"), "the document");
    ASSERT_EQ(doc.schedule.instances.size(), ev.schedule.instances.size());
    for (schedule::InstanceId id : ev.schedule.instances.ids()) {
        ASSERT_EQ(doc.schedule.instances[id].firstCore, ev.schedule.instances[id].firstCore);
        ASSERT_EQ(doc.schedule.instances[id].joinsStage, ev.schedule.instances[id].joinsStage);
    }
    ASSERT_EQ(doc.schedule.orderKind, schedule::OrderKind::Stages);
    ASSERT_TRUE(schedule::validateSchedule(graph, stcp920(), doc.schedule).ok());
    // A stage's instances on overlapping cores, or past the cluster, are refused.
    schedule::Schedule overlapping = doc.schedule;
    auto joining =
        std::find_if(overlapping.order.begin(), overlapping.order.end(),
                     [&](schedule::InstanceId id) { return overlapping.instances[id].joinsStage; });
    ASSERT_TRUE(joining != overlapping.order.end());
    schedule::Instance& moved = overlapping.instances[*joining];
    moved.firstCore = 0;
    Status refused = schedule::validateSchedule(graph, stcp920(), overlapping);
    ASSERT_FALSE(refused.ok());
    ASSERT_EQ(refused.error().message(), "instance " + moved.label + " joins a stage on cores 0.." +
                                             std::to_string(schedule::coresUsed(moved.bind) - 1) +
                                             " that another instance of the stage uses");
    moved.firstCore = 7;
    ASSERT_FALSE(schedule::validateSchedule(graph, stcp920(), overlapping).ok());
}
