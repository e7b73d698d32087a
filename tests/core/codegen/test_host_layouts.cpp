// The host's layers and weight layouts (host_layer.cpp; docs/decisions.md,
// "Host tiles"): weights read along the row stored transposed or in blocks,
// padded rows where blocks do not fit a reader's tiles, Conv weights in
// blocks of channels, and tiles merged (the loop whose tiles read the most
// again first) with the scratch kept disjoint.

#include "code_plan_suite.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string_view>
#include <utility>

using namespace stagecraft;
using namespace stagecraft::test;

// The host stores a 2-D weight transposed when every reader reads its dim 0
// along the output's last loop (host_layer.cpp): resnet-reduced's fc (Gemm
// with transB), not the Conv weights; the kernels that read it list it.
TEST_F(TestCodePlan, hostTransposesWeightsReadAlongTheRow) {
    auto p = plan(zoo("resnet-reduced"), "stcp920", "graphturbo");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const ir::Graph& g = (*p)->graph;
    const codegen::CodePlan& code = (*p)->plan;
    std::set<int32_t> transposed;
    for (size_t slot = 0; slot < code.globals.size(); ++slot) {
        const codegen::GlobalTensor& global = code.globals[slot];
        const ir::Tensor& t = g.tensor(global.tensor);
        if (!global.hostTransposed)
            continue;
        transposed.insert(static_cast<int32_t>(slot));
        ASSERT_EQ(global.role, codegen::TensorRole::Weight) << t.name;
        ASSERT_EQ(t.shape.size(), 2u) << t.name;
        for (const ir::Use& use : t.uses) {
            const ir::Op& op = g.op(use.op);
            EXPECT_EQ(op.type, "Gemm") << t.name;
            EXPECT_EQ(use.slot, 1) << t.name;
            EXPECT_EQ(op.attrs.getInt("transB", 0), 1) << t.name;
        }
    }
    ASSERT_EQ(transposed.size(), 1u);
    int readers = 0;
    for (const codegen::KernelCode& k : code.kernels) {
        std::set<int32_t> reads(k.reads.begin(), k.reads.end());
        for (int32_t slot : k.hostTransposed)
            ASSERT_TRUE(transposed.count(slot) == 1 && reads.count(slot) == 1) << k.symbol;
        for (int32_t slot : transposed)
            readers += reads.count(slot) == 1 ? 1 : 0;
        EXPECT_EQ(k.hostTransposed.size(),
                  std::count_if(k.reads.begin(), k.reads.end(),
                                [&](int32_t s) { return transposed.count(s) == 1; }));
    }
    ASSERT_GE(readers, 1);
}

// The host stores a 2-D weight a contraction reads as its row factor in
// blocks of 16 columns (host_layer.cpp): bert-2layer's MatMul weights along
// dim 1, its pooler's Gemm weight (transB) along dim 0, in the same bytes; the kernels that read
// them list the block and its dim, and none is transposed or padded.
TEST_F(TestCodePlan, hostBlocksRowFactors) {
    auto p = plan(zoo("bert-2layer"), "stcp920", "tvm");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const ir::Graph& g = (*p)->graph;
    const codegen::CodePlan& code = (*p)->plan;
    std::set<int32_t> blocked;
    int wide = 0, deep = 0;
    for (size_t slot = 0; slot < code.globals.size(); ++slot) {
        const codegen::GlobalTensor& global = code.globals[slot];
        const ir::Tensor& t = g.tensor(global.tensor);
        ASSERT_FALSE(global.hostTransposed || global.hostRowPitch > 0) << t.name;
        if (global.hostBlock == 0)
            continue;
        blocked.insert(static_cast<int32_t>(slot));
        ASSERT_EQ(t.shape.size(), 2u) << t.name;
        ASSERT_EQ(global.hostBlock, 16) << t.name;
        ASSERT_EQ(codegen::hostStoredBytes(g, global), t.byteSize()) << t.name;
        for (const ir::Use& use : t.uses) {
            const ir::Op& op = g.op(use.op);
            const bool transposed = op.type == "Gemm" && op.attrs.getInt("transB", 0) == 1;
            EXPECT_TRUE(op.type == "MatMul" || transposed) << t.name;
            EXPECT_EQ(global.hostBlockDim, transposed ? 0 : 1) << t.name;
        }
        wide += t.shape == ir::Shape{768, 3072} ? 1 : 0;
        deep += t.shape == ir::Shape{3072, 768} ? 1 : 0;
    }
    ASSERT_EQ(wide, 2); // one per encoder layer
    ASSERT_EQ(deep, 2);
    for (const codegen::KernelCode& k : code.kernels)
        for (const codegen::KernelCode::HostBlock& b : k.hostBlocks) {
            ASSERT_EQ(blocked.count(b.slot), 1u) << k.symbol;
            ASSERT_EQ(b.dim, code.globals[static_cast<size_t>(b.slot)].hostBlockDim);
            ASSERT_TRUE(std::find(k.reads.begin(), k.reads.end(), b.slot) != k.reads.end());
        }
}

