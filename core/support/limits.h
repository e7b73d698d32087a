#pragma once
/// \file
/// The resource cap of one command (docs/limits.md): the most bytes any one
/// step may allocate for data it sizes from its input (a tensor, a file read
/// into memory, the instances of a schedule, the buffers of a run). Sizes are
/// checked against it before allocating, so hostile input gets a one-line
/// error instead of an abort or an out-of-memory kill.
///
/// The cap is 4 GiB unless the environment variable STAGECRAFT_MAX_MEMORY sets
/// another (bytes, or a number with K, M, G or T: "16G").

#include "support/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stagecraft {

/// The default cap: 4 GiB.
inline constexpr int64_t kDefaultMemoryCap = int64_t{4} << 30;

/// Parses a size such as "4096", "512M", "16G", "16GiB" or "1.5g" (binary
/// units, any case, a fraction allowed); nullopt when \p text is not a
/// positive size of at least one byte.
std::optional<int64_t> parseByteSize(std::string_view text);

/// The cap in bytes: STAGECRAFT_MAX_MEMORY when set and valid, else the
/// default. Read once per process.
int64_t memoryCap();

/// An error naming STAGECRAFT_MAX_MEMORY when it is set but not a size: the
/// front ends refuse to start with it rather than ignore it.
Status memoryCapSetting();

/// An error unless \p bytes (negative means "overflowed") fits the cap:
/// "<what> needs 8.59 GB, more than the 4.29 GB one command may allocate (set
/// STAGECRAFT_MAX_MEMORY to allow more)".
Status checkAllocation(int64_t bytes, std::string_view what);

/// \p count × \p each, or -1 on overflow or a negative factor.
int64_t checkedProduct(int64_t count, int64_t each);

} // namespace stagecraft
