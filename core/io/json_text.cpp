// The document layout of formatJson: nlohmann's dump(2) puts every number of
// a shape on its own line, which makes schedule documents of real models ten
// times longer than they need to be; this printer keeps flat containers on one
// line. Scalars still come from nlohmann's dump (escaping, number format).

#include "io/internal/json_text.h"

#include <cstddef>

namespace stagecraft::io::json {

namespace {

constexpr size_t kColumns = 100;

/// Invalid UTF-8 in a name (ONNX does not enforce it) becomes U+FFFD
/// instead of an exception.
std::string scalar(const OrderedJson& value) {
    return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

bool isFlat(const OrderedJson& value) {
    for (const OrderedJson& member : value)
        if (member.is_structured())
            return false;
    return true;
}

std::string oneLine(const OrderedJson& value) {
    std::string text(1, value.is_array() ? '[' : '{');
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first)
            text += ", ";
        first = false;
        if (value.is_object())
            text += scalar(OrderedJson(it.key())) + ": ";
        text += scalar(it.value());
    }
    text += value.is_array() ? ']' : '}';
    return text;
}

void print(const OrderedJson& value, size_t indent, size_t column, std::string& out) {
    if (!value.is_structured()) {
        out += scalar(value);
        return;
    }
    if (value.empty()) {
        out += value.is_array() ? "[]" : "{}";
        return;
    }
    if (isFlat(value)) {
        std::string line = oneLine(value);
        // +1 for the comma that may follow.
        if (column + line.size() + 1 <= kColumns) {
            out += line;
            return;
        }
    }
    out += value.is_array() ? "[\n" : "{\n";
    const std::string pad(indent + 2, ' ');
    bool first = true;
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first)
            out += ",\n";
        first = false;
        out += pad;
        size_t memberColumn = pad.size();
        if (value.is_object()) {
            std::string key = scalar(OrderedJson(it.key())) + ": ";
            out += key;
            memberColumn += key.size();
        }
        print(it.value(), indent + 2, memberColumn, out);
    }
    out += "\n" + std::string(indent, ' ') + (value.is_array() ? "]" : "}");
}

} // namespace

std::string formatJson(const OrderedJson& value) {
    std::string out;
    print(value, 0, 0, out);
    out += "\n";
    return out;
}

} // namespace stagecraft::io::json
