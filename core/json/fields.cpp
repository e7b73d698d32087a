// Field readers shared by the JSON documents of core: each error carries the
// JSON path of the field and the value as the user wrote it, on one line.

#include "json/fields.h"

#include "support/json_depth.h"
#include "support/strings.h"

#include <algorithm>

namespace stagecraft::json_fields {

std::string child(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string item(const std::string& path, size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

Error errorAt(const std::string& path, const std::string& message) {
    return Error(path.empty() ? message : path + ": " + message);
}

std::string shown(const Json& value) {
    std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

Error mustBe(const std::string& path, std::string_view what, const Json& value) {
    return errorAt(path, "must be " + std::string(what) + " (got " + shown(value) + ")");
}

std::string untagged(const char* what) {
    std::string_view text(what);
    if (auto end = text.find("] "); !text.empty() && text.front() == '[' && end != text.npos)
        text.remove_prefix(end + 2);
    std::string message(text);
    for (char& c : message)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            c = '?';
    return message;
}

Expected<Json> parse(std::string_view text) {
    SC_RETURN_IF_ERROR(checkJsonDepth(text));
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        return Error("not valid JSON: " + untagged(e.what()));
    }
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

Expected<std::string> stringField(const Json& object, const std::string& path, const char* key) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getString(*value, child(path, key));
}

} // namespace stagecraft::json_fields
