// A kernel's IR and assembly tied to its listing (kernel_explain.h). The
// kernel is lowered as one module whose "source file" is the listing: a
// line-tables-only compile unit, a subprogram per function and a debug
// location per instruction (kernel_function.cpp, lower_kernel.cpp). The
// optimizer keeps an instruction's location where it moves or vectorizes
// it and drops it where it merges code of several lines, as it does for C;
// such lines are tied to no op. The printed texts are then read back: the
// IR's !dbg attachments resolved through its DILocation nodes, the
// assembly's instructions through the .loc directive in force.

#include "codegen/kernel_explain.h"

#include "codegen/internal/lowering.h"

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string_view>

namespace stagecraft::codegen {

namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
    std::vector<std::string_view> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

/// The number at the start of \p text (0 when there is none).
int leadingNumber(std::string_view text) {
    int value = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            break;
        value = value * 10 + (c - '0');
    }
    return value;
}

std::string_view trimLeft(std::string_view text) {
    size_t first = text.find_first_not_of(" \t");
    return first == std::string_view::npos ? std::string_view() : text.substr(first);
}

bool startsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

/// Module-level metadata that only describes the debug information.
bool isDebugMetadata(std::string_view line) {
    if (startsWith(line, "!llvm.dbg.cu") || startsWith(line, "!llvm.module.flags"))
        return true;
    if (!startsWith(line, "!"))
        return false;
    return line.find("!DI") != std::string_view::npos ||
           line.find("Dwarf Version") != std::string_view::npos ||
           line.find("Debug Info Version") != std::string_view::npos;
}

/// \p line without its " !dbg !N" attachment; \p id receives N (or -1).
std::string withoutDbg(std::string_view line, int& id) {
    id = -1;
    size_t at = line.find(" !dbg !");
    if (at == std::string_view::npos)
        return std::string(line);
    size_t digits = at + 7;
    id = leadingNumber(line.substr(digits));
    size_t end = digits;
    while (end < line.size() && line[end] >= '0' && line[end] <= '9')
        ++end;
    size_t start = at > 0 && line[at - 1] == ',' ? at - 1 : at;
    return std::string(line.substr(0, start)) + std::string(line.substr(end));
}

ExplainedLine tied(std::string text, int sourceLine, const KernelListing& listing) {
    return {std::move(text), sourceLine, listing.opOfLine(sourceLine)};
}

/// Labels and directives the debug information adds to the assembly.
bool isDebugLabel(std::string_view label) {
    for (std::string_view prefix :
         {".Ltmp", ".Lfunc_begin", ".Ldebug", ".Lcu_begin", ".Lline_table", ".Lsec_end"})
        if (startsWith(label, prefix))
            return true;
    return false;
}

} // namespace

std::vector<ExplainedLine> explainIrText(const std::string& text, const KernelListing& listing) {
    std::vector<std::string_view> lines = splitLines(text);
    std::map<int, int> lineOfLocation;
    for (std::string_view line : lines) {
        size_t at = line.find("!DILocation(line: ");
        if (startsWith(line, "!") && at != std::string_view::npos)
            lineOfLocation[leadingNumber(line.substr(1))] = leadingNumber(line.substr(at + 18));
    }
    std::vector<ExplainedLine> result;
    for (std::string_view line : lines) {
        if (isDebugMetadata(line))
            continue;
        int id = -1;
        std::string plain = withoutDbg(line, id);
        auto found = lineOfLocation.find(id);
        result.push_back(
            tied(std::move(plain), found == lineOfLocation.end() ? 0 : found->second, listing));
    }
    while (!result.empty() && result.back().text.empty())
        result.pop_back();
    return result;
}

std::vector<ExplainedLine> explainAssemblyText(const std::string& text,
                                               const KernelListing& listing) {
    std::vector<ExplainedLine> result;
    int current = 0;
    bool inDebugSection = false;
    for (std::string_view line : splitLines(text)) {
        std::string_view code = trimLeft(line);
        if (startsWith(code, ".section")) {
            inDebugSection = code.find(".debug_") != std::string_view::npos;
            if (inDebugSection)
                continue;
        }
        if (inDebugSection || startsWith(code, ".file") || startsWith(code, ".cfi_"))
            continue;
        if (startsWith(code, ".loc")) { // .loc FILE LINE [COLUMN] [flags]
            size_t at = code.find_first_of(" \t");
            std::string_view rest = trimLeft(code.substr(at == std::string_view::npos ? 0 : at));
            size_t space = rest.find_first_of(" \t");
            current =
                leadingNumber(trimLeft(space == std::string_view::npos ? "" : rest.substr(space)));
            continue;
        }
        bool label = !line.empty() && line[0] != '\t' && line[0] != ' ' && code.ends_with(':');
        if (label && isDebugLabel(code))
            continue;
        if (label && !startsWith(code, ".L")) // a function begins
            current = 0;
        bool instruction = !label && !code.empty() && code[0] != '.' && code[0] != '#';
        result.push_back(tied(std::string(line), instruction ? current : 0, listing));
    }
    return result;
}

Expected<KernelExplanation> explainKernel(const ir::Graph& graph,
                                          const partition::SemanticsCache& semantics,
                                          const CodePlan& plan, size_t index,
                                          const KernelListing& listing, Target target,
                                          int optLevel) {
    if (index >= plan.kernels.size())
        return Error("kernel " + std::to_string(index) + " does not exist");
    detail::initializeTargets();
    const int level = std::clamp(optLevel, 0, 3);
    SC_ASSIGN_OR_RETURN(auto machine, detail::makeMachine(targetInfo(target), level));
    const KernelCode& kernel = plan.kernels[index];
    llvm::LLVMContext ctx;
    llvm::Module module(kernel.symbol, ctx);
    module.setSourceFileName(kernel.symbol + ".loops");
    module.setTargetTriple(machine->getTargetTriple().str());
    module.setDataLayout(machine->createDataLayout());
    detail::setVectorBits(module, *machine);
    module.addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
    module.addModuleFlag(llvm::Module::Warning, "Dwarf Version", 4);
    llvm::DIBuilder di(module);
    detail::SourceLines lines{&di, di.createFile(kernel.symbol + ".loops", "."), &listing};
    di.createCompileUnit(llvm::dwarf::DW_LANG_C, lines.file, "stagecraft", level > 0, "", 0, "",
                         llvm::DICompileUnit::LineTablesOnly);
    SC_RETURN_IF_ERROR(detail::lowerKernelPart(module, graph, semantics, kernel,
                                               {{0, kernel.layers.size()}}, 0, &lines));
    detail::optimize(module, *machine, level);
    if (llvm::verifyModule(module, nullptr))
        return Error("kernel " + kernel.symbol + ": the optimized IR does not verify");
    std::string ir;
    llvm::raw_string_ostream irOut(ir);
    module.print(irOut, nullptr);
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream asmOut(buffer);
    llvm::legacy::PassManager passes;
    if (machine->addPassesToEmitFile(passes, asmOut, nullptr, llvm::CodeGenFileType::AssemblyFile))
        return Error("target " + machine->getTargetTriple().str() + " cannot print assembly");
    passes.run(module);
    KernelExplanation explained;
    explained.target = target;
    explained.optLevel = level;
    explained.ir = explainIrText(irOut.str(), listing);
    explained.assembly = explainAssemblyText(std::string(buffer.begin(), buffer.end()), listing);
    return explained;
}

} // namespace stagecraft::codegen