// Where a reader's columns do not start at a whole block, the weight is
// stored unblocked (host_layer.cpp's dropUnalignedBlocks): bert-2layer's
// 768 x 3072 weight then gets rows one 64-byte line longer (their 12 KB
// apart fall into a fraction of a cache's sets), its bytes the padded
// rows', and the kernels list the pitch instead of the block.
TEST_F(TestCodePlan, hostPadsRowFactorsWhoseTilesSplitBlocks) {
    auto p = plan(zoo("bert-2layer"), "stcp920", "tvm");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const ir::Graph& g = (*p)->graph;
    codegen::CodePlan code = (*p)->plan;
    int32_t wide = -1;
    for (size_t slot = 0; slot < code.globals.size() && wide < 0; ++slot)
        if (g.tensor(code.globals[slot].tensor).shape == ir::Shape{768, 3072})
            wide = static_cast<int32_t>(slot);
    ASSERT_GE(wide, 0);
    const ir::TensorId weight = code.globals[static_cast<size_t>(wide)].tensor;
    bool shifted = false;
    for (codegen::KernelCode& k : code.kernels)
        for (codegen::LayerCode& layer : k.layers)
            for (codegen::OpStep& step : layer.ops) {
                const std::vector<ir::TensorId>& inputs = g.op(step.op).inputs;
                if (shifted || std::find(inputs.begin(), inputs.end(), weight) == inputs.end() ||
                    step.regions.empty())
                    continue;
                step.regions[0][step.regions[0].size() - 1].lo += 8; // columns from mid-block
                shifted = true;
            }
    ASSERT_TRUE(shifted);
    codegen::dropUnalignedBlocks(g, *(*p)->evaluation.schedule.semantics, code);
    const codegen::GlobalTensor& global = code.globals[static_cast<size_t>(wide)];
    ASSERT_EQ(global.hostBlock, 0);
    ASSERT_EQ(global.hostRowPitch, 3072 + 16);
    ASSERT_EQ(codegen::hostStoredBytes(g, global), 768 * (3072 + 16) * 4);
    int listed = 0;
    for (const codegen::KernelCode& k : code.kernels) {
        for (const codegen::KernelCode::HostBlock& b : k.hostBlocks)
            ASSERT_NE(b.slot, wide) << k.symbol;
        for (const auto& [slot, pitch] : k.hostRowPitches) {
            ASSERT_EQ(slot, wide) << k.symbol;
            ASSERT_EQ(pitch, 3072 + 16) << k.symbol;
            ++listed;
        }
    }
    ASSERT_GE(listed, 1);
}

// The host stores a Conv weight in blocks of 16 output channels when every
// reader reads strided rows or padded ones with at most 16 taps
// (host_reads.cpp): resnet-reduced's stride-2 1 x 1 downsampling Convs and
// its padded 3 x 3 ones (those whose channel tiles start at whole blocks;
// in half blocks of 8 where they start at those), never its stride-1 1 x 1
// ones nor its padded 7 x 7 stem (49 taps); the blocks take the same
// bytes, and the kernels that read them list them.
TEST_F(TestCodePlan, hostBlocksStridedOrPaddedConvWeights) {
    auto p = plan(zoo("resnet-reduced"), "stcp920", "graphturbo");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const ir::Graph& g = (*p)->graph;
    const codegen::CodePlan& code = (*p)->plan;
    std::set<int32_t> blocked;
    std::set<int64_t> blockedTaps;
    for (size_t slot = 0; slot < code.globals.size(); ++slot) {
        const codegen::GlobalTensor& global = code.globals[slot];
        const ir::Tensor& t = g.tensor(global.tensor);
        if (t.shape.size() < 4 || t.uses.empty() || g.op(t.uses[0].op).type != "Conv")
            continue;
        const ir::Op& op = g.op(t.uses[0].op);
        const std::vector<int64_t> pads = op.attrs.getInts("pads", {});
        const bool padded =
            std::any_of(pads.begin(), pads.end(), [](int64_t pad) { return pad > 0; });
        const bool strided = op.attrs.getInts("strides", {}) == std::vector<int64_t>{2, 2};
        const int64_t taps = t.shape[2] * t.shape[3];
        if (global.hostBlock == 0) // qualifying, unless some reader's tiles split blocks
            continue;
        EXPECT_TRUE(padded ? taps <= 16 : strided) << t.name;
        blocked.insert(static_cast<int32_t>(slot));
        blockedTaps.insert(taps);
        ASSERT_TRUE(global.hostBlock == 16 || global.hostBlock == 8)
            << t.name << " " << global.hostBlock;
        ASSERT_EQ(global.hostBlockDim, 0) << t.name;
        ASSERT_EQ(codegen::hostStoredBytes(g, global), t.byteSize()) << t.name;
    }
    EXPECT_EQ(blockedTaps, (std::set<int64_t>{1, 9}));
    for (const codegen::KernelCode& k : code.kernels)
        for (const codegen::KernelCode::HostBlock& b : k.hostBlocks) {
            if (g.tensor(code.globals[static_cast<size_t>(b.slot)].tensor).shape.size() < 3)
                continue;
            ASSERT_EQ(blocked.count(b.slot), 1u) << k.symbol;
            ASSERT_TRUE(std::find(k.reads.begin(), k.reads.end(), b.slot) != k.reads.end());
        }
}

