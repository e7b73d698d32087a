// The kernel function of an emitted kernel (lower_kernel.cpp lowers its
// layers): it calls each layer's function in turn, the cores meeting at
// sc_barrier between layers; a kernel of many layers is lowered in parts
// (kernelParts). With source lines (kernel_explain.cpp) each function gets a
// subprogram and each instruction the listing line it was emitted for, the
// way a C compiler's -g1 ties machine code to source lines.

#include "codegen/internal/lowering.h"

#include <llvm/TargetParser/Triple.h>

namespace stagecraft::codegen::detail {

namespace {

/// Ops of a kernel's layers in one module: a kernel with more is compiled
/// as several modules, each ending at the first layer that reaches this many.
constexpr size_t kOpsPerPart = 24;

} // namespace

llvm::FunctionType* kernelType(llvm::LLVMContext& ctx) {
    llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
    return llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, ptr, ptr, i64, i64, ptr},
                                   false);
}

/// The kernel function: each layer's function, the cores meeting at
/// sc_barrier(sync) between layers.
void buildKernelFunction(llvm::Module& module, const KernelCode& kernel,
                         const std::vector<llvm::Function*>& layers, const SourceLines* lines) {
    llvm::Function* f = llvm::Function::Create(
        kernelType(module.getContext()), llvm::Function::ExternalLinkage, kernel.symbol, module);
    f->setDoesNotThrow();
    std::vector<Value*> args;
    for (llvm::Argument& a : f->args()) {
        a.setName(kKernelArgNames[a.getArgNo()]);
        args.push_back(&a);
    }
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "entry", f));
    if (lines != nullptr) // the kernel's header, line 1
        b.SetCurrentDebugLocation(
            llvm::DILocation::get(module.getContext(), 1, 0, describeFunction(*lines, *f, 1)));
    llvm::FunctionCallee barrier = module.getOrInsertFunction(
        "sc_barrier", llvm::FunctionType::get(b.getVoidTy(), {b.getPtrTy()}, false));
    for (size_t l = 0; l < layers.size(); ++l) {
        b.CreateCall(layers[l], args);
        if (kernel.cores > 1 && l + 1 < layers.size())
            b.CreateCall(barrier, {args.back()});
    }
    b.CreateRetVoid();
    // The host runner runs a layer's cores in turn on its hardware threads
    // and meets between layers itself (host_run.cpp): it calls the layers.
    if (kernel.cores > 1 && layers.size() > 1 &&
        !llvm::Triple(module.getTargetTriple()).isRISCV()) {
        auto* type = llvm::ArrayType::get(b.getPtrTy(), layers.size());
        std::vector<llvm::Constant*> entries(layers.begin(), layers.end());
        auto* table = llvm::cast<llvm::GlobalVariable>(
            module.getOrInsertGlobal(kernel.symbol + "_layers", type));
        table->setConstant(true);
        table->setLinkage(llvm::GlobalValue::ExternalLinkage);
        table->setInitializer(llvm::ConstantArray::get(type, entries));
    }
}

std::vector<KernelPart> kernelParts(const KernelCode& kernel) {
    std::vector<KernelPart> parts;
    size_t first = 0;
    size_t ops = 0;
    for (size_t l = 0; l < kernel.layers.size(); ++l) {
        ops += kernel.layers[l].ops.size();
        if (ops >= kOpsPerPart && l + 1 < kernel.layers.size()) {
            parts.push_back({first, l + 1});
            first = l + 1;
            ops = 0;
        }
    }
    parts.push_back({first, kernel.layers.size()});
    return parts;
}

/// A subprogram for \p f at \p line of the listing.
llvm::DISubprogram* describeFunction(const SourceLines& lines, llvm::Function& f, int line) {
    llvm::DIBuilder& di = *lines.builder;
    auto* type = di.createSubroutineType(di.getOrCreateTypeArray({}));
    auto* subprogram = di.createFunction(
        lines.file, f.getName(), f.getName(), lines.file, static_cast<unsigned>(line), type,
        static_cast<unsigned>(line), llvm::DINode::FlagZero,
        llvm::DISubprogram::SPFlagDefinition | llvm::DISubprogram::SPFlagOptimized);
    f.setSubprogram(subprogram);
    return subprogram;
}

LineScope::LineScope(llvm::IRBuilder<>& builder, llvm::DISubprogram* subprogram, int line)
    : builder_(builder)
    , saved_(builder.getCurrentDebugLocation()) {
    set(builder, subprogram, line);
}

LineScope::~LineScope() {
    builder_.SetCurrentDebugLocation(saved_);
}

void LineScope::set(llvm::IRBuilder<>& builder, llvm::DISubprogram* subprogram, int line) {
    if (subprogram != nullptr && line > 0)
        builder.SetCurrentDebugLocation(llvm::DILocation::get(
            builder.getContext(), static_cast<unsigned>(line), 0, subprogram));
}

} // namespace stagecraft::codegen::detail
