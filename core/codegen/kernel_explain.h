#pragma once
/// \file
/// One kernel's optimized LLVM IR and assembly with every line tied to the
/// op it comes from, as Compiler Explorer ties source and assembly: the
/// kernel is lowered with its listing (kernel_listing.h) as the source file,
/// each instruction carrying the listing line of its op, promotion or tile
/// loop as a debug location; after the O0–O3 pipeline the IR's !dbg
/// locations and the assembly's .loc directives name those lines again.
/// The objects `stagecraft emit` writes carry no debug information; this is
/// for reading (Studio's kernel view, docs/studio.md).

#include "codegen/codegen.h"
#include "codegen/kernel_listing.h"

#include <string>
#include <vector>

namespace stagecraft::codegen {

struct ExplainedLine {
    std::string text;
    /// The 1-based listing line the code was emitted for, or 0 (labels,
    /// directives, code the optimizer merged from several lines).
    int sourceLine = 0;
    /// The op of that listing line, or kNoOp.
    ir::OpId op = ir::kNoOp;
};

struct KernelExplanation {
    Target target = Target::RiscV64;
    int optLevel = 2;
    /// The optimized module, its debug metadata left out.
    std::vector<ExplainedLine> ir;
    /// The assembly, its debug sections and CFI directives left out.
    std::vector<ExplainedLine> assembly;
};

/// Lowers kernel \p index of \p plan as one module, optimizes it at
/// \p optLevel for \p target and prints its IR and assembly, each line tied
/// to \p listing (listKernel of the same plan and index). Fails as
/// emitProgram does, naming the op.
Expected<KernelExplanation> explainKernel(const ir::Graph& graph,
                                          const partition::SemanticsCache& semantics,
                                          const CodePlan& plan, size_t index,
                                          const KernelListing& listing, Target target,
                                          int optLevel);

/// Parsing of the printed texts (kernel_explain.cpp), for tests: the IR's
/// lines with their !dbg locations resolved and the debug metadata dropped.
std::vector<ExplainedLine> explainIrText(const std::string& text, const KernelListing& listing);
/// The assembly's lines with the .loc line in force at each instruction.
std::vector<ExplainedLine> explainAssemblyText(const std::string& text,
                                               const KernelListing& listing);

} // namespace stagecraft::codegen
