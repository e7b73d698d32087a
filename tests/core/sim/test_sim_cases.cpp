// Hand-computed timelines (docs/simulator.md has the arithmetic): tiny graphs
// on a one-core architecture with round numbers, simulated with and without
// across-layer scheduling, checked to the nanosecond (1 ns = 1 cycle at 1 GHz).
//
// The architecture: vector unit 4 ops/cycle, matrix unit 16 MACs/cycle;
// DDR->GB 1 byte/ns after 100 ns, GB->LB 4 bytes/ns after 10 ns, one channel
// each; launch 1000 ns, sync 50 ns; no DDR->LB path, so DDR data goes
// through GB.

#include "coretestsupport.h"
#include "hand_cases.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test::handcases;

// 4 KiB in: DDR->GB 100 + 4096, GB->LB 10 + 1024; 2 x 1024 ops at 4/cycle
// fused in one layer = 512; 4 KiB out: LB->GB 1034, GB->DDR 4196; sync 50.
TEST(TestSimCases, chainOfTwoElementwiseOps) {
    using K = kernel::TaskKind;
    std::vector<Expect> expected = {{K::Launch, 0, 1000},   {K::Load, 1000, 5196},
                                    {K::Load, 5196, 6230},  {K::Compute, 6230, 6742},
                                    {K::Store, 6742, 7776}, {K::Store, 7776, 11972},
                                    {K::Sync, 11972, 12022}};
    for (const char* strategy : {"tvm", "graphturbo"}) {
        sim::Evaluation ev = run(twoElementwise(), strategy);
        ASSERT_EQ(ev.program.kernels.size(), size_t{1});
        ASSERT_EQ(ev.program.kernels[0].layers.size(), size_t{1});
        checkTimeline(ev, expected);
        ASSERT_FUZZY_EQ(ev.sim.makespanNs, 12022.0);
    }
}

// DLA §3 on an accelerator that takes Relu only, with a 1 GFLOP/s host CPU:
// the Relu is a part of its own whose output goes to DDR, the Neg a kernel
// on the host. Kernel 1 as above but 1024 ops = 256 ns: 11766. Kernel 2
// the same with 1024 ops at 1 per ns on the host: 11766 + 12534. tvm keeps
// one kernel and runs the Neg on the host too: 12022 - 256 + 1024. Without
// the list the chain is one part, as tvm's kernel.
TEST(TestSimCases, dlaRunsWhatTheAcceleratorLacksOnTheHost) {
    using K = kernel::TaskKind;
    arch::Arch reluOnly = handArch();
    reluOnly.fallbackCpu = arch::FallbackCpu{"host", 1};
    reluOnly.supportedOps = std::vector<ir::OpKind>{ir::OpKind::Relu};
    sim::Evaluation dla = runOn(reluOnly, twoElementwise(), "dla");
    ASSERT_EQ(dla.program.kernels.size(), size_t{2});
    checkTimeline(dla, {{K::Launch, 0, 1000},
                        {K::Load, 1000, 5196},
                        {K::Load, 5196, 6230},
                        {K::Compute, 6230, 6486},
                        {K::Store, 6486, 7520},
                        {K::Store, 7520, 11716},
                        {K::Sync, 11716, 11766},
                        {K::Launch, 11766, 12766},
                        {K::Load, 12766, 16962},
                        {K::Load, 16962, 17996},
                        {K::Compute, 17996, 19020},
                        {K::Store, 19020, 20054},
                        {K::Store, 20054, 24250},
                        {K::Sync, 24250, 24300}});
    ASSERT_EQ(dla.tasks.tasks[kernel::TaskId::at(3)].unit, 0);
    ASSERT_EQ(dla.tasks.tasks[kernel::TaskId::at(10)].unit, kernel::kFallbackUnit);
    sim::Evaluation tvm = runOn(reluOnly, twoElementwise(), "tvm");
    ASSERT_EQ(tvm.program.kernels.size(), size_t{1});
    ASSERT_FUZZY_EQ(tvm.sim.makespanNs, 12022.0 - 256 + 1024);
    sim::Evaluation whole = run(twoElementwise(), "dla");
    ASSERT_EQ(whole.program.kernels.size(), size_t{1});
    ASSERT_FUZZY_EQ(whole.sim.makespanNs, 12022.0);
}

// DLA's kernels launch on their inputs (Program::launchOnDependencies): the
// Relu and the Neg of one input, the Relu on the accelerator, the Neg on the
// 1 GFLOP/s host (dla's order puts the host kernel first). Neither reads the
// other, so the second kernel launches when the control unit is free
// (1000-2000), not after the first one's sync, and the two share the DMA
// pipes in turn as IOS's stage below does. The Neg loads 1000-5196 and
// 5196-6230, computes 1024 ns on the host (6230-7254), stores 7254-8288 and,
// after the Relu's load from DDR (5196-9392), 9392-13588, syncs
// 13588-13638; the Relu loads 9392-10426 from GB, computes 256 ns
// (10426-10682), stores 10682-11716 and 13588-17784, syncs 17784-17834. As
// barriers the two took 24300 (the case above, the same work in sequence).
TEST(TestSimCases, dlaLaunchesKernelsOnTheirInputs) {
    using K = kernel::TaskKind;
    arch::Arch reluOnly = handArch();
    reluOnly.fallbackCpu = arch::FallbackCpu{"host", 1};
    reluOnly.supportedOps = std::vector<ir::OpKind>{ir::OpKind::Relu};
    sim::Evaluation dla = runOn(reluOnly, twoBranches(), "dla");
    ASSERT_TRUE(dla.program.launchOnDependencies);
    ASSERT_EQ(dla.program.kernels.size(), size_t{2});
    checkTimeline(dla, {{K::Launch, 0, 1000},
                        {K::Load, 1000, 5196},
                        {K::Load, 5196, 6230},
                        {K::Compute, 6230, 7254},
                        {K::Store, 7254, 8288},
                        {K::Store, 9392, 13588},
                        {K::Sync, 13588, 13638},
                        {K::Launch, 1000, 2000},
                        {K::Load, 5196, 9392},
                        {K::Load, 9392, 10426},
                        {K::Compute, 10426, 10682},
                        {K::Store, 10682, 11716},
                        {K::Store, 13588, 17784},
                        {K::Sync, 17784, 17834}});
    ASSERT_EQ(dla.tasks.tasks[kernel::TaskId::at(3)].unit, kernel::kFallbackUnit);
    ASSERT_EQ(dla.tasks.tasks[kernel::TaskId::at(10)].unit, 0);
    ASSERT_FUZZY_EQ(dla.sim.makespanNs, 17834.0);
    ASSERT_FALSE(runOn(reluOnly, twoBranches(), "tvm").program.launchOnDependencies);
}

