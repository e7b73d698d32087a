// Field readers for the architecture JSON: each error carries the JSON path
// of the field and the value as the user wrote it, shortened to one line.

#include "arch/json_fields.h"

#include "support/strings.h"

#include <algorithm>
#include <limits>

namespace stagecraft::arch::json_fields {

namespace {

/// The value as the user wrote it, shortened for a one-line message.
std::string shown(const Json& value) {
    std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

} // namespace

std::string child(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string item(const std::string& path, size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

Error errorAt(const std::string& path, const std::string& message) {
    return Error(path.empty() ? message : path + ": " + message);
}

Error mustBe(const std::string& path, std::string_view what, const Json& value) {
    return errorAt(path, "must be " + std::string(what) + " (got " + shown(value) + ")");
}

Status checkObject(const Json& value, const std::string& path,
                   std::initializer_list<std::string_view> fields) {
    if (!value.is_object())
        return mustBe(path, "an object", value);
    for (const auto& [key, ignored] : value.items())
        if (std::find(fields.begin(), fields.end(), key) == fields.end())
            return errorAt(path, "unknown field " + quote(key));
    return {};
}

Expected<const Json*> required(const Json& object, const std::string& path, const char* key) {
    auto it = object.find(key);
    if (it == object.end())
        return errorAt(child(path, key), "missing");
    return &*it;
}

const Json* optional(const Json& object, const char* key) {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

Expected<std::string> getString(const Json& value, const std::string& path) {
    if (!value.is_string())
        return mustBe(path, "a string", value);
    return value.get<std::string>();
}

Expected<int64_t> getInt(const Json& value, const std::string& path, std::string_view what) {
    if (!value.is_number_integer())
        return mustBe(path, what, value);
    if (value.is_number_unsigned() &&
        value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return errorAt(path, "too large (got " + shown(value) + ")");
    return value.get<int64_t>();
}

Expected<double> getNumber(const Json& value, const std::string& path, std::string_view what) {
    if (!value.is_number())
        return mustBe(path, what, value);
    return value.get<double>();
}

Expected<std::string> stringField(const Json& object, const std::string& path, const char* key) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getString(*value, child(path, key));
}

Expected<int64_t> intField(const Json& object, const std::string& path, const char* key,
                           std::string_view what) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getInt(*value, child(path, key), what);
}

Expected<double> numberField(const Json& object, const std::string& path, const char* key,
                             std::string_view what) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getNumber(*value, child(path, key), what);
}

} // namespace stagecraft::arch::json_fields
