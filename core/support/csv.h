#pragma once
/// \file
/// The one CSV writer of every CSV the tool writes (`compare --csv`, the
/// sweep's results.csv, Studio's report and time-breakdown exports): fields
/// as RFC 4180 gives them — as they are unless they hold a comma, a double
/// quote, CR or LF, else in double quotes with each quote doubled — joined
/// by commas, each record ended by LF (docs/decisions.md).

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace stagecraft {

/// \p text as one CSV field.
std::string csvField(std::string_view text);

/// One record: the fields quoted as needed, joined by commas, then LF.
std::string csvRecord(const std::vector<std::string>& fields);

/// Numbers as the CSV files write them (shortest of %g at 6 digits, as
/// an iostream writes a double; integers whole).
std::string csvNumber(double value);
template <typename Integer>
requires std::is_integral_v<Integer> std::string csvNumber(Integer value) {
    return std::to_string(value);
}

} // namespace stagecraft