// The host runs a layer's consecutive tiles of its last tile loop as one
// (host_layer.cpp): each thread that runs the binding's cores keeps a tile
// (one per core for the model library, hostThreads 0; the in-process
// runner's threads otherwise), as many as every other where the plan gave
// them so; the layer's scratch stays within a host core's share of L2 (or
// the plan's LB; the bytes its tiles store to, storedScratchBytes), promoted
// weights are read in place, and the scratch views,
// scaled with the tiles, stay disjoint and inside the host's scratch, each
// core's 256 KB short of the next core's. Fewer threads merge more.
TEST_F(TestCodePlan, hostLayersMergeTilesAndKeepScratchDisjoint) {
    auto p = plan(zoo("resnet-reduced"), "stcp920", "graphturbo");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const ir::Graph& g = (*p)->graph;
    std::map<int64_t, int64_t> tilesByThreads;
    for (int64_t threads : {0, 2, 1}) {
        int merged = 0;
        for (codegen::KernelCode k : (*p)->plan.kernels) {
            k.hostThreads = threads;
            const int64_t sharers = threads > 0 ? std::min(threads, k.cores) : k.cores;
            const int64_t scratch = codegen::hostScratchBytes(g, k);
            ASSERT_GE(scratch, k.scratchBytes);
            ASSERT_EQ(k.localBytes, 65536 - 8192) << "STCP920's L1 less its weight reserve";
            for (const codegen::LayerCode& layer : k.layers) {
                codegen::LayerCode host = codegen::hostLayer(g, layer, k);
                ASSERT_LE(codegen::storedScratchBytes(g, host),
                          std::max({k.localBytes, codegen::hostLocalBytes(),
                                    codegen::storedScratchBytes(g, layer)}));
                ASSERT_LE(codegen::storedScratchBytes(g, host), host.scratchBytes);
                if (layer.tileCount() % sharers == 0) {
                    ASSERT_EQ(host.tileCount() % sharers, 0);
                }
                ASSERT_TRUE(host.promotions.empty());
                ASSERT_EQ(host.views.size(), layer.views.size());
                ASSERT_GE(host.tileCount(), std::min(layer.tileCount(), sharers));
                for (const codegen::TileLoop& t : host.tiles)
                    ASSERT_EQ(t.extent % t.tile, 0);
                merged += host.tileCount() < layer.tileCount() ? 1 : 0;
                tilesByThreads[threads] += host.tileCount();
                std::vector<std::pair<int64_t, int64_t>> ranges;
                for (size_t i = 0; i < host.views.size(); ++i) {
                    const codegen::View& v = host.views[i];
                    if (layer.views[i].home == codegen::Home::Promoted) {
                        ASSERT_EQ(v.home, codegen::Home::Global) << g.tensor(v.tensor).name;
                    }
                    if (v.home != codegen::Home::Fused)
                        continue;
                    int64_t end = v.offset + v.storageBytes(g, host.tileSizes());
                    ASSERT_LE(end, scratch) << g.tensor(v.tensor).name;
                    ranges.emplace_back(v.offset, end);
                }
                std::sort(ranges.begin(), ranges.end());
                for (size_t i = 1; i < ranges.size(); ++i)
                    ASSERT_LE(ranges[i - 1].second, ranges[i].first);
                if (k.cores > 1 && !ranges.empty()) {
                    ASSERT_GE(scratch - ranges.back().second, 256 * 1024)
                        << "a core's scratch ends 256 KB before the next core's starts";
                }
            }
        }
        ASSERT_GT(merged, 0) << threads << " threads";
    }
    EXPECT_LT(tilesByThreads[2], tilesByThreads[0]);
    EXPECT_LT(tilesByThreads[1], tilesByThreads[2]);
}

