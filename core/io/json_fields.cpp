// Field readers for the documents of core/io: each error carries the JSON path
// of the field and the value as the user wrote it, shortened to one line.

#include "io/internal/json_fields.h"

#include "support/strings.h"

#include <algorithm>
#include <limits>

namespace stagecraft::io::json {

namespace {

std::string atLeast(std::string_view what, int64_t min) {
    if (min == std::numeric_limits<int64_t>::min())
        return std::string(what);
    return std::string(what) + " >= " + std::to_string(min);
}

} // namespace

Status checkArray(const Json& value, const std::string& path) {
    if (!value.is_array())
        return mustBe(path, "an array", value);
    return {};
}

Expected<std::string> getName(const Json& value, const std::string& path) {
    if (!value.is_string() || value.get_ref<const std::string&>().empty())
        return mustBe(path, "a non-empty string", value);
    return value.get<std::string>();
}

Expected<bool> getBool(const Json& value, const std::string& path) {
    if (!value.is_boolean())
        return mustBe(path, "true or false", value);
    return value.get<bool>();
}

Expected<int64_t> getInt(const Json& value, const std::string& path, int64_t min) {
    if (!value.is_number_integer())
        return mustBe(path, atLeast("an integer", min), value);
    if (value.is_number_unsigned() &&
        value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return errorAt(path, "too large (got " + shown(value) + ")");
    int64_t number = value.get<int64_t>();
    if (number < min)
        return mustBe(path, atLeast("an integer", min), value);
    return number;
}

Expected<int> getSmallInt(const Json& value, const std::string& path, int min) {
    SC_ASSIGN_OR_RETURN(int64_t number, getInt(value, path, min));
    if (number > std::numeric_limits<int>::max())
        return errorAt(path, "too large (got " + shown(value) + ")");
    return static_cast<int>(number);
}

Expected<double> getNumber(const Json& value, const std::string& path) {
    if (!value.is_number() || value.get<double>() < 0)
        return mustBe(path, "a number >= 0", value);
    return value.get<double>();
}

Expected<std::vector<int64_t>> getInts(const Json& value, const std::string& path, int64_t min) {
    SC_RETURN_IF_ERROR(checkArray(value, path));
    std::vector<int64_t> numbers;
    for (size_t i = 0; i < value.size(); ++i) {
        SC_ASSIGN_OR_RETURN(int64_t number, getInt(value[i], item(path, i), min));
        numbers.push_back(number);
    }
    return numbers;
}

Expected<std::vector<std::string>> getStrings(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(checkArray(value, path));
    std::vector<std::string> strings;
    for (size_t i = 0; i < value.size(); ++i) {
        SC_ASSIGN_OR_RETURN(std::string text, getString(value[i], item(path, i)));
        strings.push_back(std::move(text));
    }
    return strings;
}

Expected<std::string> nameField(const Json& object, const std::string& path, const char* key) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getName(*value, child(path, key));
}

Expected<bool> boolField(const Json& object, const std::string& path, const char* key) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getBool(*value, child(path, key));
}

Expected<int64_t> intField(const Json& object, const std::string& path, const char* key,
                           int64_t min) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getInt(*value, child(path, key), min);
}

Expected<int> smallIntField(const Json& object, const std::string& path, const char* key, int min) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getSmallInt(*value, child(path, key), min);
}

Expected<double> numberField(const Json& object, const std::string& path, const char* key) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getNumber(*value, child(path, key));
}

Expected<std::vector<int64_t>> intsField(const Json& object, const std::string& path,
                                         const char* key, int64_t min) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getInts(*value, child(path, key), min);
}

Expected<std::vector<std::string>> stringsField(const Json& object, const std::string& path,
                                                const char* key) {
    SC_ASSIGN_OR_RETURN(const Json* value, required(object, path, key));
    return getStrings(*value, child(path, key));
}

Status checkFormat(const Json& root, std::string_view format, int64_t version) {
    if (!root.is_object())
        return mustBe("", "a JSON object", root);
    SC_ASSIGN_OR_RETURN(std::string name, stringField(root, "", "format"));
    if (name != format)
        return errorAt("format", "must be " + quote(format) + " (got " + quote(name) + ")");
    SC_ASSIGN_OR_RETURN(int64_t number, intField(root, "", "version", 1));
    if (number != version)
        return errorAt("version", "unsupported version " + std::to_string(number) +
                                      " (this build reads version " + std::to_string(version) +
                                      ")");
    return {};
}

} // namespace stagecraft::io::json
