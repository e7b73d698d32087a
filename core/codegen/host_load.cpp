// Loading a host program: ORC's LLJIT links the emitted host objects (the
// same bytes `stagecraft emit --target host` writes), resolving libm from the
// process and sc_barrier to a futex barrier (host_threads.cpp). Memory: one
// buffer per table slot (inputs copied in, weights read in place from the
// graph or packed transposed once where the plan says so, activations
// zeroed), one arena and one scratch area sized for the largest kernel, and
// the pool of threads the widest kernel needs. Running is host_run.cpp's.

#include "codegen/host_run.h"
#include "codegen/internal/host_program.h"
#include "codegen/internal/host_threads.h"
#include "codegen/internal/lowering.h"
#include "codegen/model_library.h"
#include "support/limits.h"
#include "support/strings.h"

#include <llvm/ExecutionEngine/JITEventListener.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/SectionMemoryManager.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace stagecraft::codegen {

using detail::KernelFn;

namespace {

extern "C" void stagecraftHostBarrier(void* sync) {
    static_cast<detail::Barrier*>(sync)->wait();
}

std::string message(llvm::Error error) {
    return llvm::toString(std::move(error));
}

/// The JIT's builder. STAGECRAFT_PERF_JIT set: objects are linked by
/// RuntimeDyld with LLVM's perf listener, so that `perf record` + `perf
/// inject --jit` name the kernels' functions (docs/codegen.md).
llvm::orc::LLJITBuilder jitBuilder() {
    llvm::orc::LLJITBuilder builder;
    if (std::getenv("STAGECRAFT_PERF_JIT") == nullptr)
        return builder;
    builder.setObjectLinkingLayerCreator(
        [](llvm::orc::ExecutionSession& session, const llvm::Triple&) {
            auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                session, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
            if (llvm::JITEventListener* perf = llvm::JITEventListener::createPerfJITEventListener())
                layer->registerJITEventListener(*perf);
            return layer;
        });
    return builder;
}

} // namespace

Status HostProgram::Impl::link(const EmittedProgram& program) {
    detail::initializeTargets();
    auto built = jitBuilder().create();
    if (!built)
        return Error("host runner: " + message(built.takeError()));
    jit = std::move(*built);
    llvm::orc::JITDylib& dylib = jit->getMainJITDylib();
    auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        jit->getDataLayout().getGlobalPrefix());
    if (!process)
        return Error("host runner: " + message(process.takeError()));
    dylib.addGenerator(std::move(*process));
    llvm::orc::SymbolMap runtime;
    runtime[jit->mangleAndIntern("sc_barrier")] = {
        llvm::orc::ExecutorAddr::fromPtr(&stagecraftHostBarrier),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
    if (llvm::Error e = dylib.define(llvm::orc::absoluteSymbols(std::move(runtime))))
        return Error("host runner: " + message(std::move(e)));
    for (const EmittedKernel& k : program.kernels)
        for (size_t p = 0; p < k.parts.size(); ++p) {
            auto buffer =
                llvm::MemoryBuffer::getMemBufferCopy(k.parts[p].object, k.fileStem(p) + ".o");
            if (llvm::Error e = jit->addObjectFile(std::move(buffer)))
                return Error("host runner: kernel " + k.symbol + ": " + message(std::move(e)));
        }
    for (size_t i = 0; i < program.kernels.size(); ++i) {
        const EmittedKernel& k = program.kernels[i];
        auto address = jit->lookup(k.symbol);
        if (!address)
            return Error("host runner: kernel " + k.symbol + ": " + message(address.takeError()));
        kernels.push_back(address->toPtr<KernelFn>());
        const KernelCode& code = plan->kernels[i];
        layerTables.push_back(nullptr);
        if (code.cores < 2 || code.layers.size() < 2)
            continue;
        auto layers = jit->lookup(k.symbol + "_layers");
        if (!layers)
            return Error("host runner: kernel " + k.symbol + ": " + message(layers.takeError()));
        layerTables.back() = layers->toPtr<const KernelFn*>();
    }
    return Status::success();
}

namespace {

/// A page, the span of 4K aliasing; and what placedIn adds to each buffer
/// the kernels write to start it at its own line of a page (AlignedBytes
/// starts on a line, so a page less one line at most).
constexpr int64_t kPage = 4096;
constexpr int64_t kPlacementBytes = kPage - static_cast<int64_t>(kCacheLine);

/// \p bytes with placedIn's padding; -1 where unknown or past int64_t.
int64_t placedBytes(int64_t bytes) {
    int64_t sum = 0;
    return bytes < 0 || __builtin_add_overflow(bytes, kPlacementBytes, &sum) ? -1 : sum;
}

} // namespace