// The user's host ops (Overrides::host) run where an unsupported op runs:
// the Neg put on the host gives dla the timeline of the Relu-only
// accelerator above, and tvm its makespan. Unknown ops and an architecture
// without a fallback CPU are refused, naming them.
TEST(TestSimCases, hostOverridesRunOpsOnTheFallbackCpu) {
    ir::Graph graph = twoElementwise();
    arch::Arch withHost = handArch();
    withHost.fallbackCpu = arch::FallbackCpu{"host", 1};
    arch::Arch reluOnly = withHost;
    reluOnly.supportedOps = std::vector<ir::OpKind>{ir::OpKind::Relu};
    std::string neg = graph.op(ir::OpId(1)).name;
    schedule::ScheduleOptions base;
    base.overrides.host = {neg};
    for (const char* strategy : {"dla", "tvm"}) {
        auto forced = sim::evaluate(graph, withHost, *sim::findStrategy(strategy), {}, base);
        ASSERT_TRUE(forced.ok()) << forced.error().message();
        sim::Evaluation listed = runOn(reluOnly, graph, strategy);
        ASSERT_EQ(forced->program.kernels.size(), listed.program.kernels.size()) << strategy;
        ASSERT_FUZZY_EQ(forced->sim.makespanNs, listed.sim.makespanNs);
    }
    base.overrides.host = {"nope"};
    auto unknown = sim::evaluate(graph, withHost, *sim::findStrategy("dla"), {}, base);
    ASSERT_FALSE(unknown.ok());
    ASSERT_EQ(unknown.error().message(), "host override: unknown op 'nope'");
    base.overrides.host = {neg};
    auto noCpu = sim::evaluate(graph, handArch(), *sim::findStrategy("tvm"), {}, base);
    ASSERT_FALSE(noCpu.ok());
    ASSERT_EQ(noCpu.error().message(),
              "host override of '" + neg + "': architecture 'hand' has no fallback CPU");
}

// IOS's concurrent execution on two cores: the Relu and the Neg of one input
// are one stage, a kernel on each core. IOS's cost: together 1000 + 50 and
// 4 KiB in, 8 KiB out at 1 byte/ns (12288) against two stages of 8192
// each. The launches take the control unit in turn (0-1000, 1000-2000);
// the one DDR channel serves the transfers in turn: kernel 1 loads
// 1000-5196, 5196-6230, computes 1024 ops at 4 per cycle on its one core
// 6230-6486, stores 6486-7520, then waits for kernel 2's load (5196-9392)
// to store 9392-13588 and sync 13588-13638. Kernel 2 moves its input on
// 9392-10426, computes on core 1 10426-10682, stores 10682-11716 and, after
// kernel 1's store, 13588-17784; sync 17784-17834. In sequence (tvm: a
// kernel for each op on both cores) the run takes 2 x (11766 - 128).
TEST(TestSimCases, iosRunsAStageOnDisjointCores) {
    using K = kernel::TaskKind;
    sim::Evaluation ios = run(twoBranches(), "ios", 2);
    ASSERT_EQ(ios.program.kernels.size(), size_t{2});
    ASSERT_EQ(ios.program.kernels[0].firstCore, 0);
    ASSERT_EQ(ios.program.kernels[0].cores, 1);
    ASSERT_EQ(ios.program.kernels[1].firstCore, 1);
    ASSERT_TRUE(ios.program.kernels[1].joinsStage);
    checkTimeline(ios, {{K::Launch, 0, 1000},
                        {K::Load, 1000, 5196},
                        {K::Load, 5196, 6230},
                        {K::Compute, 6230, 6486},
                        {K::Store, 6486, 7520},
                        {K::Store, 9392, 13588},
                        {K::Sync, 13588, 13638},
                        {K::Launch, 1000, 2000},
                        {K::Load, 5196, 9392},
                        {K::Load, 9392, 10426},
                        {K::Compute, 10426, 10682},
                        {K::Store, 10682, 11716},
                        {K::Store, 13588, 17784},
                        {K::Sync, 17784, 17834}});
    ASSERT_FUZZY_EQ(ios.sim.makespanNs, 17834.0);
    sim::Evaluation tvm = run(twoBranches(), "tvm", 2);
    ASSERT_EQ(tvm.program.kernels.size(), size_t{2});
    ASSERT_FUZZY_EQ(tvm.sim.makespanNs, 2 * (11766.0 - 128));
}

