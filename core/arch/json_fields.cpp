// Field readers for the architecture JSON: each error carries the JSON path
// of the field and the value as the user wrote it, shortened to one line.

#include "arch/internal/json_fields.h"

#include <limits>

namespace stagecraft::arch::json_fields {

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
