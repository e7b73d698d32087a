// The JIT micro-benchmarks of calibration (micro_bench.h). Each loop is
// built with IRBuilder in SSA form (no allocas), so LLVM's code generator
// alone gives tight code: a streaming loop over host-width vectors, and
// eight independent multiply-add chains that hide the unit's latency.

#include "calibrate/internal/micro_bench.h"

#include "codegen/cpu_pinning.h"
#include "support/llvm_bad_alloc.h"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace stagecraft::calibrate {

namespace {

constexpr int kChains = 8;

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string message(llvm::Error error) {
    return llvm::toString(std::move(error));
}

/// Lanes of the widest vector the host's features allow for 32-bit lanes.
int lanes32() {
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    if (features.lookup("avx512f"))
        return 16;
    if (features.lookup("avx2") || features.lookup("avx"))
        return 8;
    return 4;
}

/// A JIT holding one module's functions.
class Jit {
public:
    static Expected<Jit> create(std::unique_ptr<llvm::Module> module,
                                std::unique_ptr<llvm::LLVMContext> context) {
        static std::once_flag once;
        std::call_once(once, [] {
            support::installLlvmOutOfMemoryHandler();
            llvm::InitializeNativeTarget();
            llvm::InitializeNativeTargetAsmPrinter();
        });
        auto machine = llvm::orc::JITTargetMachineBuilder::detectHost();
        if (!machine)
            return Error("calibration: " + message(machine.takeError()));
        auto jit =
            llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*machine)).create();
        if (!jit)
            return Error("calibration: " + message(jit.takeError()));
        module->setDataLayout((*jit)->getDataLayout());
        if (llvm::Error e = (*jit)->addIRModule(
                llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
            return Error("calibration: " + message(std::move(e)));
        return Jit(std::move(*jit));
    }

    /// The address of \p name (cast to its function type by the caller).
    Expected<uintptr_t> lookup(const char* name) {
        auto address = jit_->lookup(name);
        if (!address)
            return Error("calibration: " + message(address.takeError()));
        return address->getValue();
    }

private:
    explicit Jit(std::unique_ptr<llvm::orc::LLJIT> jit)
        : jit_(std::move(jit)) {}
    std::unique_ptr<llvm::orc::LLJIT> jit_;
};

/// void stream(ptr x, ptr y, i64 vectors): y[i] = x[i] * 1.0001 + 0.5.
void buildStream(llvm::Module& module, int lanes) {
    llvm::LLVMContext& ctx = module.getContext();
    llvm::IRBuilder<> b(ctx);
    auto* vec = llvm::FixedVectorType::get(b.getFloatTy(), static_cast<unsigned>(lanes));
    auto* type =
        llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy(), b.getPtrTy(), b.getInt64Ty()}, false);
    auto* f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "stream", module);
    auto* entry = llvm::BasicBlock::Create(ctx, "entry", f);
    auto* loop = llvm::BasicBlock::Create(ctx, "loop", f);
    auto* done = llvm::BasicBlock::Create(ctx, "done", f);
    b.SetInsertPoint(entry);
    b.CreateCondBr(b.CreateICmpSGT(f->getArg(2), b.getInt64(0)), loop, done);
    b.SetInsertPoint(loop);
    llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2);
    i->addIncoming(b.getInt64(0), entry);
    llvm::Value* x = b.CreateAlignedLoad(vec, b.CreateGEP(vec, f->getArg(0), i), llvm::Align(64));
    llvm::Value* y = b.CreateFAdd(b.CreateFMul(x, llvm::ConstantFP::get(vec, 1.0001)),
                                  llvm::ConstantFP::get(vec, 0.5));
    b.CreateAlignedStore(y, b.CreateGEP(vec, f->getArg(1), i), llvm::Align(64));
    llvm::Value* next = b.CreateAdd(i, b.getInt64(1));
    i->addIncoming(next, loop);
    b.CreateCondBr(b.CreateICmpSLT(next, f->getArg(2)), loop, done);
    b.SetInsertPoint(done);
    b.CreateRetVoid();
}

/// double chains(i64 n): kChains multiply-add chains of host-width vectors
/// of \p element, n rounds; returns a lane of their sum (kept alive).
void buildChains(llvm::Module& module, llvm::Type* element, int lanes) {
    llvm::LLVMContext& ctx = module.getContext();
    llvm::IRBuilder<> b(ctx);
    bool floating = element->isFloatingPointTy();
    auto* vec = llvm::FixedVectorType::get(element, static_cast<unsigned>(lanes));
    auto* type = llvm::FunctionType::get(b.getDoubleTy(), {b.getInt64Ty()}, false);
    auto* f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "chains", module);
    auto* entry = llvm::BasicBlock::Create(ctx, "entry", f);
    auto* loop = llvm::BasicBlock::Create(ctx, "loop", f);
    auto* done = llvm::BasicBlock::Create(ctx, "done", f);
    b.SetInsertPoint(entry);
    b.CreateBr(loop);
    b.SetInsertPoint(loop);
    llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2);
    i->addIncoming(b.getInt64(0), entry);
    llvm::Constant* m =
        floating ? llvm::ConstantFP::get(vec, 0.999999) : llvm::ConstantInt::get(vec, 3);
    llvm::Constant* c =
        floating ? llvm::ConstantFP::get(vec, 1e-7) : llvm::ConstantInt::get(vec, 1);
    std::vector<llvm::PHINode*> acc;
    std::vector<llvm::Value*> next;
    for (int k = 0; k < kChains; ++k) { // the phis first: they head the block
        acc.push_back(b.CreatePHI(vec, 2));
        acc.back()->addIncoming(floating ? llvm::ConstantFP::get(vec, 1.0 + k)
                                         : llvm::ConstantInt::get(vec, static_cast<uint64_t>(k)),
                                entry);
    }
    for (int k = 0; k < kChains; ++k) {
        next.push_back(floating ? b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {vec}, {acc[k], m, c})
                                : b.CreateAdd(b.CreateMul(acc[k], m), c));
        acc[k]->addIncoming(next[k], loop);
    }
    llvm::Value* step = b.CreateAdd(i, b.getInt64(1));
    i->addIncoming(step, loop);
    b.CreateCondBr(b.CreateICmpSLT(step, f->getArg(0)), loop, done);
    b.SetInsertPoint(done);
    llvm::Value* sum = next[0];
    for (int k = 1; k < kChains; ++k)
        sum = floating ? b.CreateFAdd(sum, next[k]) : b.CreateAdd(sum, next[k]);
    llvm::Value* lane = b.CreateExtractElement(sum, b.getInt64(0));
    b.CreateRet(floating ? b.CreateFPCast(lane, b.getDoubleTy())
                         : b.CreateSIToFP(lane, b.getDoubleTy()));
}

