// DLA's Fig. 5 experiment (docs/baselines.md, DLA): Inception-v3's last
// block with the ops of one branch on the host CPU, `dla` with its
// post-prune against the maximal connected convex sub-graphs it starts from.
// Kernels launch when their inputs are ready (DLA §3, the framework's
// engine), so with the post-prune the other branches run on the accelerator
// while the host computes its branch, where the maximal sub-graph (the
// other branches and the final Concat) waits for the host branch whole. The
// paper reports a speedup on every branch but the one on the critical path;
// here the host branch is the block's critical path when it is the longest.

#include "sim_fixture.h"

#include <algorithm>
#include <numeric>
#include <set>

using namespace stagecraft;

namespace {

const arch::Arch& stcp920() {
    static const arch::Arch arch = test::preset("stcp920");
    return arch;
}

/// The ops upstream of each input of the block's final Concat: its four
/// branches, in the Concat's order.
std::vector<std::vector<ir::OpId>> branchesOf(const ir::Graph& graph) {
    const ir::Op* concat = nullptr;
    for (ir::OpId op : graph.opIds())
        if (graph.op(op).kind == ir::OpKind::Concat)
            concat = &graph.op(op); // the last Concat in graph order
    EXPECT_TRUE(concat != nullptr);
    std::vector<std::vector<ir::OpId>> branches;
    for (ir::TensorId in : concat->inputs) {
        std::set<ir::OpId> ops;
        std::vector<ir::TensorId> work = {in};
        while (!work.empty()) {
            ir::OpId producer = graph.tensor(work.back()).producer;
            work.pop_back();
            if (producer == ir::kNoOp || !ops.insert(producer).second)
                continue;
            for (ir::TensorId t : graph.op(producer).inputs)
                work.push_back(t);
        }
        branches.emplace_back(ops.begin(), ops.end());
    }
    return branches;
}

sim::Evaluation runDla(const ir::Graph& graph, const std::vector<ir::OpId>& hostOps,
                       bool postPrune) {
    schedule::ScheduleOptions options = test::compareOptions(schedule::Level::LB);
    for (ir::OpId op : hostOps)
        options.overrides.host.push_back(graph.op(op).name);
    options.dlaPostPrune = postPrune;
    return test::valueOrDie(sim::evaluate(graph, stcp920(), *sim::findStrategy("dla"), {}, options),
                            "dla");
}

/// Whether a compute task on the fallback CPU and one on the accelerator's
/// units run at the same time.
bool hostOverlapsAccelerator(const sim::Evaluation& ev) {
    std::vector<std::pair<double, double>> host, accelerator;
    for (kernel::TaskId t : ev.tasks.tasks.ids()) {
        const kernel::Task& task = ev.tasks.tasks[t];
        if (task.kind != kernel::TaskKind::Compute)
            continue;
        auto span = std::pair{ev.sim.events[t].start, ev.sim.events[t].end};
        (task.unit == kernel::kFallbackUnit ? host : accelerator).push_back(span);
    }
    for (auto [hs, he] : host)
        for (auto [as, ae] : accelerator)
            if (std::max(hs, as) < std::min(he, ae))
                return true;
    return false;
}

/// Time the fallback CPU computes.
double hostComputeNs(const sim::Evaluation& ev) {
    double total = 0;
    for (kernel::TaskId t : ev.tasks.tasks.ids())
        if (ev.tasks.tasks[t].kind == kernel::TaskKind::Compute &&
            ev.tasks.tasks[t].unit == kernel::kFallbackUnit)
            total += ev.sim.events[t].end - ev.sim.events[t].start;
    return total;
}

} // namespace

TEST(TestDlaFig5, thePostPruneRunsTheHostBranchBesideTheAccelerator) {
    test::TempDir dir;
    ir::Graph graph = test::importZoo(dir, "inception-v3-block", 1);
    std::vector<std::vector<ir::OpId>> branches = branchesOf(graph);
    ASSERT_EQ(branches.size(), size_t{4});
    std::vector<double> speedup, hostNs;
    for (size_t b = 0; b < branches.size(); ++b) {
        sim::Evaluation pruned = runDla(graph, branches[b], true);
        sim::Evaluation maximal = runDla(graph, branches[b], false);
        EXPECT_GT(pruned.program.kernels.size(), maximal.program.kernels.size()) << b;
        EXPECT_TRUE(hostOverlapsAccelerator(pruned)) << "branch " << b;
        EXPECT_FALSE(hostOverlapsAccelerator(maximal)) << "branch " << b;
        speedup.push_back(maximal.report.latencyUs / pruned.report.latencyUs);
        hostNs.push_back(hostComputeNs(pruned));
        test::info("branch %zu (%zu ops) on the host: maximal %.3f ms, post-prune %.3f ms, %.3fx",
                   b, branches[b].size(), maximal.report.latencyUs / 1e3,
                   pruned.report.latencyUs / 1e3, speedup.back());
    }
    // The branch on the critical path: the one the host takes longest over.
    size_t critical =
        static_cast<size_t>(std::max_element(hostNs.begin(), hostNs.end()) - hostNs.begin());
    double others = 0;
    for (size_t b = 0; b < speedup.size(); ++b) {
        EXPECT_GE(speedup[b], 1.0) << "branch " << b;
        if (b != critical) {
            EXPECT_GT(speedup[b], speedup[critical]) << "branch " << b;
            others += speedup[b] / 3;
        }
    }
    EXPECT_GE(others, 1.05) << "the paper's direction: about 1.1x off the critical path";
}
