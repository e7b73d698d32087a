// The vector-use report (vector_use.h, vector_report.h): the reading of
// RISC-V assembly on hand-written text whose counts are known (loops and
// their depth, the vector configuration followed through vsetvli, local
// labels inside a block, spills, scalar multiply-adds), and the report of a
// real emission: every contraction layer of resnet-reduced found with its
// vector multiply-adds, lane fills that are shares and do not grow with the
// VLEN, and a JSON whose summary counts its loops; a squeeze-excite block's
// single-position Convs and fc at >= 75 % of the lanes; a padded 1 x 3 Conv
// with no vector spills.

#include "codegen/codegen.h"
#include "codegen/vector_report.h"
#include "codegen_fixture.h"
#include "coretestsupport.h"
#include "onnx/model_builder.h"
#include "suite_fixture.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>
#include <optional>
#include <set>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

// A layer function with an outer loop holding an inner vector loop (fixed
// length 8 at e32/m1, then LMUL 2 at VLMAX, a local label and a spill in
// it) and a scalar loop after it.
constexpr const char* kAssembly = R"(	.text
	.type	sc_k001_a2.layer4,@function
sc_k001_a2.layer4:                      # @sc_k001_a2.layer4
# %bb.0:                                # %entry
	addi	sp, sp, -64
	vsetivli	zero, 8, e32, m1, ta, ma
.LBB4_1:                                # %outer
                                        # =>This Loop Header: Depth=1
                                        #     Child Loop BB4_2 Depth 2
	li	a3, 0
.LBB4_2:                                # %vector.body
                                        #   Parent Loop BB4_1 Depth=1
                                        # => This Inner Loop Header: Depth=2
	vle32.v	v8, (a1)
	vfmacc.vf	v16, fa5, v8
.Lpcrel_hi0:
	auipc	a4, %pcrel_hi(.LCPI4_0)
	vfmacc.vf	v17, fa4, v8
	vs1r.v	v16, (a5)                       # Unknown-size Folded Spill
	vsetvli	a6, zero, e32, m2, ta, ma
	vfmadd.vv	v18, v20, v22
	vsetvli	zero, zero, e64, m4, ta, ma
	vfadd.vv	v24, v28, v24
	bnez	a3, .LBB4_2
# %bb.3:                                # %middle
                                        #   in Loop: Header=BB4_1 Depth=1
	vsetivli	zero, 8, e32, m1, ta, ma
	vse32.v	v16, (a2)
	bnez	a4, .LBB4_1
.LBB4_4:                                # %tail
                                        # =>This Inner Loop Header: Depth=1
	flw	fa5, 0(a1)
	fmadd.s	fa0, fa5, fa4, fa0
	fmadd.s	fa1, fa5, fa3, fa1
	bnez	a3, .LBB4_4
# %bb.5:
	ret
.Lfunc_end4:
)";

const codegen::CodeLoop* loopAt(const std::vector<codegen::CodeLoop>& loops,
                                const std::string& header) {
    for (const codegen::CodeLoop& loop : loops)
        if (loop.header == header)
            return &loop;
    return nullptr;
}

} // namespace

TEST(TestVectorUse, loopsAreFoundWithTheirDepthAndLayer) {
    auto loops = codegen::readLoops(kAssembly);
    ASSERT_EQ(loops.size(), 3u);
    const codegen::CodeLoop* outer = loopAt(loops, ".LBB4_1");
    const codegen::CodeLoop* inner = loopAt(loops, ".LBB4_2");
    const codegen::CodeLoop* tail = loopAt(loops, ".LBB4_4");
    ASSERT_TRUE(outer != nullptr && inner != nullptr && tail != nullptr);
    EXPECT_EQ(outer->depth, 1);
    EXPECT_FALSE(outer->innermost);
    EXPECT_EQ(inner->depth, 2);
    EXPECT_TRUE(inner->innermost);
    EXPECT_TRUE(tail->innermost);
    EXPECT_EQ(inner->function, "sc_k001_a2.layer4");
    EXPECT_EQ(inner->layer, 4);
    // The local label inside the inner loop's block does not end it.
    EXPECT_EQ(inner->instructions, 10);
    EXPECT_EQ(outer->instructions, 4);
}