// Weights 8x4x3x3 f32 = 1152 B: DMA 100 + 1152, hoist 10 + 288. Input
// 1024 B: 100 + 1024, 10 + 256. 18432 MACs at 16/cycle = 1152. Output
// 2048 B: 10 + 512, 100 + 2048. In order (tvm) every step waits for the
// one before; across layers (graphturbo) the input DMA queues behind the
// weight DMA on the one DDR channel and the hoist runs beside it.
TEST(TestSimCases, oneConvPromotingItsWeights) {
    using K = kernel::TaskKind;
    checkTimeline(run(oneConv(), "tvm"), {{K::Launch, 0, 1000},
                                          {K::WeightDma, 1000, 2252},
                                          {K::WeightHoist, 2252, 2550},
                                          {K::Load, 2550, 3674},
                                          {K::Load, 3674, 3940},
                                          {K::Compute, 3940, 5092},
                                          {K::Store, 5092, 5614},
                                          {K::Store, 5614, 7762},
                                          {K::Sync, 7762, 7812}});
    checkTimeline(run(oneConv(), "graphturbo"), {{K::Launch, 0, 1000},
                                                 {K::WeightDma, 1000, 2252},
                                                 {K::WeightHoist, 2252, 2550},
                                                 {K::Load, 2252, 3376},
                                                 {K::Load, 3376, 3642},
                                                 {K::Compute, 3642, 4794},
                                                 {K::Store, 4794, 5316},
                                                 {K::Store, 5316, 7464},
                                                 {K::Sync, 7464, 7514}});
}

// Two convs in one sub-graph instance, two layers stitched through LB.
// The second weights (8x8x3x3 = 2304 B: DMA 100 + 2304, hoist 10 + 576;
// 36864 MACs = 2304) are promoted while the first layer computes when
// across-layer scheduling is on (§4.4), after it otherwise.
TEST(TestSimCases, secondLayerWeightsPromotedDuringFirstLayer) {
    using K = kernel::TaskKind;
    sim::Evaluation serial = run(twoConvs(), "gt-instances");
    ASSERT_EQ(serial.program.kernels.size(), size_t{1});
    ASSERT_EQ(serial.program.kernels[0].layers.size(), size_t{2});
    checkTimeline(serial, {{K::Launch, 0, 1000},
                           {K::WeightDma, 1000, 2252},
                           {K::WeightHoist, 2252, 2550},
                           {K::Load, 2550, 3674},
                           {K::Load, 3674, 3940},
                           {K::Compute, 3940, 5092},
                           {K::WeightDma, 5092, 7496},
                           {K::WeightHoist, 7496, 8082},
                           {K::Compute, 8082, 10386},
                           {K::Store, 10386, 10908},
                           {K::Store, 10908, 13056},
                           {K::Sync, 13056, 13106}});
    checkTimeline(run(twoConvs(), "graphturbo"), {{K::Launch, 0, 1000},
                                                  {K::WeightDma, 1000, 2252},
                                                  {K::WeightHoist, 2252, 2550},
                                                  {K::Load, 2252, 3376},
                                                  {K::Load, 3376, 3642},
                                                  {K::Compute, 3642, 4794},
                                                  {K::WeightDma, 3376, 5780},
                                                  {K::WeightHoist, 5780, 6366},
                                                  {K::Compute, 6366, 8670},
                                                  {K::Store, 8670, 9192},
                                                  {K::Store, 9192, 11340},
                                                  {K::Sync, 11340, 11390}});
}

// A weight found in the GB weight cache is hoisted from the GB: the
// second kernel issues no weight DMA, and its hoist of the 1024 B weight
// takes GB->LB 10 + 1024 / 4 = 266 ns (from DDR it would cross the DDR
// channel again: 100 + 1024 first).
TEST(TestSimCases, cachedWeightIsHoistedFromTheGb) {
    using K = kernel::TaskKind;
    sim::Evaluation ev = run(sharedWeight(), "tvm");
    ASSERT_EQ(ev.program.kernels.size(), size_t{2});
    std::vector<kernel::TaskId> hoists;
    int dmas = 0;
    for (kernel::TaskId i : ev.tasks.tasks.ids()) {
        const kernel::Task& t = ev.tasks.tasks[i];
        dmas += t.kind == K::WeightDma ? 1 : 0;
        if (t.kind == K::WeightHoist)
            hoists.push_back(i);
    }
    ASSERT_EQ(dmas, 1);
    ASSERT_EQ(hoists.size(), size_t{2});
    for (kernel::TaskId i : hoists) {
        ASSERT_TRUE(ev.tasks.tasks[i].from == arch::Memory::GB);
        ASSERT_EQ(ev.tasks.tasks[i].bytes, int64_t{1024});
        ASSERT_FUZZY_EQ(ev.sim.events[i].end - ev.sim.events[i].start, 266.0);
    }
}

// The GB weight cache holds at each task what the activations leave there
// (docs/simulator.md). tvm runs x [1, 16] times one 1024 B weight three
// times, three kernels; the cache's room per task decides the DMAs, each
// DDR->GB 100 + 1024 = 1124 ns. Room everywhere: one DMA. No room at the
// middle task: the weight is dropped there, streamed (read whole: 1024 B),
// and fetched again for the third: three. 2048 B at the middle: one.
TEST(TestSimCases, weightCacheFollowsTheGbRoomTaskByTask) {
    auto dmas = [](std::vector<int64_t> room) {
        arch::Arch a = handArch();
        sim::Evaluation ev = run(threeUsesOfOneWeight(), "tvm");
        SC_ASSERT(ev.program.taskCount == 3, "three tasks");
        ev.program.weightCacheBytes = std::move(room);
        kernel::TaskGraph tasks = kernel::buildStreams(a, ev.program);
        auto result = sim::simulate(a, ev.program, tasks);
        SC_ASSERT(result.ok(), "the hand case simulates");
        int count = 0;
        for (kernel::TaskId i : tasks.tasks.ids())
            if (tasks.tasks[i].kind == kernel::TaskKind::WeightDma) {
                EXPECT_EQ(tasks.tasks[i].bytes, int64_t{1024});
                EXPECT_NEAR(result->events[i].end - result->events[i].start, 1124.0, 1e-6);
                ++count;
            }
        return count;
    };
    ASSERT_EQ(dmas({4096, 4096, 4096}), 1);
    ASSERT_EQ(dmas({4096, 0, 4096}), 3);
    ASSERT_EQ(dmas({4096, 2048, 4096}), 1);
    // The room the program itself finds: tvm's activations are in DDR.
    ASSERT_EQ(run(threeUsesOfOneWeight(), "tvm").program.weightCacheBytes,
              (std::vector<int64_t>{16 << 20, 16 << 20, 16 << 20}));
}

