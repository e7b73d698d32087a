// What the lowering reads of the machine it compiles for, recorded in each
// kernel's module (lowering.h): the width of its vector registers and
// whether it lacks a fused multiply-add, which the register-blocked
// lowering plans for (blocked_plan.cpp), and its word
// dot product, which integer contractions multiply-add with
// (blocked_integer.cpp). Read off the target machine, so `--cpu` and
// `--vlen` decide them, not the machine that compiles.

#include "codegen/internal/lowering.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Triple.h>

#include <string>

namespace stagecraft::codegen::detail {

namespace {
constexpr const char* kVectorBitsFlag = "stagecraft.vector-bits";
constexpr const char* kWordDotFlag = "stagecraft.word-dot";
constexpr const char* kSeparateMultiplyFlag = "stagecraft.separate-multiply";

int intFlag(const llvm::Module& module, const char* name) {
    auto* flag = llvm::mdconst::extract_or_null<llvm::ConstantInt>(module.getModuleFlag(name));
    return flag ? static_cast<int>(flag->getZExtValue()) : 0;
}
} // namespace

void setVectorBits(llvm::Module& module, const llvm::TargetMachine& machine) {
    int bits = 128;
    int wordDot = 0;
    int separateMultiply = 0;
    if (machine.getTargetTriple().isX86()) {
        const llvm::MCSubtargetInfo* subtarget = machine.getMCSubtargetInfo();
        separateMultiply =
            subtarget->checkFeatures("+fma") || subtarget->checkFeatures("+avx512f") ? 0 : 1;
        bits = subtarget->checkFeatures("+avx512f") ? 512
               : subtarget->checkFeatures("+avx")   ? 256
                                                    : 128;
        if (bits == 512)
            wordDot = subtarget->checkFeatures("+avx512vnni") ? 2
                      : subtarget->checkFeatures("+avx512bw") ? 1
                                                              : 0;
        else if (bits == 256 && subtarget->checkFeatures("+avx2"))
            wordDot = 1;
    } else if (machine.getTargetTriple().isRISCV()) {
        // The least VLEN the objects assume (+zvl<N>b; the V extension
        // implies 128): vectors of that many bits fill a register there.
        const llvm::MCSubtargetInfo* subtarget = machine.getMCSubtargetInfo();
        for (int vlen : {1024, 512, 256})
            if (bits == 128 && subtarget->checkFeatures("+zvl" + std::to_string(vlen) + "b"))
                bits = vlen;
    }
    module.addModuleFlag(llvm::Module::Warning, kVectorBitsFlag, bits);
    module.addModuleFlag(llvm::Module::Warning, kWordDotFlag, wordDot);
    module.addModuleFlag(llvm::Module::Warning, kSeparateMultiplyFlag, separateMultiply);
}

int vectorBitsOf(const llvm::Module& module) {
    return intFlag(module, kVectorBitsFlag);
}

int wordDotOf(const llvm::Module& module) {
    return intFlag(module, kWordDotFlag);
}

bool separateMultiplyOf(const llvm::Module& module) {
    return intFlag(module, kSeparateMultiplyFlag) != 0;
}

} // namespace stagecraft::codegen::detail
