#pragma once
/// \file
/// Kernel emission through LLVM (GraphTurbo §4, §5): every kernel plan of a
/// code plan becomes one LLVM module with one function, optimized with the
/// O2/O3 pipeline for a target machine (the DSA's RISC-V vector cores, or
/// the host, so that the vectorizers see real vector widths) and compiled to
/// an ELF object. No LLVM type appears here: callers include this header
/// only. docs/codegen.md describes the kernel ABI and the files.

#include "codegen/code_plan.h"
#include "codegen/vector_report.h"
#include "partition/slices.h"
#include "support/expected.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::codegen {

enum class Target { Host, RiscV64 };
std::string_view targetName(Target target);
/// "host" or "riscv64".
std::optional<Target> parseTarget(std::string_view name);

/// The machine a target compiles for.
struct TargetInfo {
    std::string triple;
    std::string cpu;
    std::string features;
};
/// riscv64: rv64gcv (the vector extension, as STCP920's cores, §5); host:
/// this machine's triple, CPU and features.
TargetInfo targetInfo(Target target);

/// The CPU `emit --target host` compiles for unless told: a portable level of
/// this machine's architecture (x86-64-v3 on x86-64, else "generic").
std::string portableHostCpu();

/// The machine of \p target for \p cpu and \p vlen. Host: \p cpu "" or
/// "native" is this machine's (targetInfo), another name a CPU LLVM knows
/// for this triple (its features implied). riscv64: \p cpu must be empty;
/// \p vlen 0 (any VLEN) or 128..1024, a power of two: the objects assume at
/// least that many bits per vector register (+zvl<vlen>b) and run on no
/// machine of fewer. The error names the option.
Expected<TargetInfo> resolveTarget(Target target, const std::string& cpu, int vlen);

struct EmitOptions {
    Target target = Target::Host;
    /// 0..3: the LLVM pipeline (O2 and O3 vectorize).
    int optLevel = 2;
    /// Kernels compiled at once, each on its own LLVM context; 0: one per
    /// hardware thread.
    int threads = 0;
    /// Keep the optimized IR text of each kernel (the .ll files).
    bool keepIr = true;
    /// The object cache's directory (object_cache.h): a kernel found there
    /// is not compiled again, a compiled one is stored. Empty: no cache.
    std::filesystem::path cacheDir;
    /// Host: the CPU to compile for ("" or "native": this machine's; see
    /// resolveTarget). riscv64: empty.
    std::string cpu{};
    /// riscv64: the least VLEN the objects may assume, or 0 (any).
    int vlen = 0;
    /// Read each part's assembly, as LLVM prints it verbosely (with its
    /// loop and spill comments), into EmittedProgram::vectorReport.
    bool vectorReport = false;
    /// Keep each part's verbose assembly (EmittedPart::assembly) on any
    /// target; the vector report keeps it too.
    bool keepAssembly = false;
};

/// One module of a kernel, compiled on its own (docs/codegen.md, "Kernel
/// parts"): the first holds the kernel's function and its first layers, the
/// others the layers after them.
struct EmittedPart {
    /// The optimized module as text.
    std::string ir;
    /// The relocatable ELF object.
    std::string object;
    /// Its assembly, verbose (EmitOptions::vectorReport or keepAssembly),
    /// else empty.
    std::string assembly;
    /// Instructions in the optimized functions, for reports.
    int64_t instructions = 0;
    /// Whether the object came from the object cache, not the compiler.
    bool cached = false;
    /// Wall time of lowering, then compiling or reading the cache.
    double seconds = 0;
};

struct EmittedKernel {
    std::string symbol;
    /// At least one; a kernel links all of its parts' objects.
    std::vector<EmittedPart> parts;
    /// Over the parts: instructions, whether every part came from the
    /// cache, and the seconds they took (summed: the compile work).
    int64_t instructions = 0;
    bool cached = false;
    double seconds = 0;

    /// The file name stem of part \p part: the symbol, then ".part<N>".
    std::string fileStem(size_t part) const;
};

struct EmittedProgram {
    Target target = Target::Host;
    TargetInfo machine;
    /// riscv64: the least VLEN the objects assume (EmitOptions::vlen), or 0.
    int vlen = 0;
    int optLevel = 2;
    /// Whether an object cache was used (EmitOptions::cacheDir).
    bool objectCache = false;
    /// Why the cache asked for was not used ("no object cache: <dir>: belongs
    /// to another user ..."), to be said once; empty otherwise.
    std::string cacheNote;
    /// In the order of the plan's kernels.
    std::vector<EmittedKernel> kernels;
    /// How the kernels use the vector unit (EmitOptions::vectorReport).
    std::optional<VectorReport> vectorReport;
    /// vectorReport as the vector-report.json the emission writes (made
    /// once: the manifest hashes the same bytes), else empty.
    std::string vectorReportJson;
};

/// Kernels done so far, of which \p cached came from the object cache, and
/// the parts (docs/codegen.md, "Kernel parts") done of all the kernels'.
struct EmitCount {
    size_t done = 0;
    size_t total = 0;
    size_t cached = 0;
    size_t partsDone = 0;
    size_t partsTotal = 0;
};

/// Called after each part of a kernel (so a kernel of many parts reports
/// while it compiles); returning false cancels (the result is then a
/// "cancelled" error).
using EmitProgress = std::function<bool(const EmitCount& count)>;

/// Lowers, verifies (llvm::verifyModule before and after optimizing),
/// optimizes and compiles every kernel of \p plan. Output is deterministic:
/// the same plan and options give byte-identical IR and objects. Fails,
/// naming the op, for an op or element type code generation does not
/// support.
Expected<EmittedProgram> emitProgram(const ir::Graph& graph,
                                     const partition::SemanticsCache& semantics,
                                     const CodePlan& plan, const EmitOptions& options,
                                     const EmitProgress& progress = {});

/// The unoptimized IR of kernel \p index, verified (for tests and --explain).
Expected<std::string> lowerKernelText(const ir::Graph& graph,
                                      const partition::SemanticsCache& semantics,
                                      const CodePlan& plan, size_t index);

} // namespace stagecraft::codegen
