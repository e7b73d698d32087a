#pragma once
// Results for the instance view suites. ResultSpec is filled member by
// member: designated initializers that leave `overrides` out trip
// -Wmissing-field-initializers under GCC 12.

#include "result_fixture.h"

#include <cstdint>
#include <string>

namespace stagecraft::test {

inline views::ResultPtr resultOf(const std::string& zoo, int64_t batch = 0,
                                 const std::string& arch = "teaching") {
    ResultSpec spec;
    spec.zoo = zoo;
    spec.batch = batch;
    spec.arch = arch;
    return resultFor(spec);
}

} // namespace stagecraft::test
