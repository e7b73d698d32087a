#pragma once
/// \file
/// Internal to core/io (keeps nlohmann out of the public headers): the
/// readers of the schedule documents' fields on top of json/fields.h, with
/// the JSON path of each field in every error, e.g.
/// `groups[3].ops[2]: unknown op 'conv9'` or
/// `instances[0].index: must be an integer >= 1 (got 0)`.

#include "json/fields.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::io::json {

// child, item, errorAt, shown, mustBe, parse, checkObject, required,
// optional, getString, stringField: the helpers every JSON reader of core
// shares (json/fields.h).
using namespace stagecraft::json_fields;

/// \p value must be an array.
Status checkArray(const Json& value, const std::string& path);

/// A non-empty string (names of ops, tensors, instances).
Expected<std::string> getName(const Json& value, const std::string& path);
Expected<bool> getBool(const Json& value, const std::string& path);
/// A JSON integer >= \p min that fits int64_t.
Expected<int64_t> getInt(const Json& value, const std::string& path, int64_t min);
/// A JSON integer in [\p min, INT_MAX] (dims, rounds).
Expected<int> getSmallInt(const Json& value, const std::string& path, int min);
/// A JSON number >= 0 (never NaN or infinite: JSON has no such numbers).
Expected<double> getNumber(const Json& value, const std::string& path);
/// An array of integers >= \p min.
Expected<std::vector<int64_t>> getInts(const Json& value, const std::string& path, int64_t min);
/// An array of strings.
Expected<std::vector<std::string>> getStrings(const Json& value, const std::string& path);

// The same, reading the required member \p key of \p object.
Expected<std::string> nameField(const Json& object, const std::string& path, const char* key);
Expected<bool> boolField(const Json& object, const std::string& path, const char* key);
Expected<int64_t> intField(const Json& object, const std::string& path, const char* key,
                           int64_t min);
Expected<int> smallIntField(const Json& object, const std::string& path, const char* key, int min);
Expected<double> numberField(const Json& object, const std::string& path, const char* key);
Expected<std::vector<int64_t>> intsField(const Json& object, const std::string& path,
                                         const char* key, int64_t min);
Expected<std::vector<std::string>> stringsField(const Json& object, const std::string& path,
                                                const char* key);

/// Checks `format` and `version` of a document root.
Status checkFormat(const Json& root, std::string_view format, int64_t version);

} // namespace stagecraft::io::json
