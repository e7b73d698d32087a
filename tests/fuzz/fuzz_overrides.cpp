// Fuzzes the overrides reader, io::readOverridesJson (docs/schedule-format.md):
// any bytes give Overrides or a one-line error, never a crash, hang or
// exception. Accepted overrides are written and read back equal, and the
// written file is the same bytes the second time.

#include "fuzz_harness.h"
#include "io/overrides_json.h"

using namespace stagecraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto read = io::readOverridesJson(fuzz::asText(data, size), "fuzz.json");
    if (!read.ok())
        return 0;
    std::string written = io::writeOverridesJson(*read);
    auto again = io::readOverridesJson(written, "again.json");
    fuzz::check(again.ok(), "readOverridesJson reads what writeOverridesJson writes");
    fuzz::check(*again == *read, "read(write(o)) == o");
    fuzz::check(io::writeOverridesJson(*again) == written, "writing is deterministic");
    return 0;
}