// A gather's table is fetched for the rows gathered, never whole, though
// it would fit the GB weight cache (the rows depend on run-time indices):
// 4 rows x 16 x 4 B = 256 B, DDR->GB 100 + 256 = 356 ns (the whole
// 4096 B table took 4196); hoisted GB->LB 10 + 64 = 74 ns.
TEST(TestSimCases, gatheredTableStreamsItsRows) {
    using K = kernel::TaskKind;
    for (const char* strategy : {"tvm", "graphturbo"}) {
        sim::Evaluation ev = run(gatheredTable(), strategy);
        int weightTasks = 0;
        for (kernel::TaskId i : ev.tasks.tasks.ids()) {
            const kernel::Task& t = ev.tasks.tasks[i];
            const sim::Event& e = ev.sim.events[i];
            if (t.kind == K::WeightDma) {
                ASSERT_EQ(t.bytes, int64_t{256});
                ASSERT_FUZZY_EQ(e.end - e.start, 356.0);
                ++weightTasks;
            } else if (t.kind == K::WeightHoist) {
                ASSERT_EQ(t.bytes, int64_t{256});
                ASSERT_FUZZY_EQ(e.end - e.start, 74.0);
                ++weightTasks;
            }
        }
        ASSERT_EQ(weightTasks, 2);
    }
}

// An instance computes only the ops whose output it needs: split in two
// on the Concat's axis, instance 1 computes the Relu and instance 2 the
// Neg, and each loads x once (4096 B: DDR->GB 4196 ns, GB->LB
// 1034 ns). Computing both, each instance loaded x twice.
TEST(TestSimCases, instanceSkipsOpsOutsideItsSlice) {
    ir::Graph graph = concatOfTwoBranches();
    schedule::ScheduleOptions options;
    options.overrides.splits.push_back({"Concat_2", 1, 2});
    auto ev = sim::evaluate(graph, handArch(), *sim::findStrategy("graphturbo"), {}, options);
    ASSERT_TRUE(ev.ok()) << (ev.ok() ? "" : ev.error().message().c_str());
    ASSERT_EQ(ev->program.kernels.size(), size_t{2});
    std::vector<std::string> branches;
    for (const kernel::Kernel& k : ev->program.kernels) {
        int64_t loaded = 0;
        for (const kernel::Layer& l : k.layers) {
            for (const kernel::OpWork& w : l.ops)
                if (graph.op(w.op).type != "Concat")
                    branches.push_back(graph.op(w.op).type);
            for (const kernel::Operand& in : l.inputs)
                loaded += in.buffer == kernel::kNoBuffer ? in.bytes : 0;
        }
        ASSERT_EQ(loaded, int64_t{4096});
    }
    std::sort(branches.begin(), branches.end());
    ASSERT_EQ(branches, (std::vector<std::string>{"Neg", "Relu"}));
    ASSERT_TRUE(sim::validateTimeline(ev->tasks, ev->sim).ok());
}

// Instances of one group placed one after the other share a launch
// (docs/simulator.md): split in two, Relu then Neg on [1, 1024] runs two
// instances of 2048 B in and out, each DDR->GB 100 + 2048, GB->LB
// 10 + 512, 2 x 512 ops at 4/cycle = 256, the same back, sync 50. The
// second starts at the first's sync with no launch: 6646 + 5646 = 12292
// ns, where a launch of its own took 1000 more.
TEST(TestSimCases, instancesOfAGroupShareALaunch) {
    using K = kernel::TaskKind;
    schedule::ScheduleOptions options;
    options.overrides.splits.push_back({"Neg_1", 1, 2});
    auto ev =
        sim::evaluate(twoElementwise(), handArch(), *sim::findStrategy("graphturbo"), {}, options);
    ASSERT_TRUE(ev.ok()) << (ev.ok() ? "" : ev.error().message().c_str());
    ASSERT_EQ(ev->program.kernels.size(), size_t{2});
    ASSERT_TRUE(!ev->program.kernels[0].continuesLaunch);
    ASSERT_TRUE(ev->program.kernels[1].continuesLaunch);
    checkTimeline(*ev, {{K::Launch, 0, 1000},
                        {K::Load, 1000, 3148},
                        {K::Load, 3148, 3670},
                        {K::Compute, 3670, 3926},
                        {K::Store, 3926, 4448},
                        {K::Store, 4448, 6596},
                        {K::Sync, 6596, 6646},
                        {K::Launch, 6646, 6646},
                        {K::Load, 6646, 8794},
                        {K::Load, 8794, 9316},
                        {K::Compute, 9316, 9572},
                        {K::Store, 9572, 10094},
                        {K::Store, 10094, 12242},
                        {K::Sync, 12242, 12292}});
    // Launched apart, the second instance pays its launch.
    ev->program.kernels[1].continuesLaunch = false;
    kernel::TaskGraph apart = kernel::buildStreams(handArch(), ev->program);
    auto result = sim::simulate(handArch(), ev->program, apart);
    ASSERT_TRUE(result.ok());
    ASSERT_FUZZY_EQ(result->makespanNs, 13292.0);
}

