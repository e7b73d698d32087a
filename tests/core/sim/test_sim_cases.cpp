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
// [2, 128, 1024] times a [1024] scale runs as two one-batch instances; the
// 4 KB scale, kept whole in the reserve, is fetched once and hoisted by
// each (10 + 4096 / 4 = 1034 ns), the second's from the GB cache before
// the first instance's sync. Launched apart, the second instance pays at
// least its launch (1000 ns).
TEST(TestSimCases, sharedLaunchPromotesTheNextInstancesWeightsEarly) {
    using K = kernel::TaskKind;
    ir::Graph scaled;
    {
        Builder b(scaled);
        binary(b, "Mul", b.input({2, 128, 1024}), b.weight({1024}));
        b.finish();
    }
    auto ev = sim::evaluate(scaled, handArch(), *sim::findStrategy("graphturbo"), {});
    ASSERT_TRUE(ev.ok());
    ASSERT_EQ(ev->program.kernels.size(), size_t{2});
    ASSERT_TRUE(ev->program.kernels[1].continuesLaunch);
    double firstSync = 0, secondHoist = -1;
    for (kernel::TaskId i : ev->tasks.tasks.ids()) {
        const kernel::Task& t = ev->tasks.tasks[i];
        if (t.kind == K::Sync && t.kernel == 0)
            firstSync = ev->sim.events[i].start;
        if (t.kind == K::WeightHoist && t.kernel == 1) {
            if (secondHoist < 0)
                secondHoist = ev->sim.events[i].start;
            ASSERT_FUZZY_EQ(ev->sim.events[i].end - ev->sim.events[i].start, 1034.0);
        }
    }
    ASSERT_TRUE(secondHoist >= 0);
    ASSERT_TRUE(secondHoist < firstSync);
    ev->program.kernels[1].continuesLaunch = false;
    kernel::TaskGraph apart = kernel::buildStreams(handArch(), ev->program);
    auto result = sim::simulate(handArch(), ev->program, apart);
    ASSERT_TRUE(result.ok());
    ASSERT_TRUE(result->makespanNs - ev->sim.makespanNs >= 1000.0 - 1e-6);
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

// Precision (docs/simulator.md): oneConv's 18432 MACs run at the matrix
// unit's rate for the dtype (16, 64, 32 per cycle: 1152, 288, 576 ns);
// its 8x4x3x3 weights are 1152 B in f32, 576 B in f16 and bf16; the
// 1x4x8x8 input it loads 1024 B or 512 B, after a Cast kernel from the f32
// graph input (4 x 8 x 8 = 256 conversions at 8 per cycle: 32 ns).
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