Status checkRunMemory(const ir::Graph& graph, const CodePlan& plan) {
    int64_t total = 0;
    int64_t largest = 0;
    std::string largestName;
    auto add = [&](int64_t bytes, const std::string& name) {
        total = bytes < 0 || total < 0 || __builtin_add_overflow(total, bytes, &total) ? -1 : total;
        if (bytes > largest) {
            largest = bytes;
            largestName = name;
        }
    };
    for (const GlobalTensor& g : plan.globals) {
        const ir::Tensor& t = graph.tensor(g.tensor);
        if (g.role != TensorRole::Weight)
            add(placedBytes(hostStoredBytes(graph, g)), "tensor " + quote(t.name));
        else if (g.hostRelaid())
            add(hostStoredBytes(graph, g), "tensor " + quote(t.name));
        else if (t.data && t.data->storage() == ir::WeightStorage::Derived)
            add(checkedProduct(t.data->byteSize(), 2), "weight " + quote(t.name));
    }
    int64_t arena = 0, scratch = 0;
    for (const KernelCode& k : plan.kernels) {
        arena = std::max(arena, k.arenaBytes);
        int64_t cores = checkedProduct(hostScratchBytes(graph, k), k.cores);
        scratch = cores < 0 || scratch < 0 ? -1 : std::max(scratch, cores);
    }
    add(placedBytes(arena), "the arena");
    add(placedBytes(scratch), "the scratch");
    return checkAllocation(total, "running the kernels (largest buffer: " + largestName + ", " +
                                      formatBytes(largest) + ")");
}

namespace {

/// Where the kernels write (the activations, the arena, the scratch), each
/// buffer starts at its own offset in a 4 KiB page, \p colour cache lines
/// (mod the page's lines) into it, in \p storage (made \p bytes long and
/// kPlacementBytes more). A load whose address matches an earlier store's in
/// its low 12 bits waits for that store (4K aliasing): two tensors of the
/// same shape whose bases coincide in a page alias at every element.
/// Returns the start.
std::byte* placedIn(AlignedBytes& storage, int64_t bytes, int64_t colour) {
    constexpr auto kLine = static_cast<int64_t>(kCacheLine);
    storage.assign(static_cast<size_t>(bytes + kPlacementBytes), std::byte{0});
    const auto base = static_cast<int64_t>(reinterpret_cast<uintptr_t>(storage.data()) % kPage);
    const int64_t offset = ((colour % (kPage / kLine)) * kLine - base + kPage) % kPage;
    return storage.data() + offset;
}

} // namespace

Status HostProgram::Impl::allocate() {
    SC_RETURN_IF_ERROR(checkRunMemory(*graph, *plan));
    table.assign(plan->globals.size(), nullptr);
    buffers.resize(plan->globals.size());
    for (size_t slot = 0; slot < plan->globals.size(); ++slot) {
        const GlobalTensor& g = plan->globals[slot];
        const ir::Tensor& t = graph->tensor(g.tensor);
        if (g.role == TensorRole::Weight) {
            auto bytes = t.data->bytes();
            if (!bytes.ok())
                return Error("weight '" + t.name + "': " + bytes.error().message());
            table[slot] = const_cast<std::byte*>(bytes->data());
            if (g.hostRelaid()) {
                buffers[slot] = hostStoredWeight(*graph, g, *bytes);
                table[slot] = buffers[slot].data();
            }
            continue;
        }
        // Activations 17 lines apart (17 and 64 coprime: 64 colours in turn).
        table[slot] = placedIn(buffers[slot], std::max<int64_t>(g.bytes, 1),
                               17 * static_cast<int64_t>(slot + 1));
        // A graph output that import folded to a constant (Shape, Size of a
        // static tensor) is computed by no kernel: it holds its value.
        if (t.isConstant() && t.data) {
            auto bytes = t.data->bytes();
            if (!bytes.ok())
                return Error("output '" + t.name + "': " + bytes.error().message());
            std::memcpy(table[slot], bytes->data(), bytes->size());
        }
    }
    int64_t arenaBytes = 1, scratchBytes = 1;
    for (const KernelCode& k : plan->kernels) {
        arenaBytes = std::max(arenaBytes, k.arenaBytes);
        scratchBytes = std::max(scratchBytes, hostScratchBytes(*graph, k) * k.cores);
    }
    arenaAt = placedIn(arena, arenaBytes, 0);
    scratchAt = placedIn(scratch, scratchBytes, 32); // half a page past the arena's
    int64_t widest = 1;
    for (const KernelCode& k : plan->kernels)
        widest = std::max(widest, k.cores);
    if (std::min(widest, hardwareThreads) > 1)
        pool = std::make_unique<detail::CorePool>(std::min(widest, hardwareThreads) - 1);
    return Status::success();
}

// The constructor and destructor live here, where llvm::orc::LLJIT is whole
// (internal/host_program.h only names it).
HostProgram::HostProgram(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

HostProgram::~HostProgram() = default;

Expected<std::unique_ptr<HostProgram>>
HostProgram::load(const ir::Graph& graph, const CodePlan& plan, const EmittedProgram& program) {
    if (program.target != Target::Host)
        return Error("host runner: the kernels were emitted for " +
                     std::string(targetName(program.target)) + ", not for the host");
    if (program.kernels.size() != plan.kernels.size())
        return Error("host runner: the program has " + std::to_string(program.kernels.size()) +
                     " kernels, the plan " + std::to_string(plan.kernels.size()));
    auto impl = std::make_unique<Impl>();
    impl->graph = &graph;
    impl->plan = &plan;
    SC_RETURN_IF_ERROR(impl->link(program));
    SC_RETURN_IF_ERROR(impl->allocate());
    return std::unique_ptr<HostProgram>(new HostProgram(std::move(impl)));
}

} // namespace stagecraft::codegen