TEST(TestVectorUse, theVectorConfigurationIsFollowed) {
    auto loops = codegen::readLoops(kAssembly);
    const codegen::CodeLoop* inner = loopAt(loops, ".LBB4_2");
    ASSERT_NE(inner, nullptr);
    EXPECT_EQ(inner->vectorConfigs, 2);
    EXPECT_EQ(inner->vectorInstructions, 6);
    EXPECT_EQ(inner->vectorFmaCount(), 3);
    EXPECT_EQ(inner->vectorSpills, 1);
    codegen::VectorShape fixed{32, 8, 8};
    codegen::VectorShape wide{32, 16, codegen::VectorShape::kVlMax};
    codegen::VectorShape kept{64, 32, codegen::VectorShape::kVlMax};
    EXPECT_EQ(inner->vectorFmas.at(fixed), 2);
    EXPECT_EQ(inner->vectorFmas.at(wide), 1);
    EXPECT_EQ(inner->vectorOps.at(kept), 1); // "vsetvli zero, zero" keeps VLMAX
    EXPECT_EQ(inner->vectorOps.count(codegen::VectorShape{32, 8, 8}), 1u);
    // The spill (a whole-register store) honours no vl: not among the ops.
    int64_t ops = 0;
    for (const auto& [shape, n] : inner->vectorOps)
        ops += n;
    EXPECT_EQ(ops, 5);
}

TEST(TestVectorUse, laneFillCountsTheLanesOfTheUnit) {
    auto loops = codegen::readLoops(kAssembly);
    const codegen::CodeLoop* inner = loopAt(loops, ".LBB4_2");
    const codegen::CodeLoop* tail = loopAt(loops, ".LBB4_4");
    ASSERT_TRUE(inner != nullptr && tail != nullptr);
    // VLEN 256: 8 + 8 lanes of 8, and 16 of 16 at m2: all filled.
    EXPECT_DOUBLE_EQ(inner->laneFill(256), 1.0);
    // VLEN 512: the fixed length fills 8 of 16 twice, VLMAX 32 of 32.
    EXPECT_DOUBLE_EQ(inner->laneFill(512), (8.0 + 8 + 32) / (16 + 16 + 32));
    EXPECT_DOUBLE_EQ(inner->multiplyAddsPerVectorFma(256), (8.0 + 8 + 16) / 3);
    EXPECT_DOUBLE_EQ(inner->multiplyAddsPerVectorFma(512), (8.0 + 8 + 32) / 3);
    // Two scalar multiply-adds: one lane of 8 (f32 at VLEN 256) each.
    EXPECT_EQ(tail->scalarFmas, 2);
    EXPECT_DOUBLE_EQ(tail->laneFill(256), 1.0 / 8);
    EXPECT_DOUBLE_EQ(tail->laneFill(512), 1.0 / 16);
    EXPECT_DOUBLE_EQ(tail->multiplyAddsPerVectorFma(256), 0);
    // A fractional LMUL fills part of a register.
    codegen::VectorShape half{32, 4, codegen::VectorShape::kVlMax};
    EXPECT_EQ(half.lanes(256), 4);
    EXPECT_EQ(half.unitLanes(256), 8);
    EXPECT_EQ(codegen::VectorShape({32, 8, 7}).lanes(256), 7);
    EXPECT_EQ(half.text(), "e32,mf2,vl=max");
}

class TestVectorReport : public OnceSuite<TestVectorReport> {};

