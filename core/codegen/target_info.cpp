// The machines kernels are compiled for (codegen.h: targetInfo,
// resolveTarget): the DSA's RISC-V vector cores (rv64gcv, optionally with a
// least VLEN), this host as LLVM sees it, or a named CPU of the host's
// architecture (portable by default for emitted libraries).

#include "codegen/codegen.h"
#include "codegen/internal/lowering.h"

#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace stagecraft::codegen {

namespace {

std::string hostFeatures() {
    std::vector<std::string> features;
    for (const auto& entry : llvm::sys::getHostCPUFeatures())
        features.push_back((entry.getValue() ? "+" : "-") + entry.getKey().str());
    std::sort(features.begin(), features.end());
    std::string joined;
    for (const std::string& f : features)
        joined += (joined.empty() ? "" : ",") + f;
    return joined;
}

} // namespace

std::string_view targetName(Target target) {
    return target == Target::RiscV64 ? "riscv64" : "host";
}

std::optional<Target> parseTarget(std::string_view name) {
    if (name == "host")
        return Target::Host;
    if (name == "riscv64")
        return Target::RiscV64;
    return std::nullopt;
}

TargetInfo targetInfo(Target target) {
    detail::initializeTargets();
    if (target == Target::RiscV64)
        return {"riscv64-unknown-elf", "generic-rv64", "+m,+a,+f,+d,+c,+v"};
    return {llvm::sys::getProcessTriple(), llvm::sys::getHostCPUName().str(), hostFeatures()};
}

std::string portableHostCpu() {
    return llvm::Triple(llvm::sys::getProcessTriple()).getArch() == llvm::Triple::x86_64
               ? "x86-64-v3"
               : "generic";
}

Expected<TargetInfo> resolveTarget(Target target, const std::string& cpu, int vlen) {
    TargetInfo info = targetInfo(target);
    if (target == Target::RiscV64) {
        if (!cpu.empty())
            return Error("--cpu is for --target host; riscv64 objects are for " + info.cpu +
                         " with " + info.features);
        if (vlen != 0 && (vlen < 128 || vlen > 1024 || (vlen & (vlen - 1)) != 0))
            return Error("--vlen must be 128, 256, 512 or 1024, not " + std::to_string(vlen));
        if (vlen != 0)
            info.features += ",+zvl" + std::to_string(vlen) + "b";
        return info;
    }
    if (vlen != 0)
        return Error("--vlen is for --target riscv64");
    if (cpu.empty() || cpu == "native")
        return info;
    std::string problem;
    const llvm::Target* found = llvm::TargetRegistry::lookupTarget(info.triple, problem);
    std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
        found ? found->createMCSubtargetInfo(info.triple, "", "") : nullptr);
    if (!subtarget || !subtarget->isCPUStringValid(cpu))
        return Error("--cpu: '" + cpu + "' is not a CPU LLVM knows for " + info.triple +
                     " (e.g. native, " + portableHostCpu() + ")");
    info.cpu = cpu;
    info.features.clear();
    return info;
}

} // namespace stagecraft::codegen
