// Code plans (no LLVM): layers run after the layers they read (a residual
// Add fused after conv3 reads the shortcut conv's layer), homes follow the
// paper (§4.1 fused intermediates, §4.2 stitched buffers, promoted weights,
// gather tables and weights larger than the LB's reserve read in place),
// tiles are the kernel plan's, the arena reuses space (§4.3), and
// validateCodePlan catches what a broken plan would do.

#include "code_plan_suite.h"
#include "codegen_fixture.h"
#include "coretestsupport.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <set>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

const codegen::View* viewNamed(const ir::Graph& graph, const codegen::LayerCode& layer,
                               const std::string& name) {
    for (const codegen::View& v : layer.views)
        if (graph.tensor(v.tensor).name == name)
            return &v;
    return nullptr;
}

} // namespace

TEST_F(TestCodePlan, layersRunAfterTheLayersTheyRead) {
    auto p = plan(zoo("fig2-blocks"), "stcp920", "gt-gb");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const ir::Graph& g = (*p)->graph;
    for (const kernel::Kernel& k : (*p)->evaluation.program.kernels) {
        std::set<ir::TensorId> written;
        std::set<ir::OpId> inKernel;
        for (const kernel::Layer& layer : k.layers)
            for (const kernel::OpWork& w : layer.ops)
                inKernel.insert(w.op);
        for (const kernel::Layer& layer : k.layers) {
            for (const kernel::OpWork& w : layer.ops)
                for (ir::TensorId in : g.op(w.op).inputs) {
                    if (in == ir::kNoTensor || g.tensor(in).producer == ir::kNoOp ||
                        inKernel.count(g.tensor(in).producer) == 0)
                        continue;
                    bool sameLayer = std::any_of(
                        layer.ops.begin(), layer.ops.end(),
                        [&](const kernel::OpWork& o) { return o.op == g.tensor(in).producer; });
                    ASSERT_TRUE(sameLayer || written.count(in)) << (g.tensor(in).name.c_str());
                }
            for (const kernel::OpWork& w : layer.ops)
                for (ir::TensorId out : g.op(w.op).outputs)
                    written.insert(out);
        }
    }
}

TEST_F(TestCodePlan, homesFollowThePaper) {
    auto p = plan(zoo("fig2-blocks"), "stcp920", "gt-gb");
    ASSERT_TRUE(p.ok());
    const ir::Graph& g = (*p)->graph;
    const codegen::KernelCode& k = (*p)->plan.kernels.front();
    std::map<std::string, codegen::Home> homes;
    for (const codegen::LayerCode& layer : k.layers)
        for (const codegen::View& v : layer.views)
            homes[g.tensor(v.tensor).name] = v.home;
    // §4.2: a block's layers exchange data through the arena.
    ASSERT_EQ(homes["conv_block.relu1_output_0"], codegen::Home::Stitched);
    ASSERT_EQ(homes["conv_block.shortcut_bn_output_0"], codegen::Home::Stitched);
    // §4.1: a conv's output consumed by its fused ReLU stays in the core.
    ASSERT_EQ(homes["conv_block.bn1_output_0"], codegen::Home::Fused);
    ASSERT_EQ(homes["conv_block.conv1.weight_bn"], codegen::Home::Promoted);
    ASSERT_EQ(homes["input"], codegen::Home::Global);
    ASSERT_EQ(homes["output"], codegen::Home::Global);
}

TEST_F(TestCodePlan, gatherTablesAreReadInPlace) {
    auto p = plan(zoo("bert-2layer", 32), "stcp920", "tvm");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const ir::Graph& g = (*p)->graph;
    int seen = 0;
    for (const codegen::KernelCode& k : (*p)->plan.kernels)
        for (const codegen::LayerCode& layer : k.layers)
            if (const codegen::View* v = viewNamed(g, layer, "embeddings.word_embeddings.weight")) {
                ASSERT_EQ(v->home, codegen::Home::Global);
                ++seen;
            }
    ASSERT_TRUE(seen > 0);
}

