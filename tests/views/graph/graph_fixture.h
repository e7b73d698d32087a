#pragma once
// Results for the graph view suites: zoo models through the studio's
// pipeline, and the synthetic benchmark graph for sizes no zoo model reaches.
// ResultSpec is filled member by member: designated initializers that leave
// `overrides` out trip -Wmissing-field-initializers under GCC 12.

#include "result_fixture.h"

#include <cstdint>
#include <string>

namespace stagecraft::test {

inline ResultSpec specOf(const std::string& zoo, int64_t batch = 0,
                         const std::string& arch = "teaching") {
    ResultSpec spec;
    spec.zoo = zoo;
    spec.batch = batch;
    spec.arch = arch;
    return spec;
}

inline views::ResultPtr resultOf(const std::string& zoo, int64_t batch = 0,
                                 const std::string& arch = "teaching") {
    return resultFor(specOf(zoo, batch, arch));
}

/// The synthetic graph of \p ops ops (tests/support/random_graphs.h) on
/// stcp920, scheduled once per size and kept for the process.
views::ResultPtr syntheticResult(int ops);

} // namespace stagecraft::test
