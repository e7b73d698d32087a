#pragma once
// Results for the timeline suites, by zoo name, batch and architecture
// (ResultSpec filled member by member, see tests/views/instances).

#include "result_fixture.h"

#include <cstdint>
#include <string>

namespace stagecraft::test {

inline views::ResultPtr timelineResult(const std::string& zoo, int64_t batch,
                                       const std::string& arch) {
    ResultSpec spec;
    spec.zoo = zoo;
    spec.batch = batch;
    spec.arch = arch;
    return resultFor(spec);
}

} // namespace stagecraft::test