// A weight no tile cuts and larger than the LB's weight reserve streams
// per tile in the simulator (kernel/plan.h WeightUse::streamed), so the
// code reads it in place; every other weight is promoted into scratch.
// x [32, 4096] times a [4096, 2] weight, tiled as a dense
// (dense_tiles.cpp) on STCP920's 8 cores: its rows are dealt to the cores
// and its 2 features kept whole, so the 32 KB weight, over the 8 KB
// reserve, streams; the bias [2] added after it is promoted.
TEST_F(TestCodePlan, streamedWeightsAreReadInPlace) {
    onnxio::ModelBuilder m("dense", 13);
    m.addInput("x", ir::DType::Float32, {32, 4096});
    m.addFloatInitializer("w", {4096, 2}, std::vector<float>(8192, 0.125f));
    m.addFloatInitializer("b", {2}, {1.0f, -1.0f});
    m.addNode("MatMul", {"x", "w"}, {"product"});
    m.addNode("Add", {"product", "b"}, {"y"});
    m.addOutput("y", ir::DType::Float32, {32, 2});
    ModelFile file{dir_->filePath("dense.onnx"), {}};
    ASSERT_TRUE(m.save(file.path).ok());
    auto p = plan(file, "stcp920", "tvm");
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const ir::Graph& g = (*p)->graph;
    int streamed = 0, promoted = 0;
    const auto& kernels = (*p)->evaluation.program.kernels;
    ASSERT_EQ((*p)->plan.kernels.size(), kernels.size());
    for (size_t k = 0; k < kernels.size(); ++k)
        for (size_t l = 0; l < kernels[k].layers.size(); ++l)
            for (const kernel::Layer::WeightUse& w : kernels[k].layers[l].weights) {
                if (w.gathered)
                    continue;
                const codegen::LayerCode& code = (*p)->plan.kernels[k].layers[l];
                const codegen::View* v = code.viewOf(w.tensor);
                ASSERT_TRUE(v != nullptr) << (g.tensor(w.tensor).name.c_str());
                ASSERT_EQ(v->home, w.streamed ? codegen::Home::Global : codegen::Home::Promoted);
                (w.streamed ? streamed : promoted)++;
            }
    ASSERT_TRUE(streamed > 0);
    ASSERT_TRUE(promoted > 0);
}

// The simulator charges a layer by its plan's tiles, so the code must
// run exactly those: the plan tiles only the loops kernel/tile_rule.h
// allows, and the code generator, checking the same rule, drops none.
// BERT's Reshape+Transpose layers read across the heads dim; before the
// plan asked the rule they were planned in tiles and emitted as one.
struct TilesAreThePlansRow {
    std::string rowLabel;
    std::string model;
    std::string arch;
    std::string strategy;
};

std::vector<TilesAreThePlansRow> tilesAreThePlansRows() {
    std::vector<TilesAreThePlansRow> rows;
    for (const char* model : {"fig2-blocks", "bert-2layer", "resnet-reduced"})
        for (const char* strategy : {"tvm", "gt-gb", "graphturbo"})
            rows.push_back({test::rowName("%s %s", model, strategy), std::string(model),
                            std::string("stcp920"), std::string(strategy)});
    return rows;
}

class TilesAreThePlansRows : public TestCodePlan,
                             public ::testing::WithParamInterface<TilesAreThePlansRow> {};

TEST_P(TilesAreThePlansRows, tilesAreThePlans) {
    std::string model = GetParam().model;
    std::string arch = GetParam().arch;
    std::string strategy = GetParam().strategy;
    const std::string name = model;
    auto p = plan(zoo(name, name == "bert-2layer" ? 32 : 0), arch, strategy);
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    const auto& kernels = (*p)->evaluation.program.kernels;
    int tiled = 0;
    for (size_t k = 0; k < kernels.size(); ++k)
        for (size_t l = 0; l < kernels[k].layers.size(); ++l) {
            const kernel::Layer& planned = kernels[k].layers[l];
            const codegen::LayerCode& code = (*p)->plan.kernels[k].layers[l];
            int64_t count = 1;
            for (const codegen::TileLoop& t : code.tiles) {
                const kernel::TileLoop& from = planned.tiles[static_cast<size_t>(t.dim)];
                ASSERT_EQ(t.tile, from.tile);
                ASSERT_EQ(t.extent, from.extent);
                count *= t.count();
            }
            ASSERT_TRUE(count == planned.tileCount)
                << (((*p)->graph.op(planned.anchor).name + ": " + code.untiledReason).c_str());
            tiled += planned.tileCount > 1 ? 1 : 0;
        }
    ASSERT_TRUE(tiled > 0);
}

INSTANTIATE_TEST_SUITE_P(TestCodePlan, TilesAreThePlansRows,
                         ::testing::ValuesIn(tilesAreThePlansRows()), test::RowName{});

struct PlansValidateRow {
    std::string rowLabel;
    std::string model;
    std::string arch;
    std::string strategy;
};

std::vector<PlansValidateRow> plansValidateRows() {
    std::vector<PlansValidateRow> rows;
    for (const char* model : {"fig3-chain", "fig2-blocks", "resnet-reduced"})
        for (const char* arch : {"stcp920", "teaching"})
            for (const char* strategy : {"tvm", "astitch", "gt-gb", "gt-lb", "graphturbo"})
                rows.push_back({test::rowName("%s %s %s", model, arch, strategy),
                                std::string(model), std::string(arch), std::string(strategy)});
    return rows;
}