// A tapped float Conv's sums that its Relu takes in registers are never
// stored (storedScratchBytes), so they do not hold its tiles apart: on one
// thread ResNet-50's 7 x 7 stem (under tvm, whole) runs its 64 channels as
// one tile, 3.2 MB of fused sums (more than a host core's share of L2 on
// the machines measured) that no tile touches; its 1 x 1 Convs, whose sums
// a reduction in chunks may store, count theirs.
TEST_F(TestCodePlan, hostMergesTilesPastSumsKeptInRegisters) {
    auto p = plan(zoo("resnet50"), "stcp920", "tvm");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const ir::Graph& g = (*p)->graph;
    int stems = 0, pointwise = 0;
    for (codegen::KernelCode k : (*p)->plan.kernels) {
        k.hostThreads = 1;
        for (const codegen::LayerCode& layer : k.layers) {
            const ir::Op& anchor = g.op(layer.anchor);
            if (anchor.kind != ir::OpKind::Conv || layer.scratchBytes == 0)
                continue;
            const codegen::LayerCode host = codegen::hostLayer(g, layer, k);
            const int64_t taps = g.tensor(anchor.inputs[1]).shape[2];
            if (anchor.name == "conv1") {
                ++stems;
                EXPECT_EQ(codegen::storedScratchBytes(g, host), 0);
                EXPECT_EQ(host.tileCount(), 1);
                EXPECT_EQ(host.scratchBytes, 64 * 112 * 112 * 4);
                test::info("stem on one thread: %lld B of sums, a core's L2 share %lld B",
                           static_cast<long long>(host.scratchBytes),
                           static_cast<long long>(codegen::hostLocalBytes()));
            } else if (taps == 1) {
                ++pointwise;
                EXPECT_EQ(codegen::storedScratchBytes(g, host), host.scratchBytes) << anchor.name;
            }
        }
    }
    EXPECT_EQ(stems, 1);
    EXPECT_GT(pointwise, 0);
}

// The in-process runner's plan (runOnThisHost): each kernel's cores run on
// min(cores, the CPUs this process may use) threads.
TEST_F(TestCodePlan, runOnThisHostGivesEachKernelItsThreads) {
    auto p = plan(zoo("resnet-reduced"), "stcp920", "graphturbo");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    codegen::CodePlan code = (*p)->plan;
    for (const codegen::KernelCode& k : code.kernels)
        ASSERT_EQ(k.hostThreads, 0) << "a plan runs one thread per core until told otherwise";
    codegen::runOnThisHost(code);
    const int64_t cpus = codegen::hostUsableCpus();
    ASSERT_GE(cpus, 1);
    for (const codegen::KernelCode& k : code.kernels)
        EXPECT_EQ(k.hostThreads, std::min(k.cores, cpus)) << k.symbol;
}

// The host merges first the tile loop whose tiles read the most bytes again
// (host_layer.cpp): each tile of rows of a MatMul streams its weight, each
// tile of columns its other input, so where the weight is the larger the
// rows merge first, and the columns merge only once the rows are one tile
// (BERT-base's FFN: 8 tiles of 16 rows streamed the 9.4 MB weight 8 times).
TEST_F(TestCodePlan, hostMergesTheLoopThatRereadsMostFirst) {
    auto p = plan(zoo("bert-2layer"), "stcp920", "tvm");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const ir::Graph& g = (*p)->graph;
    int columnsMerged = 0;
    for (const codegen::KernelCode& k : (*p)->plan.kernels)
        for (const codegen::LayerCode& layer : k.layers) {
            const ir::Op& anchor = g.op(layer.anchor);
            if (anchor.type != "MatMul" || g.tensor(anchor.inputs[1]).data == nullptr ||
                g.tensor(anchor.inputs[1]).byteSize() <= g.tensor(anchor.inputs[0]).byteSize())
                continue;
            const auto rank = static_cast<int>(g.tensor(anchor.outputs[0]).shape.size());
            const codegen::LayerCode host = codegen::hostLayer(g, layer, k);
            int64_t rows = 1, columns = 1, plannedColumns = 1;
            for (size_t i = 0; i < host.tiles.size(); ++i) {
                if (host.tiles[i].dim == rank - 2)
                    rows = host.tiles[i].count();
                if (host.tiles[i].dim == rank - 1) {
                    columns = host.tiles[i].count();
                    plannedColumns = layer.tiles[i].count();
                }
            }
            if (columns == plannedColumns)
                continue;
            ++columnsMerged;
            EXPECT_EQ(rows, 1) << anchor.name;
            EXPECT_GE(host.tileCount(), std::min(layer.tileCount(), k.cores)) << anchor.name;
        }
    ASSERT_GT(columnsMerged, 0);
}

