// Emitted modules and objects: every kernel verifies (llvm::verifyModule runs
// on each module before and after optimization; a failure is an error) and
// compiles for both targets; the RISC-V objects of elementwise and matmul
// kernels contain RVV instructions (llvm-objdump finds vsetvli or vsetivli,
// and the matmuls a vector multiply-add); output is
// byte-identical whatever the number of compile threads; unsupported ops
// are refused naming the op; the host runner refuses RISC-V objects.

#include "arch/presets.h"
#include "codegen/host_run.h"
#include "codegen/manifest.h"
#include "codegen_fixture.h"
#include "coretestsupport.h"
#include "graph_ops.h"
#include "host_fixture.h"
#include "suite_fixture.h"
#include "support/llvm_bad_alloc.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>

using namespace stagecraft;
using namespace stagecraft::test;
namespace gops = stagecraft::test::graphops;

namespace {

/// A planned crafted graph (zero weights: these tests look at code, not numbers).
std::unique_ptr<Planned> planGraph(ir::Graph graph, const std::string& strategy = "tvm",
                                   const std::string& archName = "stcp920") {
    auto planned = std::make_unique<Planned>();
    planned->graph = std::move(graph);
    auto arch = arch::resolveArch(archName);
    SC_ASSERT(arch.ok(), "the architecture is a preset");
    schedule::ClusterPlan clusters;
    auto ev = sim::evaluate(planned->graph, *arch, *sim::findStrategy(strategy), clusters);
    SC_ASSERT(ev.ok(), "the crafted graphs schedule");
    planned->evaluation = std::move(ev).value();
    auto plan = codegen::planCode(planned->graph, planned->evaluation.schedule,
                                  planned->evaluation.program);
    SC_ASSERT(plan.ok(), "the crafted graphs plan");
    planned->plan = std::move(plan).value();
    return planned;
}

ir::Graph elementwiseGraph() {
    ir::Graph g;
    gops::Builder b(g);
    ir::TensorId x = b.input({1, 64, 32, 32});
    ir::TensorId y = gops::binary(b, "Add", x, b.weight({64, 1, 1}));
    gops::unary(b, "Relu", gops::binary(b, "Mul", y, y));
    b.finish();
    return g;
}

ir::Graph matmulGraph() {
    ir::Graph g;
    gops::Builder b(g);
    ir::TensorId x = b.input({1, 128, 256});
    gops::matmul(b, x, b.weight({256, 256}));
    b.finish();
    return g;
}

Expected<codegen::EmittedProgram> compile(const Planned& p, codegen::Target target,
                                          int threads = 0) {
    return codegen::emitProgram(p.graph, *p.evaluation.schedule.semantics, p.plan,
                                {target, 2, threads, true, {}});
}

/// Disassembly of an object (llvm-objdump from LLVM 19, RVV enabled).
std::string disassemble(const std::string& object, const test::TempDir& dir) {
    std::string path = dir.filePath(std::string("kernel.o"));
    {
        std::ofstream file(path, std::ios::binary | std::ios::trunc);
        if (!file)
            return {};
        file.write(object.data(), static_cast<std::streamsize>(object.size()));
    }
    // llvm-objdump with a 60 s bound; its standard output.
    std::string command =
        std::string("timeout 60 '") + STAGECRAFT_LLVM_OBJDUMP + "' -d --mattr=+v '" + path + "'";
    std::string out;
    if (FILE* objdump = popen(command.c_str(), "r")) {
        char buffer[4096];
        size_t n;
        while ((n = std::fread(buffer, 1, sizeof buffer, objdump)) > 0)
            out.append(buffer, n);
        pclose(objdump);
    }
    return out;
}

/// The disassembly of every part of \p kernel, one after the other.
std::string disassembleParts(const codegen::EmittedKernel& kernel, const test::TempDir& dir) {
    std::string text;
    for (const codegen::EmittedPart& part : kernel.parts)
        text += disassemble(part.object, dir);
    return text;
}

/// Matches of \p re in \p text, counted as QString::count(QRegularExpression)
/// counted them: a search from each position after the previous match's start.
int countMatches(const std::string& text, const std::regex& re) {
    int count = 0;
    std::smatch match;
    for (auto from = text.cbegin(); std::regex_search(from, text.cend(), match, re);
         from = match[0].first + 1)
        ++count;
    return count;
}

/// \p text split at every \p separator, empty parts kept (QString::split).
std::vector<std::string> splitKeepingEmpty(const std::string& text, const std::string& separator) {
    std::vector<std::string> parts;
    size_t from = 0;
    for (size_t at = text.find(separator); at != std::string::npos;
         at = text.find(separator, from)) {
        parts.push_back(text.substr(from, at - from));
        from = at + separator.size();
    }
    parts.push_back(text.substr(from));
    return parts;
}

std::string messageOf(const Error& e) {
    return e.message();
}

} // namespace