// A shared launch lets the next instance's weights be promoted while the
// instance before it computes, as a kernel's later layers are (§4.4), once
// that instance has loaded its inputs (DMAs issue in program order).
// [2, 128, 16] x [16, 1024] runs as two one-batch instances, each
// double-buffered in 2 tiles; the 64 KB weight, in the GB cache after the
// first fetch, is hoisted for the second (10 + 65536 / 4 = 16394 ns) from
// the end of the first's last load: the first's own hoist holds the one
// GB->LB channel to 1000 + 100 + 65536 + 16394 = 83030, then its two chunks
// of 4096 B take 10 + 1024 each, to 85098, well before its sync. Launched
// apart, the second instance would pay its launch (1000) and the part of
// that hoist its first chunk's DDR->GB hop (100 + 4096) hides not (16394 -
// 4196), and the rest follows it: it ends 13198 ns later.
TEST(TestSimCases, sharedLaunchPromotesTheNextInstancesWeightsEarly) {
    using K = kernel::TaskKind;
    auto ev =
        sim::evaluate(batchedMatmul(128, 1024), handArch(), *sim::findStrategy("graphturbo"), {});
    ASSERT_TRUE(ev.ok());
    ASSERT_EQ(ev->program.kernels.size(), size_t{2});
    ASSERT_TRUE(ev->program.kernels[1].continuesLaunch);
    double firstSync = 0, secondHoist = 0;
    for (kernel::TaskId i : ev->tasks.tasks.ids()) {
        const kernel::Task& t = ev->tasks.tasks[i];
        if (t.kind == K::Sync && t.kernel == 0)
            firstSync = ev->sim.events[i].start;
        if (t.kind == K::WeightHoist && t.kernel == 1) {
            secondHoist = ev->sim.events[i].start;
            ASSERT_FUZZY_EQ(ev->sim.events[i].end - ev->sim.events[i].start, 16394.0);
        }
    }
    ASSERT_FUZZY_EQ(secondHoist, 85098.0);
    ASSERT_TRUE(secondHoist < firstSync);
    ev->program.kernels[1].continuesLaunch = false;
    kernel::TaskGraph apart = kernel::buildStreams(handArch(), ev->program);
    auto result = sim::simulate(handArch(), ev->program, apart);
    ASSERT_TRUE(result.ok());
    ASSERT_FUZZY_EQ(result->makespanNs - ev->sim.makespanNs, 1000.0 + 16394.0 - 4196.0);
}

// Precision (docs/simulator.md): oneConv's 18432 MACs run at the matrix
// unit's rate for the dtype (16, 64, 32 per cycle: 1152, 288, 576 ns);
// its 8x4x3x3 weights are 1152 B in f32, 576 B in f16 and bf16; the
// 1x4x8x8 input it loads 1024 B or 512 B, after a Cast kernel from the f32
// graph input (4 x 8 x 8 = 256 conversions at 8 per cycle: 32 ns).
// The cores of a kernel take its layer's tiles in turn (streams.cpp). On
// two cores [1, 1024] is cut into 2 tiles of 512: 2 x 1024 ops at
// 4/cycle = 512 on one core, 256 on two. [1, 3, 4] is bound to the two
// cores along its last dim, but only the two outer dims are tiled: of the
// counts 1 and 3 (keeping 1 and 1.5 cores busy) 3 is chosen, and one core
// takes 2 of the 3 tiles: 2 x 12 ops / 4 = 6 on one core, 6 x 2 / 3 = 4
// on two (not 6 / 2).
TEST(TestSimCases, coresTakeTilesInTurn) {
    for (const char* strategy : {"tvm", "graphturbo"}) {
        sim::Evaluation even = run(elementwiseOf({1, 1024}), strategy, 2);
        ASSERT_EQ(even.program.kernels.size(), size_t{1});
        ASSERT_EQ(even.program.kernels[0].cores, int64_t{2});
        ASSERT_EQ(even.program.kernels[0].layers[0].tileCount, int64_t{2});
        ASSERT_FUZZY_EQ(computeNs(even), 256.0);
        sim::Evaluation uneven = run(elementwiseOf({1, 3, 4}), strategy, 2);
        ASSERT_EQ(uneven.program.kernels[0].cores, int64_t{2});
        ASSERT_EQ(uneven.program.kernels[0].layers[0].tileCount, int64_t{3});
        ASSERT_FUZZY_EQ(computeNs(uneven), 4.0);
        ASSERT_FUZZY_EQ(computeNs(run(elementwiseOf({1, 3, 4}), strategy, 1)), 6.0);
    }
}

// A layer is charged by the tiles its code runs (kernel/tile_rule.h).
// Relu [4, 2] then Transpose to [2, 4] is one layer, anchored on the
// Transpose, whose loop 0 reads the Relu's dim 1: a tile of either outer
// loop would need the Relu's other tiles, so the layer is one tile and
// runs on one of the two cores: 8 + 8 ops at 4/cycle = 4 ns, not the
// 2 ns of two tiles. Relu then Neg on [2, 4] keeps its 2 tiles (2 ns).
TEST(TestSimCases, layersReadingAcrossTilesRunAsOne) {
    ir::Graph across;
    {
        Builder b(across);
        transpose(b, unary(b, "Relu", b.input({4, 2})), {1, 0});
        b.finish();
    }
    for (const char* strategy : {"tvm", "graphturbo"}) {
        sim::Evaluation one = run(across, strategy, 2);
        ASSERT_EQ(one.program.kernels.size(), size_t{1});
        ASSERT_EQ(one.program.kernels[0].layers.size(), size_t{1});
        ASSERT_EQ(one.program.kernels[0].layers[0].tileCount, int64_t{1});
        ASSERT_FUZZY_EQ(computeNs(one), 4.0);
        sim::Evaluation two = run(elementwiseOf({2, 4}), strategy, 2);
        ASSERT_EQ(two.program.kernels[0].layers[0].tileCount, int64_t{2});
        ASSERT_FUZZY_EQ(computeNs(two), 2.0);
    }
}

