// Fuzzes the profile reader, codegen::readProfileJson (docs/codegen.md,
// "Profiles"): any bytes give a profile or a one-line error, never a crash,
// hang or exception. An accepted profile keeps the reader's promises (finite
// times from 0, min <= median <= max, cores from 1), is written, read back
// equal and written again to the same bytes, and fits the program it names.

#include "codegen/profile.h"
#include "fuzz_harness.h"

#include <cmath>

using namespace stagecraft;

namespace {

bool measurable(const codegen::KernelTiming& k) {
    return std::isfinite(k.maxNs) && 0 <= k.minNs && k.minNs <= k.medianNs &&
           k.medianNs <= k.maxNs && k.cores >= 1;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto read = codegen::readProfileJson(fuzz::asText(data, size), "fuzz.json");
    if (!read.ok()) {
        fuzz::check(read.error().message().find('\n') == std::string::npos, "one-line errors");
        return 0;
    }
    codegen::ProfileTarget target{{read->model}, read->strategy, {}};
    for (const codegen::KernelTiming& k : read->kernels) {
        fuzz::check(measurable(k), "finite times from 0, min <= median <= max, cores >= 1");
        target.symbols.push_back(k.symbol);
    }
    fuzz::check(std::isfinite(read->totalMedianNs) && read->totalMedianNs >= 0,
                "a finite total from 0");
    fuzz::check(codegen::checkProfileTarget(*read, target, "fuzz.json").ok(),
                "a profile fits the program it names");
    std::string written = codegen::writeProfileJson(*read);
    auto again = codegen::readProfileJson(written, "again.json");
    fuzz::check(again.ok(), "readProfileJson reads what writeProfileJson writes");
    fuzz::check(*again == *read, "read(write(p)) == p");
    fuzz::check(codegen::writeProfileJson(*again) == written, "write(read(write(p))) == write(p)");
    return 0;
}
