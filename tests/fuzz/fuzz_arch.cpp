// Fuzzes the architecture reader, arch::parseArch (docs/arch.md): any bytes
// give an Arch or a one-line error, never a crash, hang or exception. An
// accepted description goes through what `stagecraft arch FILE` computes
// from it, and toJson writes it so that parseArch reads back an equal Arch.

#include "arch/arch_json.h"
#include "fuzz_harness.h"

using namespace stagecraft;

namespace {

/// The figures `stagecraft arch` prints.
void summarize(const arch::Arch& a) {
    (void)arch::coresPerCluster(a);
    (void)arch::totalCores(a);
    (void)arch::aggregateActivationBytes(a);
    for (auto dtype : {ir::DType::Float32, ir::DType::Float16, ir::DType::Int8}) {
        (void)arch::peakOpsPerSecond(a, dtype);
        (void)arch::peakOpsPerSecond(a, dtype, ir::OpCategory::Complex);
    }
    (void)arch::findPath(a, arch::Memory::DDR, arch::Memory::LB);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto read = arch::parseArch(fuzz::asText(data, size), "fuzz.json");
    if (!read.ok())
        return 0;
    summarize(*read);
    auto again = arch::parseArch(arch::toJson(*read), "again.json");
    fuzz::check(again.ok(), "parseArch reads what toJson writes");
    fuzz::check(*again == *read, "parseArch(toJson(a)) == a");
    return 0;
}
