// A kernel's listing (Fig. 11 right) and its IR and assembly tied to it:
// the listing has one statement per op of the kernel, a loop per tile loop
// and a line per promotion; the explained IR and assembly carry no debug
// noise, and their lines name the ops of the statements they were emitted
// for (every op that computes gets instructions, a contraction gets the
// vector instructions on riscv64); the parsers resolve locations as LLVM
// prints them; normal emission stays free of debug information.

#include "arch/presets.h"
#include "codegen/kernel_explain.h"
#include "codegen_fixture.h"
#include "coretestsupport.h"
#include "graph_ops.h"

#include <gtest/gtest.h>
#include <set>

using namespace stagecraft;
using namespace stagecraft::test;
namespace gops = stagecraft::test::graphops;

namespace {

/// conv → bn → relu → conv → relu, scheduled by \p strategy on stcp920.
std::unique_ptr<Planned> planChain(const std::string& strategy) {
    auto planned = std::make_unique<Planned>();
    gops::Builder b(planned->graph);
    ir::TensorId x = b.input({1, 16, 32, 32});
    ir::TensorId y =
        gops::unary(b, "Relu", gops::batchNorm(b, gops::conv(b, x, 32, 3, 1, 1, 1, true)));
    gops::unary(b, "Relu", gops::conv(b, y, 32, 3, 1, 1, 1, true));
    b.finish();
    auto arch = arch::resolveArch("stcp920");
    SC_ASSERT(arch.ok(), "a preset");
    auto ev =
        sim::evaluate(planned->graph, *arch, *sim::findStrategy(strategy), schedule::ClusterPlan{});
    SC_ASSERT(ev.ok(), "the chain schedules");
    planned->evaluation = std::move(ev).value();
    auto plan = codegen::planCode(planned->graph, planned->evaluation.schedule,
                                  planned->evaluation.program);
    SC_ASSERT(plan.ok(), "the chain plans");
    planned->plan = std::move(plan).value();
    return planned;
}

size_t countKind(const codegen::KernelListing& listing, codegen::ListingLine::Kind kind,
                 int layer) {
    size_t n = 0;
    for (const auto& line : listing.lines)
        n += line.kind == kind && line.layer == layer;
    return n;
}

} // namespace

TEST(KernelListing, HasAStatementPerOpALoopPerTileLoopAndALinePerPromotion) {
    auto p = planChain("graphturbo");
    ASSERT_FALSE(p->plan.kernels.empty());
    for (size_t k = 0; k < p->plan.kernels.size(); ++k) {
        const codegen::KernelCode& kernel = p->plan.kernels[k];
        codegen::KernelListing listing = codegen::listKernel(p->graph, p->plan, k);
        EXPECT_EQ(listing.symbol, kernel.symbol);
        for (size_t l = 0; l < kernel.layers.size(); ++l) {
            const codegen::LayerCode& layer = kernel.layers[l];
            int li = static_cast<int>(l);
            EXPECT_EQ(countKind(listing, codegen::ListingLine::Kind::Statement, li),
                      layer.ops.size());
            EXPECT_EQ(countKind(listing, codegen::ListingLine::Kind::Loop, li), layer.tiles.size());
            EXPECT_EQ(countKind(listing, codegen::ListingLine::Kind::Promotion, li),
                      layer.promotions.size());
            for (const codegen::OpStep& step : layer.ops) {
                int line = listing.statementLine(step.op);
                ASSERT_GT(line, 0);
                EXPECT_EQ(listing.opOfLine(line), step.op);
                const std::string& text = listing.lines[static_cast<size_t>(line) - 1].text;
                EXPECT_NE(text.find(p->graph.op(step.op).type + "("), std::string::npos) << text;
                EXPECT_NE(text.find("# " + p->graph.op(step.op).name), std::string::npos);
            }
            for (const codegen::Promotion& promotion : layer.promotions)
                EXPECT_GT(listing.promotionLine(li, promotion.weight), 0);
            int loop = listing.layerLine(li);
            ASSERT_GT(loop, 0);
            if (!layer.tiles.empty()) {
                EXPECT_EQ(listing.lines[static_cast<size_t>(loop) - 1].kind,
                          codegen::ListingLine::Kind::Loop);
            }
        }
        std::string text = codegen::listingText(listing);
        EXPECT_EQ(std::count(text.begin(), text.end(), '\n'),
                  static_cast<std::ptrdiff_t>(listing.lines.size()));
    }
    codegen::KernelListing past = codegen::listKernel(p->graph, p->plan, p->plan.kernels.size());
    EXPECT_TRUE(past.lines.empty());
}

TEST(KernelListing, NamesStitchedBuffersAndTheirArenaOffsets) {
    auto p = planChain("graphturbo");
    bool stitched = false;
    for (size_t k = 0; k < p->plan.kernels.size(); ++k) {
        std::string text = codegen::listingText(codegen::listKernel(p->graph, p->plan, k));
        for (const auto& layer : p->plan.kernels[k].layers)
            for (const auto& view : layer.views)
                if (view.home == codegen::Home::Stitched) {
                    stitched = true;
                    EXPECT_NE(text.find("stitched  arena+" + std::to_string(view.offset)),
                              std::string::npos);
                }
    }
    EXPECT_TRUE(stitched) << "GraphTurbo stitches conv → conv inside an instance (§4.2)";
}

