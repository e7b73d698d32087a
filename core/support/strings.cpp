#include "support/strings.h"

#include <cctype>
#include <charconv>
#include <cstdio>

namespace stagecraft {

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            out += separator;
        out += parts[i];
    }
    return out;
}

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        size_t pos = text.find(separator, start);
        if (pos == std::string_view::npos) {
            parts.emplace_back(text.substr(start));
            return parts;
        }
        parts.emplace_back(text.substr(start, pos - start));
        start = pos + 1;
    }
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

std::optional<int64_t> parseInt(std::string_view text) {
    int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

std::optional<double> parseDouble(std::string_view text) {
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

namespace {

std::string withSuffix(double value, const char* const* suffixes, int count, const char* unit) {
    int index = 0;
    while (index + 1 < count && (value >= 1000.0 || value <= -1000.0)) {
        value /= 1000.0;
        ++index;
    }
    char buffer[64];
    if (index == 0)
        std::snprintf(buffer, sizeof buffer, "%.0f%s%s", value, unit[0] ? " " : "", unit);
    else
        std::snprintf(buffer, sizeof buffer, "%.2f %s%s", value, suffixes[index], unit);
    return buffer;
}

} // namespace

std::string formatBytes(int64_t bytes) {
    static const char* const suffixes[] = {"", "k", "M", "G", "T", "P"};
    return withSuffix(static_cast<double>(bytes), suffixes, 6, "B");
}

std::string formatCount(int64_t count) {
    static const char* const suffixes[] = {"", "k", "M", "G", "T", "P"};
    return withSuffix(static_cast<double>(count), suffixes, 6, "");
}

std::string printable(std::string_view text) {
    static const char* const hex = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    auto escape = [&](unsigned char c) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
    };
    for (size_t i = 0; i < text.size(); ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        bool c1 = c == 0xc2 && i + 1 < text.size() &&
                  static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                  static_cast<unsigned char>(text[i + 1]) <= 0x9f;
        if (c < 0x20 || c == 0x7f) {
            escape(c);
        } else if (c1) {
            escape(static_cast<unsigned char>(text[++i]));
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string quote(std::string_view text) {
    return "'" + printable(text) + "'";
}

} // namespace stagecraft
