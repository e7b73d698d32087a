// Property: the emitted kernels compute the same bits whatever the schedule.
// Seeded random graphs of every kind (chains, diamonds, branches, splits,
// attention blocks, mixes), their weights replaced by seeded values, are
// scheduled by tvm (one layer per kernel: no tiles across ops, no stitching,
// no halos) and by graphturbo and gt-instances on the tiny `teaching`
// architecture and on one with a quarter of its local buffer, where groups
// split into many instances with halos, and by ago, dla (a few op types
// on the accelerator, the rest on the host CPU) or ios; each
// schedule's code plan must validate and its host kernels must give
// bit-identical outputs, as must graphturbo's on the small local buffer
// run as the in-process runner on one CPU runs it (hostThreads 1: each
// layer's tiles merged as far as a core's scratch allows). A wrong halo,
// tile, stitched buffer, promotion, merge or layer order changes some bits. The test command runs
// one seed per kind; scripts/test-every-row runs all three (test::everyRow).

#include "arch/presets.h"
#include "codegen/code_plan.h"
#include "codegen/host_run.h"
#include "coretestsupport.h"
#include "ir/const_tensor.h"
#include "random_graphs.h"
#include "sim/compare.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace stagecraft;

namespace {

/// Seeded weights: floats in [0.5, 1.5) (positive, so variances and divisors
/// stay valid), integers 0 or 1 (valid indices).
void seedWeights(ir::Graph& graph, uint64_t seed) {
    test::Rng rng(seed);
    for (ir::TensorId t : graph.tensorIds()) {
        ir::Tensor& tensor = graph.mutableTensor(t);
        if (!tensor.isConstant())
            continue;
        std::vector<std::byte> bytes(static_cast<size_t>(tensor.byteSize()));
        for (int64_t i = 0; i < tensor.elementCount(); ++i)
            if (ir::isFloatingPoint(tensor.dtype))
                ir::writeDouble(tensor.dtype, bytes, i, 0.5 + rng.uniform(0, 999) / 1000.0);
            else
                ir::writeInt64(tensor.dtype, bytes, i, rng.uniform(0, 1));
        tensor.data = ir::makeInlineWeight(std::move(bytes));
    }
}

/// Fails, naming the op, where a Conv weight the host stores in blocks of
/// output channels is read by a host tile that does not start at a whole
/// block, on any number of threads the runner may give its kernel: the
/// lowering loads each vector of channels from one block. (A Conv tiled by
/// 2 channels with a stitched output once kept its blocks; its host tiles
/// of 24 read channels 24-39 across two, and tvm's kernels erred alike.)
Status checkWholeBlocks(const ir::Graph& graph, codegen::CodePlan plan) {
    for (codegen::KernelCode& k : plan.kernels)
        for (const codegen::KernelCode::HostBlock& b : k.hostBlocks) {
            const ir::TensorId weight = plan.globals[static_cast<size_t>(b.slot)].tensor;
            for (int64_t threads = 1; threads <= k.cores && b.dim == 0; ++threads) {
                k.hostThreads = threads;
                for (const codegen::LayerCode& layer : k.layers) {
                    const codegen::LayerCode host = codegen::hostLayer(graph, layer, k);
                    for (const codegen::OpStep& step : host.ops) {
                        const ir::Op& op = graph.op(step.op);
                        if (op.inputs.size() < 2 || op.inputs[1] != weight)
                            continue;
                        bool whole = step.regions[0][1].lo % b.block == 0;
                        for (const codegen::TileLoop& t : host.tiles)
                            whole = whole &&
                                    (t.dim != 1 || (t.lo % b.block == 0 && t.tile % b.block == 0));
                        if (!whole)
                            return Error(op.name + " reads its blocked weight from tiles of " +
                                         "partial blocks on " + std::to_string(threads) +
                                         " threads");
                    }
                }
            }
        }
    return Status::success();
}

/// The outputs of \p graph scheduled by \p strategy on \p arch, its host
/// kernels' cores run by \p hostThreads threads (KernelCode::hostThreads;
/// 0: one per core).
Expected<codegen::TensorSet> runWith(const ir::Graph& graph, const arch::Arch& arch,
                                     const char* strategy, const codegen::TensorSet& inputs,
                                     int64_t hostThreads = 0) {
    schedule::ClusterPlan clusters;
    schedule::ScheduleOptions options;
    options.recordTrace = false;
    SC_ASSIGN_OR_RETURN(sim::Evaluation ev, sim::evaluate(graph, arch, *sim::findStrategy(strategy),
                                                          clusters, options));
    SC_ASSIGN_OR_RETURN(codegen::CodePlan plan, codegen::planCode(graph, ev.schedule, ev.program));
    SC_RETURN_IF_ERROR(codegen::validateCodePlan(graph, plan));
    SC_RETURN_IF_ERROR(checkWholeBlocks(graph, plan));
    for (codegen::KernelCode& k : plan.kernels)
        k.hostThreads = hostThreads;
    SC_ASSIGN_OR_RETURN(
        codegen::EmittedProgram program,
        codegen::emitProgram(graph, *ev.schedule.semantics, plan,
                             {codegen::Target::Host, 1, 0, false, test::processObjectCache()}));
    SC_ASSIGN_OR_RETURN(auto host, codegen::HostProgram::load(graph, plan, program));
    size_t instances = ev.schedule.instances.size();
    test::info("%s: %zu groups, %zu kernels", strategy, ev.schedule.groups.size(), instances);
    return host->run(inputs);
}

/// A row: a graph kind and a seed.
struct GraphRow {
    std::string rowLabel;
    test::GraphKind kind;
    uint64_t seed;
};

/// Seeds 1 to 3 of every kind with test::everyRow(); otherwise one seed per
/// kind, taken in turn so that the seeds (and with them ago, dla and ios,
/// chosen by seed) all run. The turn starts at seed 2: mix seed 2, whose
/// graphturbo schedules emit 128 and 171 distinct kernels (half the full
/// matrix's time under asan), stays in scripts/test-every-row.
std::vector<GraphRow> graphRows() {
    std::vector<GraphRow> rows;
    uint64_t turn = 1;
    for (test::GraphKind kind : test::graphKinds()) {
        for (uint64_t seed = 1; seed <= 3; ++seed)
            if (test::everyRow() || seed == turn % 3 + 1)
                rows.push_back({test::rowName("%s seed %llu", test::graphKindName(kind).data(),
                                              static_cast<unsigned long long>(seed)),
                                kind, seed});
        ++turn;
    }
    return rows;
}

} // namespace

