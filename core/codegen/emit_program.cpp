// Kernel emission (docs/codegen.md): each kernel is lowered into a module of
// its own on its own LLVMContext, verified, optimized with the new pass
// manager's O1/O2/O3 pipeline for a target machine (so the loop and SLP
// vectorizers see the target's vector widths: RVV on riscv64, the host's
// SIMD on the host) and compiled to an ELF object. Kernels are independent,
// so they are compiled on several threads, and a kernel of many layers in
// parts (lower_kernel.cpp), each a module and an object of its own; each
// result lands in its slot, which keeps the output identical whatever the
// thread count. With an object
// cache (object_cache.h) a kernel whose unoptimized IR, target and level
// were compiled before is read back instead of compiled.

#include "codegen/codegen.h"
#include "codegen/internal/lowering.h"
#include "codegen/object_cache.h"
#include "support/llvm_bad_alloc.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

extern "C" {
void LLVMInitializeRISCVTargetInfo();
void LLVMInitializeRISCVTarget();
void LLVMInitializeRISCVTargetMC();
void LLVMInitializeRISCVAsmPrinter();
}

namespace stagecraft::codegen {

void detail::initializeTargets() {
    static std::once_flag once;
    std::call_once(once, [] {
        support::installLlvmOutOfMemoryHandler();
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        LLVMInitializeRISCVTargetInfo();
        LLVMInitializeRISCVTarget();
        LLVMInitializeRISCVTargetMC();
        LLVMInitializeRISCVAsmPrinter();
        // STAGECRAFT_TIME_PASSES set: LLVM's time per pass, of the
        // optimization pipeline and of code generation, printed to stderr
        // after each kernel (docs/codegen.md; meaningful on one thread).
        llvm::TimePassesIsEnabled = std::getenv("STAGECRAFT_TIME_PASSES") != nullptr;
    });
}

Expected<std::unique_ptr<llvm::TargetMachine>> detail::makeMachine(const TargetInfo& info,
                                                                   int optLevel) {
    std::string problem;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(info.triple, problem);
    if (target == nullptr)
        return Error("target " + info.triple + ": " + problem);
    llvm::TargetOptions options;
    auto level = optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
                 : optLevel == 0 ? llvm::CodeGenOptLevel::None
                                 : llvm::CodeGenOptLevel::Default;
    std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
        info.triple, info.cpu, info.features, options, llvm::Reloc::PIC_, std::nullopt, level));
    if (!machine)
        return Error("target " + info.triple + ": LLVM could not create a target machine");
    return machine;
}

void detail::optimize(llvm::Module& module, llvm::TargetMachine& machine, int optLevel) {
    // LLVM's loop and SLP vectorizers prefer 256 bits on AVX-512 CPUs (a
    // tuning against clock throttling on early ones); the lowering's own
    // vectors are 512 bits there, and so are ONNX Runtime's kernels.
    if (machine.getTargetTriple().isX86() && detail::vectorBitsOf(module) == 512)
        for (llvm::Function& f : module)
            if (!f.isDeclaration())
                f.addFnAttr("prefer-vector-width", "512");
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PipelineTuningOptions tuning;
    tuning.LoopVectorization = optLevel >= 2;
    tuning.SLPVectorization = optLevel >= 2;
    llvm::PassInstrumentationCallbacks callbacks;
    llvm::TimePassesHandler timer(llvm::TimePassesIsEnabled); // prints when destroyed
    timer.registerCallbacks(callbacks);
    llvm::PassBuilder builder(&machine, tuning, std::nullopt, &callbacks);
    builder.registerModuleAnalyses(mam);
    builder.registerCGSCCAnalyses(cgam);
    builder.registerFunctionAnalyses(fam);
    builder.registerLoopAnalyses(lam);
    builder.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::OptimizationLevel level = optLevel >= 3   ? llvm::OptimizationLevel::O3
                                    : optLevel == 2 ? llvm::OptimizationLevel::O2
                                    : optLevel == 1 ? llvm::OptimizationLevel::O1
                                                    : llvm::OptimizationLevel::O0;
    llvm::ModulePassManager passes = optLevel == 0 ? builder.buildO0DefaultPipeline(level)
                                                   : builder.buildPerModuleDefaultPipeline(level);
    passes.run(module, mam);
}