TEST_F(TestVectorReport, everyContractionOfAnEmissionIsReported) {
    ModelFile file = writeZoo(dir_->filePath(std::string("resnet")), "resnet-reduced");
    auto planned = plan(file, "stcp920", "graphturbo");
    ASSERT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    codegen::EmitOptions options;
    options.target = codegen::Target::RiscV64;
    options.vlen = 256;
    options.keepIr = false;
    options.vectorReport = true;
    const Planned& p = **planned;
    auto program = codegen::emitProgram(p.graph, *p.evaluation.schedule.semantics, p.plan, options);
    ASSERT_TRUE(program.ok()) << (program.ok() ? "" : program.error().message().c_str());
    ASSERT_TRUE(program->vectorReport.has_value());
    const codegen::VectorReport& report = *program->vectorReport;
    EXPECT_EQ(report.vlens, (std::vector<int>{256, 512}));
    std::set<std::string> contractions;
    for (const codegen::KernelCode& kernel : p.plan.kernels)
        for (const codegen::LayerCode& layer : kernel.layers) {
            const std::string& type = p.graph.op(layer.anchor).type;
            if (type == "Conv" || type == "Gemm" || type == "MatMul")
                contractions.insert(p.graph.op(layer.anchor).name);
        }
    ASSERT_FALSE(contractions.empty());
    std::set<std::string> vectorized;
    for (const codegen::ReportedLoop& reported : report.loops) {
        const codegen::CodeLoop& loop = reported.loop;
        if (loop.vectorFmaCount() > 0)
            vectorized.insert(reported.op);
        if (!loop.multiplyAdds())
            continue;
        double at256 = loop.laneFill(256);
        double at512 = loop.laneFill(512);
        EXPECT_GT(at256, 0) << loop.header.c_str();
        EXPECT_LE(at256, 1.0) << loop.header.c_str();
        EXPECT_LE(at512, at256 + 1e-12) << loop.header.c_str();
        EXPECT_LE(loop.multiplyAddsPerVectorFma(256), 256 * 8 / 32) << loop.header.c_str();
    }
    for (const std::string& op : contractions)
        EXPECT_EQ(vectorized.count(op), 1u) << op.c_str() << " has no vector multiply-add";
    auto json = nlohmann::json::parse(codegen::vectorReportJson(report));
    EXPECT_EQ(json["format"], "stagecraft-vector-report");
    EXPECT_EQ(json["loops"].size(), report.loops.size());
    int64_t multiplyAdds = 0;
    for (const auto& loop : json["loops"])
        multiplyAdds += loop["vector_fmas"].get<int64_t>() + loop["scalar_fmas"].get<int64_t>() > 0;
    EXPECT_EQ(json["multiply_add_loops"]["loops"].get<int64_t>(), multiplyAdds);
    EXPECT_NE(codegen::vectorReportText(report).find("VLEN 512"), std::string::npos);
}

namespace {

/// The vector report of \p model planned on stcp920 under tvm and emitted
/// for riscv64 at VLEN 256; none (a failure recorded) where either fails.
std::optional<codegen::VectorReport> riscvReport(const ModelFile& model) {
    auto planned = plan(model, "stcp920", "tvm");
    if (!planned.ok()) {
        ADD_FAILURE() << planned.error().message();
        return std::nullopt;
    }
    codegen::EmitOptions options;
    options.target = codegen::Target::RiscV64;
    options.vlen = 256;
    options.vectorReport = true;
    const Planned& p = **planned;
    auto program = codegen::emitProgram(p.graph, *p.evaluation.schedule.semantics, p.plan, options);
    if (!program.ok()) {
        ADD_FAILURE() << program.error().message();
        return std::nullopt;
    }
    return std::move(program->vectorReport);
}

/// A squeeze-excite block on [1, 128, 7, 7]: its 1 x 1 Convs have a single
/// output position, and an fc (a Gemm with transB) on the pooled channels;
/// wide enough that each of stcp920's 8 cores gets whole vectors of them.
ModelFile squeezeExcite(const std::filesystem::path& path) {
    onnxio::ModelBuilder m("squeeze-excite", 13);
    m.addInput("x", ir::DType::Float32, {1, 128, 7, 7});
    m.addFloatInitializer("w1", {64, 128, 1, 1}, std::vector<float>(64 * 128, 0.05f));
    m.addFloatInitializer("b1", {64}, std::vector<float>(64, 0.1f));
    m.addFloatInitializer("w2", {128, 64, 1, 1}, std::vector<float>(128 * 64, -0.03f));
    m.addFloatInitializer("fc", {128, 128}, std::vector<float>(128 * 128, 0.01f));
    m.addNode("GlobalAveragePool", {"x"}, {"pooled"});
    m.addNode("Conv", {"pooled", "w1", "b1"}, {"squeezed"});
    m.addNode("Relu", {"squeezed"}, {"r"});
    m.addNode("Conv", {"r", "w2"}, {"excited"});
    m.addNode("HardSigmoid", {"excited"}, {"gate"});
    m.addNode("Mul", {"x", "gate"}, {"y"});
    m.addNode("Flatten", {"gate"}, {"flat"});
    m.addNode("Gemm", {"flat", "fc"}, {"logits"}).attr("transB", int64_t{1});
    m.addOutput("y", ir::DType::Float32, {1, 128, 7, 7});
    m.addOutput("logits", ir::DType::Float32, {1, 128});
    ModelFile file{path, {}};
    EXPECT_TRUE(m.save(file.path).ok()) << path;
    return file;
}

} // namespace