// Weights are hoisted as the code promotes them (plan.h, hoistBytes), by
// the tiles, not by the binding. On two cores a conv of x [2, 4, 8, 8]
// with 8 3x3 filters (8x4x3x3 f32 = 1152 B) is bound by images, but
// tiled into 2 tiles of 4 output channels, which the filters follow:
// each core hoists its 576 B, 1152 B in all, 10 + 1152 / 4 = 298 ns (by
// the binding both cores took all: 2304 B, 586 ns). x [2, 16] times
// W [16, 1] (64 B) is tiled into its 2 rows, which W does not follow:
// both cores hoist all of it, 128 B, 10 + 32 = 42 ns. On one core
// x [1, 16] times W [16, 16] is one tile: 1024 B, 266 ns.
TEST(TestSimCases, weightsHoistedAsTheCodePromotesThem) {
    using Hoists = std::vector<std::pair<int64_t, double>>;
    ir::Graph images;
    {
        Builder b(images);
        conv(b, b.input({2, 4, 8, 8}), 8, 3, 1, 1, 1, false);
        b.finish();
    }
    for (const char* strategy : {"tvm", "graphturbo"}) {
        sim::Evaluation byChannels = run(images, strategy, 2);
        ASSERT_EQ(byChannels.program.kernels[0].layers[0].tileCount, int64_t{2});
        ASSERT_EQ(hoistsOf(byChannels), (Hoists{{1152, 298.0}}));
        sim::Evaluation byRows = run(matmulBy(2, 1), strategy, 2);
        ASSERT_EQ(byRows.program.kernels[0].layers[0].tileCount, int64_t{2});
        ASSERT_EQ(hoistsOf(byRows), (Hoists{{128, 42.0}}));
        ASSERT_EQ(hoistsOf(run(matmulBy(1, 16), strategy, 1)), (Hoists{{1024, 266.0}}));
    }
}

// A weight that no tile cuts stays in a core across its tiles only when
// it fits what the LB keeps for weights (its reserve, 64 KB here);
// larger, every tile reads it again (WeightUse::streamed). 2x64x16 times
// 16x2048 f32: the 1 MB output overflows the LB's 960 KB for
// activations; the outer two loops (batch, rows) are tiled, and the
// layer double-buffers (its stores to DDR outweigh the stream): 4 tiles
// of 32 rows (two tiles' buffers fit), and the 128 KB weight, which
// follows neither loop, streams once per tile with the tiles' loads: 4
// hoists of 131072 B, 10 + 32768 ns each. At 16x1024 (64 KB, 4 tiles of
// 64 rows) it fits the reserve and is hoisted once before the first tile,
// 65536 B in 16394 ns.
// (graphturbo splits these graphs into two one-batch instances, each of
// which keeps or streams its weight the same way.)
TEST(TestSimCases, weightsLargerThanTheReserveStreamPerTile) {
    using Hoists = std::vector<std::pair<int64_t, double>>;
    for (const char* strategy : {"tvm", "astitch"}) {
        sim::Evaluation wide = run(batchedMatmul(64, 2048), strategy, 1);
        const kernel::Layer& layer = wide.program.kernels[0].layers[0];
        ASSERT_EQ(layer.tileCount, int64_t{4});
        ASSERT_TRUE(layer.doubleBuffered);
        ASSERT_EQ(layer.weights.size(), size_t{1});
        ASSERT_TRUE(layer.weights[0].streamed);
        ASSERT_EQ(hoistsOf(wide), (Hoists(4, {131072, 32778.0})));
        sim::Evaluation fits = run(batchedMatmul(128, 1024), strategy, 1);
        ASSERT_EQ(fits.program.kernels[0].layers[0].tileCount, int64_t{4});
        ASSERT_TRUE(!fits.program.kernels[0].layers[0].weights[0].streamed);
        ASSERT_EQ(hoistsOf(fits), (Hoists{{65536, 16394.0}}));
    }
}