TEST(KernelExplain, TiesRiscvInstructionsToTheOpsOfTheListing) {
    auto p = planChain("graphturbo");
    codegen::KernelListing listing = codegen::listKernel(p->graph, p->plan, 0);
    auto explained = codegen::explainKernel(p->graph, *p->evaluation.schedule.semantics, p->plan, 0,
                                            listing, codegen::Target::RiscV64, 2);
    ASSERT_TRUE(explained.ok()) << explained.error().message();
    std::set<ir::OpId> inKernel;
    for (const auto& layer : p->plan.kernels[0].layers)
        for (const auto& step : layer.ops)
            inKernel.insert(step.op);
    std::set<ir::OpId> withAssembly;
    bool vectorConv = false;
    for (const codegen::ExplainedLine& line : explained->assembly) {
        EXPECT_EQ(line.text.find(".loc"), std::string::npos) << line.text;
        EXPECT_EQ(line.text.find(".cfi_"), std::string::npos) << line.text;
        if (line.op == ir::kNoOp)
            continue;
        EXPECT_TRUE(inKernel.count(line.op)) << line.text;
        EXPECT_EQ(listing.opOfLine(line.sourceLine), line.op);
        withAssembly.insert(line.op);
        vectorConv = vectorConv || (p->graph.op(line.op).type == "Conv" &&
                                    line.text.find("\tv") != std::string::npos);
    }
    for (ir::OpId op : inKernel)
        EXPECT_TRUE(withAssembly.count(op)) << p->graph.op(op).name << " has no instructions";
    EXPECT_TRUE(vectorConv) << "a Conv's RVV instructions are tied to it";
    bool tiedIr = false;
    for (const codegen::ExplainedLine& line : explained->ir) {
        EXPECT_EQ(line.text.find("!dbg"), std::string::npos) << line.text;
        EXPECT_EQ(line.text.find("!DI"), std::string::npos) << line.text;
        tiedIr = tiedIr || line.op != ir::kNoOp;
    }
    EXPECT_TRUE(tiedIr);
}

TEST(KernelExplain, WorksForTheHostAndEveryStrategysKernels) {
    for (const char* strategy : {"tvm", "graphturbo"}) {
        auto p = planChain(strategy);
        codegen::KernelListing listing = codegen::listKernel(p->graph, p->plan, 0);
        auto explained = codegen::explainKernel(p->graph, *p->evaluation.schedule.semantics,
                                                p->plan, 0, listing, codegen::Target::Host, 1);
        ASSERT_TRUE(explained.ok()) << strategy << ": " << explained.error().message();
        EXPECT_EQ(explained->optLevel, 1);
        EXPECT_TRUE(std::any_of(explained->assembly.begin(), explained->assembly.end(),
                                [](const auto& l) { return l.op != ir::kNoOp; }))
            << strategy;
    }
    auto p = planChain("tvm");
    auto missing = codegen::explainKernel(p->graph, *p->evaluation.schedule.semantics, p->plan, 99,
                                          {}, codegen::Target::Host, 2);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message().find("kernel 99"), std::string::npos);
}

TEST(KernelExplain, ParsesLocationsAsLlvmPrintsThem) {
    codegen::KernelListing listing;
    listing.lines = {{codegen::ListingLine::Kind::Comment, "# head", ir::kNoOp, -1, {}},
                     {codegen::ListingLine::Kind::Statement, "y = Relu(x)", ir::OpId(7), 0, {}}};
    auto ir = codegen::explainIrText("define void @f() !dbg !4 {\n"
                                     "  %a = fadd float %x, %y, !dbg !9\n"
                                     "  ret void, !dbg !10\n"
                                     "}\n"
                                     "!llvm.dbg.cu = !{!0}\n"
                                     "!3 = !{!\"scope\"}\n"
                                     "!9 = !DILocation(line: 2, scope: !4)\n"
                                     "!10 = !DILocation(line: 1, scope: !4)\n",
                                     listing);
    ASSERT_EQ(ir.size(), 5u);
    EXPECT_EQ(ir[0].text, "define void @f() {");
    EXPECT_EQ(ir[1].text, "  %a = fadd float %x, %y");
    EXPECT_EQ(ir[1].op, ir::OpId(7));
    EXPECT_EQ(ir[2].sourceLine, 1);
    EXPECT_EQ(ir[2].op, ir::kNoOp);
    EXPECT_EQ(ir[4].text, "!3 = !{!\"scope\"}") << "alias scopes stay";
    auto assembly = codegen::explainAssemblyText("f:\n"
                                                 ".Lfunc_begin0:\n"
                                                 "\t.loc\t1 2 0 prologue_end\n"
                                                 "\tvfadd.vv\tv8, v8, v9\n"
                                                 "\t.cfi_def_cfa_offset 16\n"
                                                 ".LBB0_1:\n"
                                                 "\tret\n"
                                                 "g:\n"
                                                 "\tret\n"
                                                 "\t.section\t.debug_line,\"\",@progbits\n"
                                                 "\t.word 7\n",
                                                 listing);
    ASSERT_EQ(assembly.size(), 6u);
    EXPECT_EQ(assembly[1].op, ir::OpId(7));
    EXPECT_EQ(assembly[2].text, ".LBB0_1:");
    EXPECT_EQ(assembly[3].sourceLine, 2) << "the .loc stays in force";
    EXPECT_EQ(assembly[5].sourceLine, 0) << "a new function starts with no line";
}

TEST(KernelExplain, LeavesTheEmittedKernelsFreeOfDebugInformation) {
    auto p = planChain("graphturbo");
    auto program = codegen::emitProgram(p->graph, *p->evaluation.schedule.semantics, p->plan,
                                        {codegen::Target::Host, 2, 1, true, {}});
    ASSERT_TRUE(program.ok()) << program.error().message();
    for (const auto& kernel : program->kernels)
        for (const auto& part : kernel.parts)
            EXPECT_EQ(part.ir.find("!dbg"), std::string::npos);
}