/// State shared by every test, made once for the whole program (the Qt
/// suite's test object and initTestCase).
class TestCodegen : public OnceSuite<TestCodegen> {};

struct EveryKernelCompilesForBothTargetsRow {
    std::string rowLabel;
    std::string model;
    std::string arch;
    std::string strategy;
};

std::vector<EveryKernelCompilesForBothTargetsRow> everyKernelCompilesForBothTargetsRows() {
    std::vector<EveryKernelCompilesForBothTargetsRow> rows;
    auto row = [&rows](const char* model, const char* arch, const char* strategy) {
        rows.push_back({test::rowName("%s %s %s", model, arch, strategy), std::string(model),
                        std::string(arch), std::string(strategy)});
    };
    row("fig3-chain", "teaching", "graphturbo");
    row("fig2-blocks", "teaching", "graphturbo");
    row("resnet-reduced", "stcp920", "tvm");
    row("resnet-reduced", "stcp920", "graphturbo");
    return rows;
}

class EveryKernelCompilesForBothTargetsRows
    : public TestCodegen,
      public ::testing::WithParamInterface<EveryKernelCompilesForBothTargetsRow> {};

TEST_P(EveryKernelCompilesForBothTargetsRows, everyKernelCompilesForBothTargets) {
    std::string model = GetParam().model;
    std::string arch = GetParam().arch;
    std::string strategy = GetParam().strategy;
    ModelFile file = writeZoo(dir_->filePath(model), model);
    auto planned = plan(file, arch, strategy);
    ASSERT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    for (auto [target, machine] :
         {std::pair{codegen::Target::RiscV64, 0xF3}, std::pair{codegen::Target::Host, 0x3E}}) {
        auto program = compile(**planned, target);
        ASSERT_TRUE(program.ok()) << (program.ok() ? "" : program.error().message().c_str());
        ASSERT_EQ(program->kernels.size(), (*planned)->plan.kernels.size());
        for (const codegen::EmittedKernel& k : program->kernels) {
            ASSERT_FALSE(k.parts.empty()) << k.symbol;
            for (const codegen::EmittedPart& part : k.parts) {
                const std::string& object = part.object;
                ASSERT_TRUE(object.size() > 64 && object.compare(0, 4,
                                                                 "\x7f"
                                                                 "ELF") == 0);
                ASSERT_EQ(static_cast<unsigned char>(object[18]), machine); // e_machine
            }
            std::regex abi("define void @" + k.symbol +
                           "\\(ptr [^%]*%tensors, "
                           "ptr [^%]*%arena, ptr [^%]*%scratch, "
                           "i64 %core, i64 %cores, ptr [^%]*%sync\\)");
            ASSERT_TRUE(std::regex_search(k.parts.front().ir, abi)) << k.symbol.c_str();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(TestCodegen, EveryKernelCompilesForBothTargetsRows,
                         ::testing::ValuesIn(everyKernelCompilesForBothTargetsRows()),
                         test::RowName{});

/// Whether RISC-V disassembly sets a vector configuration (vsetvli, or
/// vsetivli for a constant length).
bool configuresVectors(const std::string& text) {
    return test::containsText(text, "vsetvli") || test::containsText(text, "vsetivli");
}

struct RiscvObjectsUseTheVectorExtensionRow {
    std::string rowLabel;
    int graph;
};

std::vector<RiscvObjectsUseTheVectorExtensionRow> riscvObjectsUseTheVectorExtensionRows() {
    std::vector<RiscvObjectsUseTheVectorExtensionRow> rows;
    rows.push_back({"elementwise Add, Mul, Relu", 0});
    rows.push_back({"matmul", 1});
    return rows;
}

class RiscvObjectsUseTheVectorExtensionRows
    : public TestCodegen,
      public ::testing::WithParamInterface<RiscvObjectsUseTheVectorExtensionRow> {};

TEST_P(RiscvObjectsUseTheVectorExtensionRows, riscvObjectsUseTheVectorExtension) {
    int graph = GetParam().graph;
    auto planned = planGraph(graph == 0 ? elementwiseGraph() : matmulGraph());
    auto program = compile(*planned, codegen::Target::RiscV64);
    ASSERT_TRUE(program.ok()) << (program.ok() ? "" : program.error().message().c_str());
    for (const codegen::EmittedKernel& k : program->kernels) {
        std::string text = disassembleParts(k, *dir_);
        ASSERT_TRUE(configuresVectors(text)) << k.symbol.c_str();
    }
}

INSTANTIATE_TEST_SUITE_P(TestCodegen, RiscvObjectsUseTheVectorExtensionRows,
                         ::testing::ValuesIn(riscvObjectsUseTheVectorExtensionRows()),
                         test::RowName{});

TEST_F(TestCodegen, bertMatmulKernelsAreVectorized) {
    ModelFile file = writeZoo(dir_->filePath(std::string("bert")), "bert-2layer", 32);
    auto planned = plan(file, "stcp920", "tvm");
    ASSERT_TRUE(planned.ok()) << (planned.ok() ? "" : planned.error().message().c_str());
    auto program = compile(**planned, codegen::Target::RiscV64);
    ASSERT_TRUE(program.ok()) << (program.ok() ? "" : program.error().message().c_str());
    int matmuls = 0;
    for (size_t i = 0; i < program->kernels.size(); ++i) {
        const codegen::LayerCode& layer = (*planned)->plan.kernels[i].layers.front();
        const std::string& anchor = (*planned)->graph.op(layer.anchor).type;
        if (anchor != "MatMul" && anchor != "Gemm")
            continue;
        ++matmuls;
        const std::string text = disassembleParts(program->kernels[i], *dir_);
        ASSERT_TRUE(configuresVectors(text) &&
                    (test::containsText(text, "vfmacc") || test::containsText(text, "vfmadd")))
            << (program->kernels[i].symbol.c_str());
    }
    ASSERT_TRUE(matmuls >= 12); // 6 linears per layer, and the pooler
}

// On the host, Conv and MatMul take the register-blocked lowering
// (lower_blocked.cpp): their unoptimized IR already multiplies whole vectors
// of the row factor by broadcast scalars of the column factor.
TEST_F(TestCodegen, hostContractionsAreRegisterBlocked) {
    ModelFile file = writeZoo(dir_->filePath(std::string("fig2")), "fig2-blocks");
    auto planned = plan(file, "stcp920", "tvm");
    ASSERT_TRUE(planned.ok());
    const std::regex vectorFma("call <\\d+ x float> @llvm\\.fmuladd\\.v\\d+f32\\(");
    int contractions = 0;
    for (size_t i = 0; i < (*planned)->plan.kernels.size(); ++i) {
        const codegen::KernelCode& k = (*planned)->plan.kernels[i];
        const std::string& anchor = (*planned)->graph.op(k.layers.front().anchor).type;
        if (anchor != "Conv")
            continue;
        ++contractions;
        auto text = codegen::lowerKernelText(
            (*planned)->graph, *(*planned)->evaluation.schedule.semantics, (*planned)->plan, i);
        ASSERT_TRUE(text.ok());
        EXPECT_GT(countMatches(*text, vectorFma), 0) << k.symbol;
        EXPECT_TRUE(test::containsText(*text, "shufflevector")) << k.symbol;
    }
    ASSERT_GE(contractions, 4);
}

// A kernel of many layers compiles in parts (docs/codegen.md, "Kernel
// parts"): each an object of its own, a part's layers defined there and
// declared in the first part, whose kernel function calls them; linked
// together they give the bits of tvm's kernels, one layer each.
TEST_F(TestCodegen, aKernelOfManyLayersCompilesInParts) {
    ModelFile file = writeZoo(dir_->filePath(std::string("resnet")), "resnet-reduced");
    auto graphturbo = plan(file, "stcp920", "graphturbo");
    auto tvm = plan(file, "stcp920", "tvm");
    ASSERT_TRUE(graphturbo.ok() && tvm.ok());
    auto program = compile(**graphturbo, codegen::Target::Host);
    ASSERT_TRUE(program.ok()) << (program.ok() ? "" : program.error().message().c_str());
    size_t split = 0;
    for (const codegen::EmittedKernel& k : program->kernels) {
        split += k.parts.size() > 1 ? 1 : 0;
        for (size_t p = 1; p < k.parts.size(); ++p) {
            std::regex defined("define void @" + k.symbol + "\\.layer(\\d+)\\(");
            std::smatch layer;
            ASSERT_TRUE(std::regex_search(k.parts[p].ir, layer, defined)) << k.fileStem(p);
            EXPECT_TRUE(test::containsText(k.parts.front().ir, "declare void @" + k.symbol +
                                                                   ".layer" + layer[1].str() + "("))
                << k.fileStem(p) << " layer " << layer[1].str();
            EXPECT_FALSE(test::containsText(k.parts[p].ir, "define void @" + k.symbol + "("));
        }
    }
    ASSERT_GE(split, 1u) << "resnet-reduced's graphturbo kernel holds 21 layers, 38 ops";
    auto inputs = codegen::seededInputs((*graphturbo)->graph);
    ASSERT_TRUE(inputs.ok());
    auto parts = runOnHost(**graphturbo, *inputs);
    auto layers = runOnHost(**tvm, *inputs);
    ASSERT_TRUE(parts.ok()) << parts.error().message();
    ASSERT_TRUE(layers.ok()) << layers.error().message();
    ASSERT_EQ(parts->size(), layers->size());
    for (size_t i = 0; i < parts->size(); ++i)
        EXPECT_TRUE((*parts)[i].data == (*layers)[i].data) << (*parts)[i].name;
}

// resnet-reduced's graphturbo kernel compiles in two parts (as above).
TEST_F(TestCodegen, outputIsIdenticalWhateverTheThreads) {
    ModelFile file = writeZoo(dir_->filePath(std::string("resnet")), "resnet-reduced");
    auto planned = plan(file, "stcp920", "graphturbo");
    ASSERT_TRUE(planned.ok());
    auto one = compile(**planned, codegen::Target::RiscV64, 1);
    auto two = compile(**planned, codegen::Target::RiscV64, 2);
    ASSERT_TRUE(one.ok() && two.ok());
    ASSERT_TRUE(std::any_of(one->kernels.begin(), one->kernels.end(),
                            [](const codegen::EmittedKernel& k) { return k.parts.size() > 1; }));
    for (size_t i = 0; i < one->kernels.size(); ++i) {
        ASSERT_EQ(one->kernels[i].parts.size(), two->kernels[i].parts.size());
        for (size_t p = 0; p < one->kernels[i].parts.size(); ++p) {
            ASSERT_TRUE(one->kernels[i].parts[p].ir == two->kernels[i].parts[p].ir);
            ASSERT_TRUE(one->kernels[i].parts[p].object == two->kernels[i].parts[p].object);
        }
    }
    // The manifests agree but for the compile times they report.
    codegen::ManifestInfo info{"resnet-reduced", "stcp920", "graphturbo"};
    auto manifestOf = [&](codegen::EmittedProgram program) {
        for (codegen::EmittedKernel& k : program.kernels)
            k.seconds = 0;
        return codegen::writeManifestJson((*planned)->graph, (*planned)->plan, program, info);
    };
    ASSERT_EQ(manifestOf(*one), manifestOf(*two));
}

// A host emission's table says which weight its kernels read transposed
// (resnet-reduced's fc, GlobalTensor::hostTransposed); the riscv64 objects
// read every weight as stored, and their manifest says nothing of it.
TEST_F(TestCodegen, hostManifestNamesTheTransposedWeight) {
    ModelFile file = writeZoo(dir_->filePath(std::string("resnet-t")), "resnet-reduced");
    auto planned = plan(file, "stcp920", "tvm");
    ASSERT_TRUE(planned.ok());
    codegen::ManifestInfo info{"resnet-reduced", "stcp920", "tvm"};
    auto manifestFor = [&](codegen::Target target) {
        codegen::EmittedProgram program;
        program.target = target;
        return codegen::writeManifestJson((*planned)->graph, (*planned)->plan, program, info);
    };
    EXPECT_EQ(test::countText(manifestFor(codegen::Target::Host), "\"layout\": \"transposed\""), 1);
    EXPECT_EQ(test::countText(manifestFor(codegen::Target::RiscV64), "\"layout\""), 0);
}

TEST_F(TestCodegen, multiCoreKernelsMeetBetweenLayers) {
    ModelFile file = writeZoo(dir_->filePath(std::string("fig2b")), "fig2-blocks");
    auto planned = plan(file, "stcp920", "gt-gb");
    ASSERT_TRUE(planned.ok());
    const codegen::KernelCode& k = (*planned)->plan.kernels.front();
    ASSERT_TRUE(k.cores > 1 && k.layers.size() > 1);
    auto text = codegen::lowerKernelText(
        (*planned)->graph, *(*planned)->evaluation.schedule.semantics, (*planned)->plan, 0);
    ASSERT_TRUE(text.ok());
    ASSERT_EQ(test::countText(*text, "call void @sc_barrier("),
              static_cast<int>(k.layers.size()) - 1);
    // For a runner that runs the cores of each layer in turn (the host's).
    EXPECT_TRUE(test::containsText(*text, "@" + k.symbol + "_layers = constant [" +
                                              std::to_string(k.layers.size()) + " x ptr]"));
}

// A layer of many fused ops is emitted as calls of functions of at most
// 16 ops each, which keeps LLVM's compile time linear in the kernel's
// size (2,000 fused ops took minutes in one function); the ops still run
// in order on every tile.
TEST_F(TestCodegen, longFusedLayersAreSplitIntoOpFunctions) {
    ir::Graph g;
    gops::Builder b(g);
    ir::TensorId x = b.input({1, 16, 8, 8});
    for (int i = 0; i < 39; ++i)
        x = gops::unary(b, "Neg", x);
    gops::unary(b, "Relu", x);
    b.finish();
    auto planned = planGraph(std::move(g));
    ASSERT_EQ(planned->plan.kernels.size(), size_t{1});
    ASSERT_EQ(planned->plan.kernels.front().layers.front().ops.size(), size_t{40});
    auto text = codegen::lowerKernelText(planned->graph, *planned->evaluation.schedule.semantics,
                                         planned->plan, 0);
    ASSERT_TRUE(text.ok());
    std::string ir = *text;
    ASSERT_EQ(countMatches(ir, std::regex("define internal void @\\S+\\.ops\\d+\\(")), 3);
    auto program = compile(*planned, codegen::Target::Host);
    ASSERT_TRUE(program.ok()) << (program.ok() ? "" : messageOf(program.error()).c_str());
    auto host = codegen::HostProgram::load(planned->graph, planned->plan, *program);
    ASSERT_TRUE(host.ok());
    auto inputs = codegen::seededInputs(planned->graph);
    ASSERT_TRUE(inputs.ok());
    auto outputs = (*host)->run(*inputs);
    ASSERT_TRUE(outputs.ok());
    const codegen::HostTensor& in = inputs->front();
    const codegen::HostTensor& out = outputs->front();
    for (int64_t i = 0; i < in.elementCount(); ++i)
        ASSERT_FUZZY_EQ(out.at(i), std::max(-in.at(i), 0.0)); // relu(-x): 39 negations
}

// A layer's views are disjoint unless their storage overlaps, and its
// loads and stores say so (alias scopes, docs/codegen.md "Aliasing"):
// without them the matmul of a stitched instance, whose operands are all
// offsets into the one arena, stayed scalar (BERT's attention matmuls ran
// 5x slower as one graphturbo kernel than as tvm's kernels).
TEST_F(TestCodegen, stitchedLayersAreVectorized) {
    ir::Graph g;
    gops::Builder b(g);
    ir::TensorId probs = gops::unary(b, "Relu", b.input({1, 12, 128, 128}));
    ir::TensorId values = gops::unary(b, "Relu", b.input({1, 12, 128, 64}));
    gops::matmul(b, gops::matmul(b, probs, values), b.weight({64, 64}));
    b.finish();
    auto planned = planGraph(std::move(g), "graphturbo", "host-cpu");
    bool stitched = false;
    for (const codegen::KernelCode& k : planned->plan.kernels)
        for (const codegen::LayerCode& layer : k.layers)
            for (const codegen::View& v : layer.views)
                stitched = stitched || v.home == codegen::Home::Stitched;
    ASSERT_TRUE(stitched) << "the intermediates are stitched into the arena";
    auto program = compile(*planned, codegen::Target::Host);
    ASSERT_TRUE(program.ok()) << (program.ok() ? "" : messageOf(program.error()).c_str());
    int multiplying = 0;
    for (const codegen::EmittedKernel& k : program->kernels) {
        std::string ir;
        for (const codegen::EmittedPart& part : k.parts)
            ir += part.ir;
        std::vector<std::string> functions = splitKeepingEmpty(ir, "\ndefine ");
        for (const std::string& f : functions) {
            if (!test::containsText(f, "@llvm.fmuladd"))
                continue;
            ++multiplying;
            ASSERT_TRUE(std::regex_search(f, std::regex("@llvm\\.fmuladd\\.v\\d+f32")))
                << (f.substr(0, f.find('(')));
        }
    }
    ASSERT_TRUE(multiplying >= 2);
}

TEST_F(TestCodegen, unsupportedOpsAreNamed) {
    ir::Graph g;
    gops::Builder b(g);
    ir::TensorId x = b.input({4, 16});
    b.emit("TopK", {x}, {{4, 3}, {4, 3}},
           gops::attrs({{"k", int64_t{3}},
                        {"axis", int64_t{1}},
                        {"largest", int64_t{1}},
                        {"sorted", int64_t{1}}}));
    b.finish();
    auto planned = planGraph(std::move(g));
    auto program = compile(*planned, codegen::Target::Host);
    ASSERT_TRUE(!program.ok());
    ASSERT_TRUE(messageOf(program.error()).find("op 'TopK_0' (TopK)") != std::string::npos)
        << (messageOf(program.error()).c_str());
}

TEST_F(TestCodegen, hostRunnerRefusesRiscvObjects) {
    auto planned = planGraph(elementwiseGraph());
    auto program = compile(*planned, codegen::Target::RiscV64);
    ASSERT_TRUE(program.ok());
    auto host = codegen::HostProgram::load(planned->graph, planned->plan, *program);
    ASSERT_TRUE(!host.ok());
    ASSERT_TRUE(messageOf(host.error()).find("riscv64") != std::string::npos);
}

// Issue 60: LLVM's allocation failure aborted with a core dump.
TEST(TestCodegenDeathTest, llvmRunningOutOfMemoryIsOneLineAndStatusOne) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            support::installLlvmOutOfMemoryHandler();
            llvm::report_bad_alloc_error("allocation failed");
        },
        testing::ExitedWithCode(1), "^stagecraft: error: LLVM ran out of memory while compiling");
}