// Latency hiding inside a layer (layer_tiles.cpp, stream_layer.cpp), for
// every strategy. Relu then Neg of x [1, 1024] on an LB of 8 KiB with a
// 1 KiB reserve: 7168 B for tiles. The layer moves 12288 B (x, the Relu's
// and the Neg's outputs), so one tile at a time takes 2 tiles of 512; two
// tiles' buffers fit at 256 (4 tiles of 3072 B: 6144 B). The planner's
// estimate: loads 100 + 4096 + 10 + 1024 = 5230 ns (DDR->GB at 1 B/ns
// after 100, GB->LB at 4 after 10), compute 512, stores 5230: serial
// 10972. Over 4 chunks each chunk's load and store is 1390 ns (5560 in
// all) and the DDR path, one channel, carries 8192 + 8 x 100 = 8992:
// double-buffered (5560 + 512 + 5560) / 4 + 8992 * 3 / 4 = 9652, and it
// is chosen. Each chunk moves 1024 B per hop: a DDR hop holds
// the one DDR channel 100 + 1024 ns, a GB hop 10 + 256, a compute takes
// 512 / 4 = 128. Chunk c's load follows chunk c-1's on each hop, its
// compute its load, its store its compute; the DDR channel serves in turn
// (first come, first served) and never idles from the launch on: eight
// hops of 1124 ns, 1000 to 9992, then the sync. One tile at a time it took
// 12022 ns (chainOfTwoElementwiseOps: the same layer in 2 tiles, serial).
TEST(TestSimCases, doubleBufferedTilesOverlapLoadsComputeAndStores) {
    using K = kernel::TaskKind;
    std::vector<Expect> expected = {
        {K::Launch, 0, 1000},     {K::Load, 1000, 2124},  {K::Load, 2124, 2390},
        {K::Compute, 2390, 2518}, {K::Store, 2518, 2784}, {K::Store, 3248, 4372}, // chunk 0
        {K::Load, 2124, 3248},    {K::Load, 3248, 3514},  {K::Compute, 3514, 3642},
        {K::Store, 3642, 3908},   {K::Store, 5496, 6620}, // chunk 1
        {K::Load, 4372, 5496},    {K::Load, 5496, 5762},  {K::Compute, 5762, 5890},
        {K::Store, 5890, 6156},   {K::Store, 7744, 8868}, // chunk 2
        {K::Load, 6620, 7744},    {K::Load, 7744, 8010},  {K::Compute, 8010, 8138},
        {K::Store, 8138, 8404},   {K::Store, 8868, 9992}, // chunk 3
        {K::Sync, 9992, 10042}};
    arch::Arch small = smallLbArch(8192, 1024);
    for (const char* strategy : {"tvm", "astitch", "graphturbo"}) {
        sim::Evaluation ev = runOn(small, twoElementwise(), strategy);
        ASSERT_EQ(ev.program.kernels.size(), size_t{1});
        const kernel::Layer& layer = ev.program.kernels[0].layers[0];
        ASSERT_TRUE(layer.doubleBuffered);
        ASSERT_EQ(layer.tileCount, int64_t{4});
        checkTimeline(ev, expected);
        ASSERT_FUZZY_EQ(ev.sim.makespanNs, 10042.0);
    }
}

// Double buffering is chosen only where it is faster, and only where a core
// has a second tile to overlap. x [2, 8, 256] times a 256 x 256 f32 weight
// (256 KiB, over the 1 KiB reserve: streamed per tile) on a 64 KiB LB: the
// layer's 32 KiB fit one tile; two tiles' buffers fit at 2 tiles of one
// batch, which stream the weight twice. Serial: loads 100 + 16384 + 10 +
// 4096, the stream 10 + 262144 / 4, 2*8*256*256 MACs / 16 = 65536, stores
// 20590 like the loads: 172262 ns. Double-buffered in 2 chunks: loads
// 20480 + 2 x 110 and the stream 131072 + 2 x 10 (151792), stores 20700,
// the busiest path GB->LB 139264 + 6 x 10 / its 8 channels:
// (151792 + 65536 + 20700) / 2 + 139271.5 / 2 = 188650, slower, so one
// tile at a time. Relu then Neg of
// x [1, 1024] on two cores with a 1 MiB LB fits in one tile per core: no
// second tile, no pipeline (coresTakeTilesInTurn has its timeline).
TEST(TestSimCases, doubleBufferingOnlyWhereItIsFaster) {
    ir::Graph fewRows;
    {
        Builder b(fewRows);
        matmul(b, b.input({2, 8, 256}), b.weight({256, 256}));
        b.finish();
    }
    arch::Arch lb64 = smallLbArch(65536, 1024);
    for (const char* strategy : {"tvm", "astitch"}) {
        sim::Evaluation streamed = runOn(lb64, fewRows, strategy);
        const kernel::Layer& layer = streamed.program.kernels[0].layers[0];
        ASSERT_TRUE(layer.weights[0].streamed);
        ASSERT_TRUE(!layer.doubleBuffered);
        ASSERT_EQ(layer.tileCount, int64_t{1});
        ASSERT_EQ(layer.hoistBytes, int64_t{262144});
        sim::Evaluation onePerCore = run(elementwiseOf({1, 1024}), strategy, 2);
        ASSERT_EQ(onePerCore.program.kernels[0].layers[0].tileCount, int64_t{2});
        ASSERT_TRUE(!onePerCore.program.kernels[0].layers[0].doubleBuffered);
    }
}

// An integer contraction runs at its operands' rate (decisions.md): a
// [64, 16] u8 by [16, 32] i8 MatMulInteger is 32,768 MACs, 512 ns at a matrix
// unit of 64 i8 MACs per cycle. Its int32 output has no rate on the unit, so
// rated by its output it would take the slowest listed rate, f32's 16: the
// 2,048 ns that the same MatMul takes in f32.
TEST(TestSimCases, integerContractionsRunAtTheirOperandsRate) {
    arch::Arch a = handArch();
    a.cluster.coreGroups[0].units[1].opsPerCycle[ir::DType::Int8] = 64;
    ir::Graph g;
    test::graphops::Builder b(g);
    ir::TensorId x = b.input({64, 16});
    ir::TensorId w = b.weight({16, 32});
    ir::TensorId y = b.emit1("MatMulInteger", {x, w}, {64, 32});
    b.finish();
    g.mutableTensor(x).dtype = ir::DType::UInt8;
    g.mutableTensor(w).dtype = ir::DType::Int8;
    g.mutableTensor(y).dtype = ir::DType::Int32;
    ASSERT_FUZZY_EQ(computeNs(runOn(a, g, "tvm")), 512.0);
    ASSERT_FUZZY_EQ(computeNs(runOn(a, matmulBy(64, 32), "tvm")), 2048.0);
}

struct PrecisionChangesBytesAndRatesRow {
    std::string rowLabel;
    int dtype;
    double convNs;
    int64_t weightBytes;
    int64_t inputBytes;
};

