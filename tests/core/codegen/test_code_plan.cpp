// Code plans (no LLVM): layers run after the layers they read (a residual
// Add fused after conv3 reads the shortcut conv's layer), homes follow the
// paper (§4.1 fused intermediates, §4.2 stitched buffers, promoted weights,
// gather tables and weights larger than the LB's reserve read in place),
// tiles are the kernel plan's, the arena reuses space (§4.3), and
// validateCodePlan catches what a broken plan would do.

#include "codegen_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
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

class TestCodePlan : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::map<std::string, ModelFile> zoo_;

    const ModelFile& zoo(const std::string& name, int64_t seq = 0) {
        if (zoo_.count(name) == 0)
            zoo_[name] =
                writeZoo(dir_.filePath(QString::fromStdString(name)).toStdString(), name, seq);
        return zoo_[name];
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void layersRunAfterTheLayersTheyRead() {
        auto p = plan(zoo("fig2-blocks"), "stcp920", "gt-gb");
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().message().c_str());
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
                        QVERIFY2(sameLayer || written.count(in), g.tensor(in).name.c_str());
                    }
                for (const kernel::OpWork& w : layer.ops)
                    for (ir::TensorId out : g.op(w.op).outputs)
                        written.insert(out);
            }
        }
    }

    void homesFollowThePaper() {
        auto p = plan(zoo("fig2-blocks"), "stcp920", "gt-gb");
        QVERIFY(p.ok());
        const ir::Graph& g = (*p)->graph;
        const codegen::KernelCode& k = (*p)->plan.kernels.front();
        std::map<std::string, codegen::Home> homes;
        for (const codegen::LayerCode& layer : k.layers)
            for (const codegen::View& v : layer.views)
                homes[g.tensor(v.tensor).name] = v.home;
        // §4.2: a block's layers exchange data through the arena.
        QCOMPARE(homes["conv_block.relu1_output_0"], codegen::Home::Stitched);
        QCOMPARE(homes["conv_block.shortcut_bn_output_0"], codegen::Home::Stitched);
        // §4.1: a conv's output consumed by its fused ReLU stays in the core.
        QCOMPARE(homes["conv_block.bn1_output_0"], codegen::Home::Fused);
        QCOMPARE(homes["conv_block.conv1.weight_bn"], codegen::Home::Promoted);
        QCOMPARE(homes["input"], codegen::Home::Global);
        QCOMPARE(homes["output"], codegen::Home::Global);
    }

    void gatherTablesAreReadInPlace() {
        auto p = plan(zoo("bert-2layer", 32), "stcp920", "tvm");
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().message().c_str());
        const ir::Graph& g = (*p)->graph;
        int seen = 0;
        for (const codegen::KernelCode& k : (*p)->plan.kernels)
            for (const codegen::LayerCode& layer : k.layers)
                if (const codegen::View* v =
                        viewNamed(g, layer, "embeddings.word_embeddings.weight")) {
                    QCOMPARE(v->home, codegen::Home::Global);
                    ++seen;
                }
        QVERIFY(seen > 0);
    }

    // A weight no tile cuts and larger than the LB's weight reserve streams
    // per tile in the simulator (kernel/plan.h WeightUse::streamed), so the
    // code reads it in place; every other weight is promoted into scratch.
    // BERT's FFN weights (768x3072 f32) far exceed STCP920's 8 KB reserve.
    void streamedWeightsAreReadInPlace() {
        auto p = plan(zoo("bert-2layer", 32), "stcp920", "tvm");
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().message().c_str());
        const ir::Graph& g = (*p)->graph;
        int streamed = 0, promoted = 0;
        const auto& kernels = (*p)->evaluation.program.kernels;
        QCOMPARE((*p)->plan.kernels.size(), kernels.size());
        for (size_t k = 0; k < kernels.size(); ++k)
            for (size_t l = 0; l < kernels[k].layers.size(); ++l)
                for (const kernel::Layer::WeightUse& w : kernels[k].layers[l].weights) {
                    if (w.gathered)
                        continue;
                    const codegen::LayerCode& code = (*p)->plan.kernels[k].layers[l];
                    const codegen::View* v = code.viewOf(w.tensor);
                    QVERIFY2(v != nullptr, g.tensor(w.tensor).name.c_str());
                    QCOMPARE(v->home, w.streamed ? codegen::Home::Global : codegen::Home::Promoted);
                    (w.streamed ? streamed : promoted)++;
                }
        QVERIFY(streamed > 0);
        QVERIFY(promoted > 0);
    }

    // The simulator charges a layer by its plan's tiles, so the code must
    // run exactly those: the plan tiles only the loops kernel/tile_rule.h
    // allows, and the code generator, checking the same rule, drops none.
    // BERT's Reshape+Transpose layers read across the heads dim; before the
    // plan asked the rule they were planned in tiles and emitted as one.
    void tilesAreThePlans_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("strategy");
        for (const char* model : {"fig2-blocks", "bert-2layer", "resnet-reduced"})
            for (const char* strategy : {"tvm", "gt-gb", "graphturbo"})
                QTest::addRow("%s %s", model, strategy)
                    << QString::fromLatin1(model) << QString::fromLatin1("stcp920")
                    << QString::fromLatin1(strategy);
    }
    void tilesAreThePlans() {
        QFETCH(QString, model);
        QFETCH(QString, arch);
        QFETCH(QString, strategy);
        const std::string name = model.toStdString();
        auto p = plan(zoo(name, name == "bert-2layer" ? 32 : 0), arch.toStdString(),
                      strategy.toStdString());
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().message().c_str());
        const auto& kernels = (*p)->evaluation.program.kernels;
        int tiled = 0;
        for (size_t k = 0; k < kernels.size(); ++k)
            for (size_t l = 0; l < kernels[k].layers.size(); ++l) {
                const kernel::Layer& planned = kernels[k].layers[l];
                const codegen::LayerCode& code = (*p)->plan.kernels[k].layers[l];
                int64_t count = 1;
                for (const codegen::TileLoop& t : code.tiles) {
                    const kernel::TileLoop& from = planned.tiles[static_cast<size_t>(t.dim)];
                    QCOMPARE(t.tile, from.tile);
                    QCOMPARE(t.extent, from.extent);
                    count *= t.count();
                }
                QVERIFY2(count == planned.tileCount,
                         ((*p)->graph.op(planned.anchor).name + ": " + code.untiledReason).c_str());
                tiled += planned.tileCount > 1 ? 1 : 0;
            }
        QVERIFY(tiled > 0);
    }

    void plansValidate_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("strategy");
        for (const char* model : {"fig3-chain", "fig2-blocks", "resnet-reduced"})
            for (const char* arch : {"stcp920", "teaching"})
                for (const char* strategy : {"tvm", "astitch", "gt-gb", "gt-lb", "graphturbo"})
                    QTest::addRow("%s %s %s", model, arch, strategy)
                        << QString::fromLatin1(model) << QString::fromLatin1(arch)
                        << QString::fromLatin1(strategy);
    }
    void plansValidate() {
        QFETCH(QString, model);
        QFETCH(QString, arch);
        QFETCH(QString, strategy);
        auto p = plan(zoo(model.toStdString()), arch.toStdString(), strategy.toStdString());
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().message().c_str());
        Status valid = codegen::validateCodePlan((*p)->graph, (*p)->plan);
        QVERIFY2(valid.ok(), valid.ok() ? "" : valid.error().message().c_str());
        QCOMPARE((*p)->plan.kernels.size(), (*p)->evaluation.program.kernels.size());
    }

    void eachKernelComputesItsSlice() {
        auto p = plan(zoo("fig3-chain"), "teaching", "graphturbo");
        QVERIFY(p.ok());
        const ir::Graph& g = (*p)->graph;
        int sliced = 0;
        for (const codegen::KernelCode& k : (*p)->plan.kernels) {
            if (k.splitDim < 0)
                continue;
            ++sliced;
            const auto& inst = (*p)->evaluation.schedule.instances[static_cast<size_t>(k.instance)];
            QCOMPARE(k.sliceHi - k.sliceLo, inst.shape[static_cast<size_t>(k.splitDim)]);
            bool found = false;
            for (const codegen::LayerCode& layer : k.layers)
                for (const codegen::OpStep& step : layer.ops)
                    for (size_t o = 0; o < step.regions.size(); ++o)
                        if (g.op(step.op).outputs[o] == k.splitTensor) {
                            found = true;
                            QCOMPARE(step.regions[o][static_cast<size_t>(k.splitDim)],
                                     (ops::Interval{k.sliceLo, k.sliceHi - 1}));
                        }
            QVERIFY2(found, k.symbol.c_str());
        }
        QCOMPARE(sliced, 14); // Fig. 6: 8 + 4 + 2 instances of split groups, and d1 whole
    }

    void theArenaReusesSpace() {
        auto p = plan(zoo("fig2-blocks"), "stcp920", "gt-gb");
        QVERIFY(p.ok());
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
        QVERIFY(k.arenaBytes > 0 && k.arenaBytes < total);
    }

    void theValidatorFindsOverlappingBuffers() {
        auto p = plan(zoo("fig2-blocks"), "stcp920", "gt-gb");
        QVERIFY(p.ok());
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
        QVERIFY(!valid.ok());
        QVERIFY2(valid.error().message().find("conv_block.relu1_output_0") != std::string::npos &&
                     valid.error().message().find("overlap") != std::string::npos,
                 valid.error().message().c_str());
    }

    void theValidatorFindsMissingViews() {
        auto p = plan(zoo("fig3-chain"), "teaching", "graphturbo");
        QVERIFY(p.ok());
        codegen::CodePlan broken = (*p)->plan;
        broken.kernels.front().layers.front().views.pop_back();
        Status valid = codegen::validateCodePlan((*p)->graph, broken);
        QVERIFY(!valid.ok());
        QVERIFY2(valid.error().message().rfind("kernel " + broken.kernels.front().symbol, 0) == 0,
                 valid.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestCodePlan)
#include "test_code_plan.moc"
