// Fuzzes the session reader, io::readSessionJson (docs/session-format.md):
// any bytes give a Session or a one-line error, never a crash, hang or
// exception. An accepted session is written and read back equal.

#include "fuzz_harness.h"
#include "io/session_json.h"

using namespace stagecraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto read = io::readSessionJson(fuzz::asText(data, size), "fuzz.stagecraft");
    if (!read.ok())
        return 0;
    auto again = io::readSessionJson(io::writeSessionJson(*read), "again.stagecraft");
    fuzz::check(again.ok(), "readSessionJson reads what writeSessionJson writes");
    fuzz::check(*again == *read, "read(write(s)) == s");
    return 0;
}