class PlansValidateRows : public TestCodePlan,
                          public ::testing::WithParamInterface<PlansValidateRow> {};

TEST_P(PlansValidateRows, plansValidate) {
    std::string model = GetParam().model;
    std::string arch = GetParam().arch;
    std::string strategy = GetParam().strategy;
    auto p = plan(zoo(model), arch, strategy);
    ASSERT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message().c_str());
    Status valid = codegen::validateCodePlan((*p)->graph, (*p)->plan);
    ASSERT_TRUE(valid.ok()) << (valid.ok() ? "" : valid.error().message().c_str());
    ASSERT_EQ((*p)->plan.kernels.size(), (*p)->evaluation.program.kernels.size());
}

INSTANTIATE_TEST_SUITE_P(TestCodePlan, PlansValidateRows, ::testing::ValuesIn(plansValidateRows()),
                         test::RowName{});

TEST_F(TestCodePlan, eachKernelComputesItsSlice) {
    auto p = plan(zoo("fig3-chain"), "teaching", "graphturbo");
    ASSERT_TRUE(p.ok());
    const ir::Graph& g = (*p)->graph;
    int sliced = 0;
    for (const codegen::KernelCode& k : (*p)->plan.kernels) {
        if (k.splitDim < 0)
            continue;
        ++sliced;
        const auto& inst = (*p)->evaluation.schedule.instances[k.instance];
        ASSERT_EQ(k.sliceHi - k.sliceLo, inst.shape[static_cast<size_t>(k.splitDim)]);
        bool found = false;
        for (const codegen::LayerCode& layer : k.layers)
            for (const codegen::OpStep& step : layer.ops)
                for (size_t o = 0; o < step.regions.size(); ++o)
                    if (g.op(step.op).outputs[o] == k.splitTensor) {
                        found = true;
                        ASSERT_EQ(step.regions[o][static_cast<size_t>(k.splitDim)],
                                  (ops::Interval{k.sliceLo, k.sliceHi - 1}));
                    }
        ASSERT_TRUE(found) << k.symbol.c_str();
    }
    ASSERT_EQ(sliced, 14); // Fig. 6: 8 + 4 + 2 instances of split groups, and d1 whole
}

TEST_F(TestCodePlan, theArenaReusesSpace) {
    auto p = plan(zoo("fig2-blocks"), "stcp920", "gt-gb");
    ASSERT_TRUE(p.ok());
    const ir::Graph& g = (*p)->graph;
    const codegen::KernelCode& k = (*p)->plan.kernels.front();
    std::map<ir::TensorId, int64_t> stitched;
    for (const codegen::LayerCode& layer : k.layers)
        for (const codegen::View& v : layer.views)
            if (v.home == codegen::Home::Stitched)
                stitched[v.tensor] = v.storageBytes(g, {});
    int64_t total = 0;
    for (const auto& [tensor, bytes] : stitched)
        total += bytes;
    ASSERT_TRUE(k.arenaBytes > 0 && k.arenaBytes < total);
}

TEST_F(TestCodePlan, theValidatorFindsOverlappingBuffers) {
    auto p = plan(zoo("fig2-blocks"), "stcp920", "gt-gb");
    ASSERT_TRUE(p.ok());
    const ir::Graph& g = (*p)->graph;
    codegen::CodePlan broken = (*p)->plan;
    // relu1 (layers 0-1) and relu2 (layers 1-2) are live together in layer 1.
    int64_t relu1 = -1;
    for (codegen::LayerCode& layer : broken.kernels.front().layers)
        for (codegen::View& v : layer.views) {
            const std::string& name = g.tensor(v.tensor).name;
            if (name == "conv_block.relu1_output_0")
                relu1 = v.offset;
            if (name == "conv_block.relu2_output_0" && relu1 >= 0)
                v.offset = relu1;
        }
    Status valid = codegen::validateCodePlan(g, broken);
    ASSERT_TRUE(!valid.ok());
    ASSERT_TRUE(valid.error().message().find("conv_block.relu1_output_0") != std::string::npos &&
                valid.error().message().find("overlap") != std::string::npos)
        << (valid.error().message().c_str());
}

TEST_F(TestCodePlan, theValidatorFindsMissingViews) {
    auto p = plan(zoo("fig3-chain"), "teaching", "graphturbo");
    ASSERT_TRUE(p.ok());
    codegen::CodePlan broken = (*p)->plan;
    broken.kernels.front().layers.front().views.pop_back();
    Status valid = codegen::validateCodePlan((*p)->graph, broken);
    ASSERT_TRUE(!valid.ok());
    ASSERT_TRUE(valid.error().message().rfind("kernel " + broken.kernels.front().symbol, 0) == 0)
        << (valid.error().message().c_str());
}