class GraphRows : public ::testing::TestWithParam<GraphRow> {};

TEST_P(GraphRows, everyScheduleGivesTheSameBits) {
    test::GraphKind kind = GetParam().kind;
    uint64_t seed = GetParam().seed;
    ir::Graph graph = test::randomGraph(seed, {kind, 24});
    seedWeights(graph, seed);
    auto arch = arch::resolveArch("teaching");
    ASSERT_TRUE(arch.ok());
    auto seeded = codegen::seededInputs(graph, seed);
    ASSERT_TRUE(seeded.ok());
    const codegen::TensorSet& inputs = *seeded;
    auto reference = runWith(graph, *arch, "tvm", inputs);
    ASSERT_TRUE(reference.ok()) << (reference.ok() ? "" : reference.error().message());
    // A quarter of teaching's LB splits more groups into more instances.
    arch::Arch tiny = *arch;
    auto& lb = *tiny.cluster.coreGroups.front().localBuffer;
    lb.bytes /= 4;
    lb.weightReserveBytes /= 4;
    // The other papers' systems, one per row: AGO's sub-graphs with several
    // convolutions, DLA's parts with Softmax, pools and normalizations on
    // the host CPU, or IOS's stages of kernels on disjoint cores.
    arch::Arch partial = *arch;
    partial.fallbackCpu = arch::FallbackCpu{"host", 10};
    partial.supportedOps = std::vector<ir::OpKind>{
        ir::OpKind::Add, ir::OpKind::Conv, ir::OpKind::MatMul, ir::OpKind::Mul, ir::OpKind::Relu};
    auto other = seed % 3 == 0   ? std::pair{&*arch, "ago"}
                 : seed % 3 == 1 ? std::pair{&partial, "dla"}
                                 : std::pair{&*arch, "ios"};
    struct Run {
        const arch::Arch* arch;
        const char* strategy;
        int64_t hostThreads;
    };
    for (auto [a, strategy, threads] :
         {Run{&*arch, "graphturbo", 0}, Run{&*arch, "gt-instances", 0}, Run{&tiny, "graphturbo", 0},
          Run{&tiny, "graphturbo", 1}, Run{other.first, other.second, 0}}) {
        auto outputs = runWith(graph, *a, strategy, inputs, threads);
        ASSERT_TRUE(outputs.ok()) << (outputs.ok() ? "" : outputs.error().message());
        ASSERT_EQ(outputs->size(), reference->size());
        for (size_t i = 0; i < outputs->size(); ++i) {
            codegen::Difference d = codegen::compareTensors((*outputs)[i], (*reference)[i]);
            ASSERT_TRUE((*outputs)[i].data == (*reference)[i].data)
                << strategy << " (" << threads << " host threads): " << (*outputs)[i].name
                << " differs from tvm by " << d.maxAbsolute << " (element " << d.worstIndex << ")";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(TestCodegenSchedules, GraphRows, ::testing::ValuesIn(graphRows()),
                         test::RowName{});