std::vector<PrecisionChangesBytesAndRatesRow> precisionChangesBytesAndRatesRows() {
    std::vector<PrecisionChangesBytesAndRatesRow> rows;
    rows.push_back(
        {"f32", static_cast<int>(ir::DType::Float32), 1152.0, int64_t{1152}, int64_t{1024}});
    rows.push_back(
        {"f16", static_cast<int>(ir::DType::Float16), 288.0, int64_t{576}, int64_t{512}});
    rows.push_back(
        {"bf16", static_cast<int>(ir::DType::BFloat16), 576.0, int64_t{576}, int64_t{512}});
    return rows;
}

class PrecisionChangesBytesAndRatesRows
    : public ::testing::TestWithParam<PrecisionChangesBytesAndRatesRow> {};

TEST_P(PrecisionChangesBytesAndRatesRows, precisionChangesBytesAndRates) {
    int dtype = GetParam().dtype;
    double convNs = GetParam().convNs;
    int64_t weightBytes = GetParam().weightBytes;
    int64_t inputBytes = GetParam().inputBytes;
    auto precision = static_cast<ir::DType>(dtype);
    auto graph = ir::convertPrecision(oneConv(), precision);
    ASSERT_TRUE(graph.ok());
    sim::Evaluation ev = run(*graph, "tvm");
    const kernel::Layer* conv = nullptr;
    const kernel::Layer* cast = nullptr;
    for (const kernel::Kernel& k : ev.program.kernels)
        for (const kernel::Layer& l : k.layers)
            (graph->op(l.anchor).type == "Conv" ? conv : cast) = &l;
    ASSERT_TRUE(conv != nullptr);
    ASSERT_FUZZY_EQ(conv->ops.front().unitNs, convNs);
    ASSERT_EQ(conv->weightBytes, int64_t{weightBytes});
    int64_t loaded = 0;
    for (const kernel::Operand& in : conv->inputs)
        loaded += in.bytes;
    ASSERT_EQ(loaded, int64_t{inputBytes});
    if (precision != ir::DType::Float32) {
        ASSERT_TRUE(cast != nullptr);
        ASSERT_FUZZY_EQ(cast->ops.front().unitNs, 32.0);
    }
    ASSERT_FUZZY_EQ(ev.report.attribution.run.at(sim::Cause::ComputeMatrix), convNs);
}

INSTANTIATE_TEST_SUITE_P(TestSimCases, PrecisionChangesBytesAndRatesRows,
                         ::testing::ValuesIn(precisionChangesBytesAndRatesRows()), test::RowName{});

// Attribution of oneConv's timelines (docs/simulator.md, Attribution).
// graphturbo: launch 0-1000; weight DMA alone 1000-2252; hoist and input
// load together 2252-2550 (298 ns, half to each); input loads alone
// 2550-3642; compute 3642-4794; stores 4794-7464; sync 7464-7514. tvm runs
// the same steps one after the other.
struct AttributionOfOneConvRow {
    std::string rowLabel;
    std::string strategy;
    double weights;
    double loads;
    double total;
};

std::vector<AttributionOfOneConvRow> attributionOfOneConvRows() {
    std::vector<AttributionOfOneConvRow> rows;
    rows.push_back({"graphturbo", std::string("graphturbo"), 1401.0, 1241.0, 7514.0});
    rows.push_back({"tvm", std::string("tvm"), 1550.0, 1390.0, 7812.0});
    return rows;
}

class AttributionOfOneConvRows : public ::testing::TestWithParam<AttributionOfOneConvRow> {};

TEST_P(AttributionOfOneConvRows, attributionOfOneConv) {
    std::string strategy = GetParam().strategy;
    double weights = GetParam().weights;
    double loads = GetParam().loads;
    double total = GetParam().total;
    using sim::Cause;
    sim::Evaluation ev = run(oneConv(), strategy.c_str());
    const sim::Breakdown& b = ev.report.attribution.run;
    ASSERT_FUZZY_EQ(b.totalNs, total);
    ASSERT_FUZZY_EQ(b.at(Cause::Launch), 1000.0);
    ASSERT_FUZZY_EQ(b.at(Cause::WeightLoad), weights);
    ASSERT_FUZZY_EQ(b.at(Cause::ActivationLoad), loads);
    ASSERT_FUZZY_EQ(b.at(Cause::ComputeMatrix), 1152.0);
    ASSERT_FUZZY_EQ(b.at(Cause::ActivationStore), 2670.0);
    ASSERT_FUZZY_EQ(b.at(Cause::Sync), 50.0);
    ASSERT_FUZZY_EQ(b.at(Cause::Idle), 0.0);
    ASSERT_FUZZY_EQ(b.dmaWaitNs(), weights + loads + 2670.0);
    // In progress: the weights 1000-2550, the input 2252-3642 (graphturbo).
    ASSERT_FUZZY_EQ(b.activeNs[static_cast<size_t>(Cause::WeightLoad)], 1550.0);
    ASSERT_FUZZY_EQ(b.activeNs[static_cast<size_t>(Cause::ActivationLoad)], 1390.0);
    // Bytes per hop: weights 1152 DMA + 1152 hoist, input 1024 twice, output 2048 twice.
    ASSERT_EQ(b.bytes[static_cast<size_t>(Cause::WeightLoad)], int64_t{2304});
    ASSERT_EQ(b.bytes[static_cast<size_t>(Cause::ActivationLoad)], int64_t{2048});
    ASSERT_EQ(b.bytes[static_cast<size_t>(Cause::ActivationStore)], int64_t{4096});
    ASSERT_EQ(ev.report.attribution.kernels.size(), size_t{1});
    ASSERT_FUZZY_EQ(ev.report.attribution.groups.front().breakdown.totalNs, total);
}

INSTANTIATE_TEST_SUITE_P(TestSimCases, AttributionOfOneConvRows,
                         ::testing::ValuesIn(attributionOfOneConvRows()), test::RowName{});
