// Fuzzes the tensors file reader, codegen::readTensorsJson (docs/codegen.md,
// "stagecraft-tensors"): any bytes give tensors or a one-line error, never a
// crash, hang or exception. Accepted tensors are written, read back and
// written again to the same bytes, and compare equal to themselves.

#include "codegen/tensors.h"
#include "fuzz_harness.h"

using namespace stagecraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto read = codegen::readTensorsJson(fuzz::asText(data, size), "fuzz.json");
    if (!read.ok())
        return 0;
    for (const codegen::HostTensor& t : *read)
        (void)codegen::compareTensors(t, t);
    std::string written = codegen::writeTensorsJson(*read);
    auto again = codegen::readTensorsJson(written, "again.json");
    fuzz::check(again.ok(), "readTensorsJson reads what writeTensorsJson writes");
    fuzz::check(codegen::writeTensorsJson(*again) == written, "write(read(write(t))) == write(t)");
    return 0;
}