// The host stores an s8 weight for byte dot products with 4 reduction steps
// grouped (host_reads.cpp, GlobalTensor::hostBlockGroup): only where every
// reader multiplies it by u8 and its zero point is a constant 0 — a
// MatMulInteger's or QLinearMatMul's B in blocks of 16 columns, 4 rows
// grouped; a QLinearConv's weight in blocks of 1 output channel, 4 input
// channels grouped (the stem's 3 padded to a group: a third more bytes).
// The kernels that read it list the group. (A padded Conv of input zero point 120 keeps its weight
// as the graph's: test_small_integers.cpp.)
TEST_F(TestCodePlan, hostGroupsDotWeights) {
    TempDir dir;
    for (const auto& [model, mode] : {std::pair{"resnet-reduced", onnxio::Quantization::Static},
                                      std::pair{"bert-2layer", onnxio::Quantization::Dynamic}}) {
        SCOPED_TRACE(model);
        auto p = plan(writeQuantizedZoo(dir.path(), model, mode), "stcp920", "graphturbo");
        ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
        const ir::Graph& g = (*p)->graph;
        const codegen::CodePlan& code = (*p)->plan;
        int grouped = 0;
        for (const codegen::GlobalTensor& global : code.globals) {
            const ir::Tensor& t = g.tensor(global.tensor);
            if (global.hostBlockGroup == 1)
                continue;
            ++grouped;
            ASSERT_EQ(global.hostBlockGroup, 4) << t.name;
            ASSERT_EQ(t.dtype, ir::DType::Int8) << t.name;
            const bool conv = t.shape.size() == 4;
            EXPECT_EQ(global.hostBlock, conv ? 1 : 16) << t.name;
            EXPECT_EQ(global.hostBlockDim, conv ? 0 : 1) << t.name;
            EXPECT_EQ(global.hostBlockGroupDim, conv ? 1 : 0) << t.name;
            for (const ir::Use& use : t.uses) {
                const ir::Op& op = g.op(use.op);
                EXPECT_TRUE(conv ? op.type == "QLinearConv"
                                 : op.type == "MatMulInteger" || op.type == "QLinearMatMul")
                    << t.name << " " << op.type;
                EXPECT_EQ(g.tensor(op.inputs[0]).dtype, ir::DType::UInt8) << t.name;
                const auto zero = static_cast<size_t>(use.slot + 2);
                if (zero < op.inputs.size() && op.inputs[zero] != ir::kNoTensor) {
                    auto bytes = g.tensor(op.inputs[zero]).data->bytes();
                    ASSERT_TRUE(bytes.ok()) << t.name;
                    EXPECT_TRUE(std::all_of(bytes->begin(), bytes->end(), [](std::byte b) {
                        return b == std::byte{0};
                    })) << t.name;
                }
            }
        }
        EXPECT_GT(grouped, 0);
        int stems = 0;
        for (const codegen::GlobalTensor& global : code.globals) { // the stem: 3 input channels
            if (g.tensor(global.tensor).name == "conv1.weight") {
                ++stems;
                EXPECT_EQ(global.hostBlockGroup, 4);
                EXPECT_EQ(codegen::hostStoredBytes(g, global), global.bytes / 3 * 4);
            }
        }
        EXPECT_EQ(stems, std::string_view(model) == "resnet-reduced" ? 1 : 0);
        for (const codegen::KernelCode& k : code.kernels)
            for (const codegen::KernelCode::HostBlock& b : k.hostBlocks) {
                const codegen::GlobalTensor& global = code.globals[static_cast<size_t>(b.slot)];
                EXPECT_EQ(b.group, global.hostBlockGroup);
                EXPECT_EQ(b.groupDim, global.hostBlockGroupDim);
            }
    }
}