// A contraction with one output position runs its vectors along the
// channels, the weights read with a stride (vlse): every multiply-add loop
// of the Convs and the Gemm fills at least 3/4 of the lanes at VLEN 256
// (they were scalar, one lane of eight).
TEST_F(TestVectorReport, singlePositionContractionsRunAlongChannels) {
    auto report = riscvReport(squeezeExcite(dir_->filePath(std::string("se.onnx"))));
    ASSERT_TRUE(report.has_value());
    int contractionLoops = 0;
    for (const codegen::ReportedLoop& reported : report->loops) {
        const std::string& type = reported.opType;
        if (!reported.loop.multiplyAdds() || (type != "Conv" && type != "Gemm"))
            continue;
        ++contractionLoops;
        EXPECT_GT(reported.loop.vectorFmaCount(), 0) << reported.op;
        EXPECT_GE(reported.loop.laneFill(256), 0.75) << reported.op;
    }
    EXPECT_GE(contractionLoops, 3);
}

namespace {

/// A 1 x 3 Conv padded along a row of 40 into 96 channels (as PP-OCRv4
/// rec's late 1 x 3 Convs): its edge taps leave the padding lane of the
/// first or last vector out of the sums, under a tile of 4 channels by 5
/// vectors.
ModelFile rowConv(const std::filesystem::path& path) {
    onnxio::ModelBuilder m("row-conv", 13);
    m.addInput("x", ir::DType::Float32, {1, 16, 1, 40});
    m.addFloatInitializer("w", {96, 16, 1, 3}, std::vector<float>(96 * 16 * 3, 0.02f));
    m.addNode("Conv", {"x", "w"}, {"y"}).attr("pads", std::vector<int64_t>{0, 1, 0, 1});
    m.addOutput("y", ir::DType::Float32, {1, 96, 1, 40});
    ModelFile file{path, {}};
    EXPECT_TRUE(m.save(file.path).ok()) << path;
    return file;
}

} // namespace

// Edge taps on riscv64 multiply-add under a mask (vfmacc with v0.t, the
// accumulator kept in place): a select of the sums under a constant mask
// became a vl-limited merge after a vfmadd that overwrote the row vector,
// and the register tile spilled (1 spill and 2 reloads in this loop of 72
// multiply-adds; 2 of rec's loops at VLEN 256).
TEST_F(TestVectorReport, edgeTapsSpillNoVectorRegisters) {
    auto report = riscvReport(rowConv(dir_->filePath(std::string("row.onnx"))));
    ASSERT_TRUE(report.has_value());
    int convLoops = 0;
    for (const codegen::ReportedLoop& reported : report->loops) {
        if (!reported.loop.multiplyAdds() || reported.opType != "Conv")
            continue;
        ++convLoops;
        EXPECT_GT(reported.loop.vectorFmaCount(), 0) << reported.loop.header;
        EXPECT_EQ(reported.loop.vectorSpills + reported.loop.vectorReloads, 0)
            << reported.loop.header;
    }
    EXPECT_GE(convLoops, 1);
}

TEST_F(TestVectorReport, hostEmissionsHaveNoVectorReport) {
    ModelFile file = writeZoo(dir_->filePath(std::string("blocks")), "fig2-blocks");
    auto planned = plan(file, "stcp920", "tvm");
    ASSERT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    codegen::EmitOptions options;
    options.target = codegen::Target::Host;
    options.vectorReport = true;
    const Planned& p = **planned;
    auto program = codegen::emitProgram(p.graph, *p.evaluation.schedule.semantics, p.plan, options);
    ASSERT_FALSE(program.ok());
    EXPECT_NE(program.error().message().find("riscv64"), std::string::npos);
}
