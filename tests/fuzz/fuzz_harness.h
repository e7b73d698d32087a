#pragma once
// Shared by the harnesses of tests/fuzz: libFuzzer's entry point (defined by
// each harness; libFuzzer or the replay test calls it) and the check that
// turns a broken promise of a reader into a crash libFuzzer reports.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace stagecraft::fuzz {

inline std::string_view asText(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

/// Aborts when \p ok is false: what a reader accepted broke its documented
/// promise (e.g. a round trip through the writer does not give it back).
inline void check(bool ok, const char* promise) {
    if (ok)
        return;
    std::fprintf(stderr, "fuzz: broken promise: %s\n", promise);
    std::abort();
}

} // namespace stagecraft::fuzz