namespace {

Expected<std::string> compileObject(llvm::Module& module, llvm::TargetMachine& machine) {
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream out(buffer);
    llvm::legacy::PassManager passes;
    if (machine.addPassesToEmitFile(passes, out, nullptr, llvm::CodeGenFileType::ObjectFile))
        return Error("target " + machine.getTargetTriple().str() + " cannot emit objects");
    passes.run(module);
    if (llvm::TimePassesIsEnabled)
        llvm::reportAndResetTimings(&llvm::errs());
    return std::string(buffer.begin(), buffer.end());
}

/// The assembly of the optimized IR \p ir for \p machine, verbose: LLVM's
/// comments name each block's loop and mark spills (vector_use.h reads them).
Expected<std::string> assemblyOf(const std::string& ir, llvm::TargetMachine& machine,
                                 const std::string& symbol) {
    llvm::LLVMContext ctx;
    llvm::SMDiagnostic problem;
    std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(ir, problem, ctx);
    if (!module)
        return Error("kernel " + symbol +
                     ": its optimized IR does not parse: " + problem.getMessage().str());
    // The worker's machine prints its comments for this module alone.
    const bool verbose = machine.Options.MCOptions.AsmVerbose;
    machine.Options.MCOptions.AsmVerbose = true;
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream out(buffer);
    llvm::legacy::PassManager passes;
    const bool refused =
        machine.addPassesToEmitFile(passes, out, nullptr, llvm::CodeGenFileType::AssemblyFile);
    if (!refused)
        passes.run(*module);
    machine.Options.MCOptions.AsmVerbose = verbose;
    if (refused)
        return Error("target " + machine.getTargetTriple().str() + " cannot print assembly");
    return std::string(buffer.begin(), buffer.end());
}

int64_t instructionCount(const llvm::Module& module) {
    int64_t count = 0;
    for (const llvm::Function& f : module)
        for (const llvm::BasicBlock& block : f)
            count += static_cast<int64_t>(block.size());
    return count;
}

/// Lowers part \p part of \p kernel into a fresh module of \p ctx for
/// \p machine (the lowerings choose by its triple and vector width).
Expected<std::unique_ptr<llvm::Module>> lowerModule(llvm::LLVMContext& ctx, const ir::Graph& graph,
                                                    const partition::SemanticsCache& semantics,
                                                    const KernelCode& kernel,
                                                    const std::vector<detail::KernelPart>& parts,
                                                    size_t part,
                                                    const llvm::TargetMachine& machine) {
    std::string name = part == 0 ? kernel.symbol : kernel.symbol + ".part" + std::to_string(part);
    auto module = std::make_unique<llvm::Module>(name, ctx);
    module->setSourceFileName(name);
    module->setTargetTriple(machine.getTargetTriple().str());
    detail::setVectorBits(*module, machine);
    SC_RETURN_IF_ERROR(detail::lowerKernelPart(*module, graph, semantics, kernel, parts, part));
    return module;
}

std::string moduleText(const llvm::Module& module) {
    std::string text;
    llvm::raw_string_ostream out(text);
    module.print(out, nullptr);
    return text;
}

/// Optimizes and compiles \p module.
Expected<CachedKernel> compileModule(llvm::Module& module, const std::string& symbol,
                                     llvm::TargetMachine& machine, const EmitOptions& options,
                                     bool wantIr) {
    detail::optimize(module, machine, options.optLevel);
    std::string problems;
    llvm::raw_string_ostream report(problems);
    if (llvm::verifyModule(module, &report))
        return Error("kernel " + symbol + ": the optimized IR does not verify");
    CachedKernel compiled;
    compiled.instructions = instructionCount(module);
    if (wantIr)
        compiled.ir = moduleText(module);
    SC_ASSIGN_OR_RETURN(compiled.object, compileObject(module, machine));
    return compiled;
}

/// Lowers part \p part of \p kernel, then takes its object from the cache
/// or compiles it (and stores it there). A cache that cannot be written
/// costs the next run a compilation, never this one its result.
Expected<EmittedPart> emitPart(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                               const KernelCode& kernel,
                               const std::vector<detail::KernelPart>& parts, size_t part,
                               llvm::TargetMachine& machine, const TargetInfo& target,
                               const EmitOptions& options, const ObjectCache* cache) {
    auto start = std::chrono::steady_clock::now();
    llvm::LLVMContext ctx;
    SC_ASSIGN_OR_RETURN(auto module,
                        lowerModule(ctx, graph, semantics, kernel, parts, part, machine));
    module->setDataLayout(machine.createDataLayout());
    std::string key;
    if (cache != nullptr)
        key = ObjectCache::keyOf(moduleText(*module), target, options.optLevel);
    EmittedPart result;
    std::optional<CachedKernel> found = cache ? cache->load(key) : std::nullopt;
    result.cached = found.has_value();
    if (!found) {
        SC_ASSIGN_OR_RETURN(found, compileModule(*module, kernel.symbol, machine, options,
                                                 options.keepIr || options.vectorReport ||
                                                     options.keepAssembly || cache != nullptr));
        if (cache)
            (void)cache->store(key, *found);
    }
    if (options.vectorReport || options.keepAssembly) {
        SC_ASSIGN_OR_RETURN(result.assembly, assemblyOf(found->ir, machine, kernel.symbol));
    }
    result.instructions = found->instructions;
    result.object = std::move(found->object);
    if (options.keepIr)
        result.ir = std::move(found->ir);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

/// One module to compile: part \p part of kernel \p kernel.
struct Unit {
    size_t kernel = 0;
    size_t part = 0;
};

/// Compiles the kernels' parts on worker threads; progress (kernels whose
/// every part is done) is reported on the calling thread.
class Compilation {
public:
    Compilation(const ir::Graph& graph, const partition::SemanticsCache& semantics,
                const CodePlan& plan, const EmitOptions& options, const TargetInfo& machine,
                const ObjectCache* cache)
        : graph_(graph)
        , semantics_(semantics)
        , plan_(plan)
        , options_(options)
        , machine_(machine)
        , cache_(cache) {
        for (size_t k = 0; k < plan.kernels.size(); ++k) {
            parts_.push_back(detail::kernelParts(plan.kernels[k]));
            for (size_t p = 0; p < parts_.back().size(); ++p)
                units_.push_back({k, p});
            results_.emplace_back(parts_.back().size());
            partsLeft_.push_back(parts_.back().size());
        }
    }

    Status run(const EmitProgress& progress) {
        size_t total = plan_.kernels.size();
        unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
        size_t threads = options_.threads > 0 ? static_cast<size_t>(options_.threads) : hardware;
        threads = std::max<size_t>(1, std::min(threads, units_.size()));
        std::vector<std::thread> workers;
        for (size_t i = 0; i < threads; ++i)
            workers.emplace_back([this] { work(); });
        bool cancelled = false;
        {
            std::unique_lock lock(mutex_);
            size_t reported = 0;
            size_t partsReported = 0;
            while (reported < total) {
                changed_.wait(lock, [&] {
                    return done_ > reported || partsDone_ > partsReported || failed_;
                });
                if (failed_)
                    break;
                reported = done_;
                partsReported = partsDone_;
                EmitCount count{reported, total, cached_, partsReported, units_.size()};
                lock.unlock();
                bool goOn = !progress || progress(count);
                lock.lock();
                if (!goOn) {
                    cancelled = true;
                    stop_ = true;
                    break;
                }
            }
            stop_ = true;
        }
        for (std::thread& w : workers)
            w.join();
        if (cancelled)
            return Error("cancelled");
        for (const auto& kernel : results_)
            for (const auto& r : kernel)
                if (r && !r->ok())
                    return r->error();
        return Status::success();
    }

    std::vector<EmittedKernel> take() {
        std::vector<EmittedKernel> kernels;
        for (size_t k = 0; k < results_.size(); ++k) {
            EmittedKernel kernel;
            kernel.symbol = plan_.kernels[k].symbol;
            kernel.cached = true;
            for (auto& r : results_[k]) {
                EmittedPart part = std::move(*r).value();
                kernel.instructions += part.instructions;
                kernel.cached = kernel.cached && part.cached;
                kernel.seconds += part.seconds;
                kernel.parts.push_back(std::move(part));
            }
            kernels.push_back(std::move(kernel));
        }
        return kernels;
    }

private:
    void work() {
        auto machine = detail::makeMachine(machine_, options_.optLevel);
        while (true) {
            size_t index = next_.fetch_add(1);
            if (index >= units_.size())
                return;
            {
                std::lock_guard lock(mutex_);
                if (stop_)
                    return;
            }
            Unit unit = units_[index];
            Expected<EmittedPart> result =
                machine.ok()
                    ? emitPart(graph_, semantics_, plan_.kernels[unit.kernel], parts_[unit.kernel],
                               unit.part, **machine, machine_, options_, cache_)
                    : Expected<EmittedPart>(machine.error());
            std::lock_guard lock(mutex_);
            failed_ = failed_ || !result.ok();
            results_[unit.kernel][unit.part] = std::move(result);
            ++partsDone_;
            if (--partsLeft_[unit.kernel] == 0) {
                ++done_;
                const auto& parts = results_[unit.kernel];
                cached_ += std::all_of(parts.begin(), parts.end(),
                                       [](const auto& r) { return r->ok() && (*r)->cached; })
                               ? 1
                               : 0;
            }
            changed_.notify_all();
        }
    }

    const ir::Graph& graph_;
    const partition::SemanticsCache& semantics_;
    const CodePlan& plan_;
    const EmitOptions& options_;
    TargetInfo machine_;
    /// Null without a cache; thread-safe (its files are reached through its
    /// directory's descriptor).
    const ObjectCache* cache_;
    /// Per kernel: its parts.
    std::vector<std::vector<detail::KernelPart>> parts_;
    /// Every part of every kernel, in plan order.
    std::vector<Unit> units_;
    /// Per kernel, per part: empty until compiled.
    std::vector<std::vector<std::optional<Expected<EmittedPart>>>> results_;
    /// Per kernel: parts not yet compiled.
    std::vector<size_t> partsLeft_;
    std::atomic<size_t> next_{0};
    std::mutex mutex_;
    std::condition_variable changed_;
    size_t done_ = 0;
    size_t partsDone_ = 0;
    size_t cached_ = 0;
    bool failed_ = false;
    bool stop_ = false;
};

} // namespace

std::string EmittedKernel::fileStem(size_t part) const {
    return part == 0 ? symbol : symbol + ".part" + std::to_string(part);
}

Expected<EmittedProgram> emitProgram(const ir::Graph& graph,
                                     const partition::SemanticsCache& semantics,
                                     const CodePlan& plan, const EmitOptions& options,
                                     const EmitProgress& progress) {
    EmittedProgram program;
    program.target = options.target;
    SC_ASSIGN_OR_RETURN(program.machine, resolveTarget(options.target, options.cpu, options.vlen));
    program.vlen = options.target == Target::RiscV64 ? options.vlen : 0;
    program.optLevel = std::clamp(options.optLevel, 0, 3);
    if (options.vectorReport && options.target != Target::RiscV64)
        return Error("the vector report reads riscv64 code: emit for --target riscv64");
    std::optional<ObjectCache> cache;
    if (!options.cacheDir.empty()) {
        Expected<ObjectCache> opened = ObjectCache::open(options.cacheDir);
        if (opened.ok())
            cache = std::move(opened).value();
        else
            program.cacheNote = "no object cache: " + opened.error().message();
    }
    program.objectCache = cache.has_value();
    EmitOptions checked = options;
    checked.optLevel = program.optLevel;
    if (plan.kernels.empty())
        return program;
    Compilation compilation(graph, semantics, plan, checked, program.machine,
                            cache ? &*cache : nullptr);
    SC_RETURN_IF_ERROR(compilation.run(progress));
    program.kernels = compilation.take();
    if (options.vectorReport) {
        std::vector<KernelAssembly> assembly;
        for (const EmittedKernel& kernel : program.kernels) {
            assembly.push_back({kernel.symbol, {}});
            for (const EmittedPart& part : kernel.parts)
                assembly.back().parts.push_back(part.assembly);
        }
        program.vectorReport = buildVectorReport(graph, plan, assembly, program.vlen);
        program.vectorReportJson = vectorReportJson(*program.vectorReport);
    }
    // The cache stays within its cap, least recently used entries first; a
    // prune that fails costs a later run its hits, never this one a result.
    if (cache) {
        Expected<CacheUse> pruned = cache->prune(objectCacheMaxBytes());
        if (!pruned.ok() && program.cacheNote.empty())
            program.cacheNote = "object cache not pruned: " + pruned.error().message();
    }
    return program;
}

Expected<std::string> lowerKernelText(const ir::Graph& graph,
                                      const partition::SemanticsCache& semantics,
                                      const CodePlan& plan, size_t index) {
    if (index >= plan.kernels.size())
        return Error("kernel " + std::to_string(index) + " does not exist");
    detail::initializeTargets();
    SC_ASSIGN_OR_RETURN(auto machine, detail::makeMachine(targetInfo(Target::Host), 2));
    llvm::LLVMContext ctx;
    const KernelCode& kernel = plan.kernels[index];
    SC_ASSIGN_OR_RETURN(auto module, lowerModule(ctx, graph, semantics, kernel,
                                                 {{0, kernel.layers.size()}}, 0, *machine));
    std::string text;
    llvm::raw_string_ostream out(text);
    module->print(out, nullptr);
    return text;
}

} // namespace stagecraft::codegen
