#pragma once
/// \file
/// Internal to core/io: the one text layout of every document Stagecraft
/// writes, so that the same value always gives the same bytes.

#include <nlohmann/json.hpp>

#include <string>

namespace stagecraft::io::json {

/// Keys in the order they were set.
using OrderedJson = nlohmann::ordered_json;

/// \p value as text: 2-space indent, keys in insertion order, a trailing
/// newline. An array or object whose members are all scalars stays on one
/// line (`"shape": [1, 16, 16, 16]`, `{"from": "a1", "to": "b1"}`) when that
/// line fits in 100 columns; everything else gets one member per line.
/// Scalars are printed by nlohmann: escaped strings, and doubles in the
/// shortest form that reads back to the same value.
std::string formatJson(const OrderedJson& value);

} // namespace stagecraft::io::json