Expected<Jit> compile(const std::function<void(llvm::Module&)>& build) {
    auto context = std::make_unique<llvm::LLVMContext>();
    auto module = std::make_unique<llvm::Module>("calibration", *context);
    build(*module);
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (llvm::verifyModule(*module, &out))
        return Error("calibration: a micro-benchmark does not verify: " +
                     out.str().substr(0, out.str().find('\n')));
    return Jit::create(std::move(module), std::move(context));
}

} // namespace

Expected<double> streamBandwidth(int64_t bytes, int threads, double seconds) {
    int lanes = lanes32();
    SC_ASSIGN_OR_RETURN(Jit jit, compile([&](llvm::Module& m) { buildStream(m, lanes); }));
    using Stream = void (*)(float*, float*, int64_t);
    SC_ASSIGN_OR_RETURN(uintptr_t address, jit.lookup("stream"));
    auto stream = reinterpret_cast<Stream>(address);
    int64_t vectorBytes = 4 * lanes;
    int64_t vectors = std::max<int64_t>(1, bytes / threads / 2 / vectorBytes);
    std::vector<std::vector<float>> buffers(static_cast<size_t>(2 * threads));
    for (auto& buffer : buffers)
        buffer.assign(static_cast<size_t>(vectors * lanes + 16), 1.0f);
    auto aligned = [](std::vector<float>& v) {
        auto at = reinterpret_cast<uintptr_t>(v.data());
        return reinterpret_cast<float*>((at + 63) & ~uintptr_t{63});
    };
    // Warm the caches (and the pages) once, then repeat until the time is up.
    // Each worker is held on a CPU of its own, as the host runner holds its
    // threads (cpu_pinning.h): a guest kernel that packs both onto one CPU
    // would otherwise halve a figure now and then.
    std::vector<int> cpus = codegen::allowedCpus();
    int64_t passes = 0;
    double elapsed = 0;
    for (int round = 0; round < 2 && elapsed < seconds; ++round) {
        int64_t each = round == 0 ? 1 : std::max<int64_t>(1, passes);
        auto start = Clock::now();
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t)
            workers.emplace_back([&, t] {
                for (int64_t p = 0; p < each; ++p)
                    stream(aligned(buffers[static_cast<size_t>(2 * t)]),
                           aligned(buffers[static_cast<size_t>(2 * t + 1)]), vectors);
            });
        for (int t = 0; t < threads; ++t)
            codegen::pinThread(workers[static_cast<size_t>(t)], cpus, static_cast<size_t>(t));
        for (auto& w : workers)
            w.join();
        elapsed = secondsSince(start);
        passes =
            static_cast<int64_t>(seconds / std::max(elapsed / static_cast<double>(each), 1e-9));
        if (round == 1)
            return 2.0 * static_cast<double>(vectors * vectorBytes) * static_cast<double>(each) *
                   threads / (elapsed * 1e9);
    }
    return 2.0 * static_cast<double>(vectors * vectorBytes) * threads / (elapsed * 1e9);
}

Expected<double> multiplyAddRate(ir::DType dtype, double seconds) {
    int lanes = lanes32();
    if (dtype == ir::DType::Float64)
        lanes /= 2;
    auto element = [&](llvm::LLVMContext& ctx) -> llvm::Type* {
        switch (dtype) {
        case ir::DType::Float64:
            return llvm::Type::getDoubleTy(ctx);
        case ir::DType::Int32:
            return llvm::Type::getInt32Ty(ctx);
        default:
            return llvm::Type::getFloatTy(ctx);
        }
    };
    SC_ASSIGN_OR_RETURN(
        Jit jit, compile([&](llvm::Module& m) { buildChains(m, element(m.getContext()), lanes); }));
    using Chains = double (*)(int64_t);
    SC_ASSIGN_OR_RETURN(uintptr_t address, jit.lookup("chains"));
    auto chains = reinterpret_cast<Chains>(address);
    int64_t rounds = 1 << 16;
    volatile double sink = 0;
    while (true) {
        auto start = Clock::now();
        sink = sink + chains(rounds);
        double elapsed = secondsSince(start);
        if (elapsed >= seconds || rounds > (int64_t{1} << 40))
            return static_cast<double>(rounds) * kChains * lanes / (elapsed * 1e9);
        rounds = static_cast<int64_t>(static_cast<double>(rounds) *
                                      std::max(2.0, 1.2 * seconds / std::max(elapsed, 1e-9)));
    }
}

} // namespace stagecraft::calibrate
