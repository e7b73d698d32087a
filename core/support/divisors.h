#pragma once
/// \file
/// The divisors of a positive integer, for the split factors a schedule may
/// offer and the tile sizes a kernel may take.

#include <cstdint>
#include <vector>

namespace stagecraft {

/// The divisors of \p n, ascending; empty when \p n < 1.
std::vector<int64_t> divisors(int64_t n);

} // namespace stagecraft
