#pragma once
/// \file
/// Internal to core/arch (keeps nlohmann out of the public headers): reading
/// JSON fields with the JSON path of each field in every error, e.g.
/// `cluster.core_groups[0].count: must be a positive integer (got "4")`.

#include "support/expected.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace stagecraft::arch::json_fields {

using Json = nlohmann::json;

/// "a.b" from "a" and "b"; "b" at the root ("").
std::string child(const std::string& path, std::string_view key);
/// "a[3]".
std::string item(const std::string& path, size_t index);
/// "<path>: <message>", or the message alone at the root.
Error errorAt(const std::string& path, const std::string& message);
/// "<path>: must be <what> (got <value as written>)".
Error mustBe(const std::string& path, std::string_view what, const Json& value);

/// \p value must be an object whose keys are all in \p fields.
Status checkObject(const Json& value, const std::string& path,
                   std::initializer_list<std::string_view> fields);
/// The member \p key of \p object, or "<path>.<key>: missing".
Expected<const Json*> required(const Json& object, const std::string& path, const char* key);
/// The member \p key of \p object, or nullptr.
const Json* optional(const Json& object, const char* key);

Expected<std::string> getString(const Json& value, const std::string& path);
/// A JSON integer that fits int64_t; \p what describes it in errors.
Expected<int64_t> getInt(const Json& value, const std::string& path, std::string_view what);
/// Any JSON number; \p what describes it in errors.
Expected<double> getNumber(const Json& value, const std::string& path, std::string_view what);

// The same, reading the required member \p key of \p object.
Expected<std::string> stringField(const Json& object, const std::string& path, const char* key);
Expected<int64_t> intField(const Json& object, const std::string& path, const char* key,
                           std::string_view what);
Expected<double> numberField(const Json& object, const std::string& path, const char* key,
                             std::string_view what);

} // namespace stagecraft::arch::json_fields
