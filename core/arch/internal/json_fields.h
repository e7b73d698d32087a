#pragma once
/// \file
/// Internal to core/arch (keeps nlohmann out of the public headers): the
/// architecture's number readers on top of json/fields.h, with the JSON path
/// of each field in every error, e.g.
/// `cluster.core_groups[0].count: must be a positive integer (got "4")`.

#include "json/fields.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace stagecraft::arch::json_fields {

// child, item, errorAt, shown, mustBe, untagged, checkObject, required,
// optional, getString, stringField: the helpers every JSON reader of core
// shares (json/fields.h).
using namespace stagecraft::json_fields;

/// A JSON integer that fits int64_t; \p what describes it in errors.
Expected<int64_t> getInt(const Json& value, const std::string& path, std::string_view what);
/// Any JSON number; \p what describes it in errors.
Expected<double> getNumber(const Json& value, const std::string& path, std::string_view what);

// The same, reading the required member \p key of \p object.
Expected<int64_t> intField(const Json& object, const std::string& path, const char* key,
                           std::string_view what);
Expected<double> numberField(const Json& object, const std::string& path, const char* key,
                             std::string_view what);

} // namespace stagecraft::arch::json_fields
