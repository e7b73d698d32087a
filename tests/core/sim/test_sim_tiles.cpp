// Hand-computed tiles and weights (docs/simulator.md): the GB weight cache,
// a gather's rows, how a layer's tiles are cut and dealt to the cores, how
// its weights are hoisted by them, and latency hiding inside a layer
// (double-buffered tiles), on the hand architecture of
// test_sim_cases.cpp (vector unit 4 ops/cycle, matrix unit 16 MACs/cycle;
// DDR->GB 1 byte/ns after 100 ns, GB->LB 4 bytes/ns after 10 ns, one
// channel each; launch 1000 ns, sync 50 ns), its LB made smaller where a
// layer must take several tiles.

#include "coretestsupport.h"
#include "hand_cases.h"
#include "sim/roofline.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test::handcases;

// A weight found in the GB weight cache is hoisted from the GB: the
// second kernel issues no weight DMA, and its hoist of the 1024 B weight
// takes GB->LB 10 + 1024 / 4 = 266 ns (from DDR it would cross the DDR
// channel again: 100 + 1024 first).
TEST(TestSimTiles, cachedWeightIsHoistedFromTheGb) {
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
TEST(TestSimTiles, weightCacheFollowsTheGbRoomTaskByTask) {
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
TEST(TestSimTiles, gatheredTableStreamsItsRows) {
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

// The cores of a kernel take its layer's tiles in turn (streams.cpp). On
// two cores [1, 1024] is cut into 2 tiles of 512: 2 x 1024 ops at
// 4/cycle = 512 on one core, 256 on two. [1, 3, 4] is bound to the two
// cores along its last dim, but only the two outer dims are tiled: of the
// counts 1 and 3 (keeping 1 and 1.5 cores busy) 3 is chosen, and one core
// takes 2 of the 3 tiles: 2 x 12 ops / 4 = 6 on one core, 6 x 2 / 3 = 4
// on two (not 6 / 2).
TEST(TestSimTiles, coresTakeTilesInTurn) {
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
TEST(TestSimTiles, layersReadingAcrossTilesRunAsOne) {
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
TEST(TestSimTiles, weightsHoistedAsTheCodePromotesThem) {
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

// A MatMul with a weight is tiled as a dense (dense_tiles.cpp): its
// flattened rows and its output features, the rows tile as large as fits,
// then the features tile. 2x64x16 times 16x2048 f32 on one core (the LB's
// 960 KB for tiles): a tile of r rows and f features holds the input's r
// rows, every K (64 r B), and its output (4 r f B). All 128 rows fit with
// f up to 1904: 1024, 2 tiles; the layer double-buffers (its stores to
// DDR outweigh the rest), and at half the LB f = 512: 4 tiles. The 128 KB
// weight follows the features: each tile hoists its 512 columns, 32768 B,
// 10 + 8192 ns, the weight read once in all (by batch and rows, as before
// the dense form, it streamed whole per tile: 4 x 131072 B). 2x128x16
// times 16x1024: 128 r + 4 r f at r = 256 fits f up to 928, 512, and at
// half the LB 256: 4 hoists of 16384 B, 10 + 4096 ns.
TEST(TestSimTiles, denseLayersTileRowsThenFeatures) {
    using Hoists = std::vector<std::pair<int64_t, double>>;
    for (const char* strategy : {"tvm", "astitch"}) {
        sim::Evaluation wide = run(batchedMatmul(64, 2048), strategy, 1);
        const kernel::Layer& layer = wide.program.kernels[0].layers[0];
        ASSERT_EQ(layer.tileCount, int64_t{4});
        ASSERT_TRUE(layer.doubleBuffered);
        ASSERT_EQ(layer.tiles.size(), size_t{3});
        ASSERT_EQ(layer.tiles[0].tile * layer.tiles[1].tile, int64_t{128});
        ASSERT_EQ(layer.tiles[2].tile, int64_t{512});
        ASSERT_TRUE(!layer.weights[0].streamed);
        ASSERT_EQ(hoistsOf(wide), (Hoists(4, {32768, 8202.0})));
        sim::Evaluation tall = run(batchedMatmul(128, 1024), strategy, 1);
        ASSERT_EQ(tall.program.kernels[0].layers[0].tiles[2].tile, int64_t{256});
        ASSERT_EQ(hoistsOf(tall), (Hoists(4, {16384, 4106.0})));
    }
}

// A weight that no tile cuts stays in a core across its tiles only when
// it fits what the LB keeps for weights (its reserve); larger, every tile
// reads it again (WeightUse::streamed). x [8, 1, 1024] times a [1024]
// scale on a 64 KiB LB with a 1 KiB reserve: x and the product, 64 KiB,
// overflow the 63 KiB for tiles; the outer two loops (8 and 1) are tiled,
// two tiles of 4 images one at a time, and the layer double-buffers 4 of
// 2 images. The 4 KiB scale follows neither loop and streams once per
// tile: 4 hoists of 4096 B, 10 + 1024 ns each.
TEST(TestSimTiles, weightsLargerThanTheReserveStreamPerTile) {
    using Hoists = std::vector<std::pair<int64_t, double>>;
    ir::Graph scaled;
    {
        Builder b(scaled);
        binary(b, "Mul", b.input({8, 1, 1024}), b.weight({1024}));
        b.finish();
    }
    for (const char* strategy : {"tvm", "astitch"}) {
        sim::Evaluation ev = runOn(smallLbArch(65536, 1024), scaled, strategy);
        const kernel::Layer& layer = ev.program.kernels[0].layers[0];
        ASSERT_EQ(layer.tileCount, int64_t{4});
        ASSERT_TRUE(layer.doubleBuffered);
        ASSERT_TRUE(layer.weights[0].streamed);
        ASSERT_EQ(hoistsOf(ev), (Hoists(4, {4096, 1034.0})));
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
TEST(TestSimTiles, doubleBufferedTilesOverlapLoadsComputeAndStores) {
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
// has a second tile to overlap. x [2, 4, 1024] times a 1024 x 1024 f32
// weight (4 MiB) on a 64 KiB LB with a 1 KiB reserve, as a dense: all 8
// rows (32 KiB of input) and 512 features (16 KiB of output) fit one
// tile, 2 tiles, each hoisting its 2 MiB half of the weight. At half the
// LB, 4 rows and 512 features: 4 tiles, the weight read twice. Serial:
// loads 100 + 32768 + 10 + 8192, the hoist 10 + 4194304 / 4, 2*4*1024*1024
// MACs / 16 = 524288, stores like the loads: 1655014 ns. Double-buffered
// in 4 chunks: loads 41400 and hoists 2097152 + 4 x 10, stores 41400, the
// busiest path GB->LB 2113656 (loads, hoists, stores; one channel):
// (2138592 + 524288 + 41400) / 4 + 2113656 x 3 / 4 = 2261312, slower, so
// one tile at a time. Relu then Neg of x [1, 1024] on two cores with a
// 1 MiB LB fits in one tile per core: no second tile, no pipeline
// (coresTakeTilesInTurn has its timeline).
TEST(TestSimTiles, doubleBufferingOnlyWhereItIsFaster) {
    ir::Graph heavy;
    {
        Builder b(heavy);
        matmul(b, b.input({2, 4, 1024}), b.weight({1024, 1024}));
        b.finish();
    }
    arch::Arch lb64 = smallLbArch(65536, 1024);
    for (const char* strategy : {"tvm", "astitch"}) {
        sim::Evaluation serial = runOn(lb64, heavy, strategy);
        const kernel::Layer& layer = serial.program.kernels[0].layers[0];
        ASSERT_TRUE(!layer.weights[0].streamed);
        ASSERT_TRUE(!layer.doubleBuffered);
        ASSERT_EQ(layer.tileCount, int64_t{2});
        ASSERT_EQ(layer.hoistBytes, int64_t{4194304});
        sim::Evaluation onePerCore = run(elementwiseOf({1, 1024}), strategy, 2);
        ASSERT_EQ(onePerCore.program.kernels[0].layers[0].tileCount, int64_t{2});
        ASSERT_TRUE(!onePerCore.program.kernels[0].layers[0].doubleBuffered);
    }
}

// The fill of the array (kernel/array_fill.cpp): the hand matrix unit as a
// 4 x 4 array. x [1, 16] times W [16, 2]: K = 16 fills the rows, the 2
// features half the columns: 32 MACs at 16 / 2 = 8 per cycle, 4 ns (2 ns
// at the peak). W [16, 6]: 6 features in 2 passes of 4 columns fill 6/8:
// 96 MACs / 12 = 8 ns (6 at the peak). The roofline keeps the peak.
TEST(TestSimTiles, contractionsRunAtTheShareOfTheArrayTheyFill) {
    arch::Arch a = handArch();
    a.cluster.coreGroups.front().units[1].arrayRows = 4;
    a.cluster.coreGroups.front().units[1].arrayCols = 4;
    for (const char* strategy : {"tvm", "graphturbo"}) {
        ASSERT_FUZZY_EQ(computeNs(run(matmulBy(1, 2), strategy)), 2.0);
        ASSERT_FUZZY_EQ(computeNs(runOn(a, matmulBy(1, 2), strategy)), 4.0);
        ASSERT_FUZZY_EQ(computeNs(runOn(a, matmulBy(1, 6), strategy)), 8.0);
    }
}

// The roofline at the array's fill (sim/roofline.h), with DDR made fast
// enough (1000 B/ns) that compute bounds: x [1024, 16] times W [16, 6] is
// 98304 MACs, at the peak of 16 per ns 6144 ns; the 4 x 4 array filled 6/8
// runs 12 per ns: 8192 ns. Without an array both are the peak's.
TEST(TestSimTiles, theRooflineAtTheFillCountsTheArraysShape) {
    arch::Arch a = handArch();
    a.paths[0].bandwidthGBps = 1000;
    ir::Graph g = matmulBy(1024, 6);
    schedule::ClusterPlan clusters;
    sim::Evaluation peak = runOn(a, g, "tvm");
    ASSERT_FUZZY_EQ(peak.report.rooflineUs, 6.144);
    ASSERT_FUZZY_EQ(sim::rooflineAtFillUs(g, a, *peak.schedule.semantics, clusters), 6.144);
    a.cluster.coreGroups.front().units[1].arrayRows = 4;
    a.cluster.coreGroups.front().units[1].arrayCols = 4;
    sim::Evaluation filled = runOn(a, g, "tvm");
    ASSERT_FUZZY_EQ(filled.report.rooflineUs, 6.144);
    ASSERT_FUZZY_EQ(sim::rooflineAtFillUs(g, a, *filled.schedule.semantics, clusters), 8.192);
}

// A GB that is a hardware cache (kernel/stream_cache.cpp): tvm keeps the
// output of x [1, 16] times W1 [16, 16] in DDR for the next MatMul. With a
// scratchpad GB it is stored LB->GB->DDR and loaded back DDR->GB->LB; with
// a cache of 16 MiB, which holds its 64 B, it is stored into the cache and
// read from it: no transfer of the activations crosses DDR.
TEST(TestSimTiles, aCacheGbHoldsWhatFitsIt) {
    ir::Graph chain;
    {
        Builder b(chain);
        matmul(b, matmul(b, b.input({1, 16}), b.weight({16, 16})), b.weight({16, 16}));
        b.finish();
    }
    auto ddrActivations = [&](const arch::Arch& a) {
        sim::Evaluation ev = runOn(a, chain, "tvm");
        int crossings = 0;
        for (const kernel::Task& t : ev.tasks.tasks)
            if ((t.kind == kernel::TaskKind::Load || t.kind == kernel::TaskKind::Store) &&
                (t.from == arch::Memory::DDR || t.to == arch::Memory::DDR))
                ++crossings;
        return crossings;
    };
    arch::Arch cached = handArch();
    cached.cluster.globalBuffer->cache = true;
    ASSERT_TRUE(ddrActivations(handArch()) > 0);
    ASSERT_EQ(ddrActivations(cached), 0);
}

// A store to lines a cache GB does not hold reads them from DRAM first
// (write-allocate, kernel/stream_cache.cpp), and a run starts with what the
// run before left. tvm stores both MatMuls' 64 B outputs (the second the
// graph's) through the cache: a 16 MiB cache held them since the run
// before, no read; a 32 B cache never holds them: each store reads its 64 B
// DDR->GB first, 100 + 64 / 1 = 164 ns, then the store LB->GB.
TEST(TestSimTiles, aStoreToLinesTheCacheDoesNotHoldReadsThemFirst) {
    ir::Graph chain;
    {
        Builder b(chain);
        matmul(b, matmul(b, b.input({1, 16}), b.weight({16, 16})), b.weight({16, 16}));
        b.finish();
    }
    auto allocations = [&](int64_t cacheBytes) {
        arch::Arch a = handArch();
        a.cluster.globalBuffer->cache = true;
        a.cluster.globalBuffer->bytes = cacheBytes;
        sim::Evaluation ev = runOn(a, chain, "tvm");
        std::vector<double> durations;
        for (kernel::TaskId i : ev.tasks.tasks.ids()) {
            const kernel::Task& t = ev.tasks.tasks[i];
            if (t.kind == kernel::TaskKind::Store && t.from == arch::Memory::DDR) {
                EXPECT_EQ(t.bytes, int64_t{64});
                EXPECT_TRUE(t.to == arch::Memory::GB);
                durations.push_back(ev.sim.events[i].end - ev.sim.events[i].start);
            }
        }
        return durations;
    };
    ASSERT_TRUE(allocations(16 << 20).empty());
    std::vector<double> small = allocations(32);
    ASSERT_EQ(small.size(), size_t{2});
    for (double ns : small) {
        ASSERT_FUZZY_EQ(ns, 164.0);
    }
}
