// Escaping text for XML and HTML, and SI-prefixed numbers for chart labels.

#include "io/markup_text.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace stagecraft::io {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

/// The length of the well-formed UTF-8 sequence starting at \p at, 0 when
/// it is malformed (overlong forms, surrogates and code points past U+10FFFF
/// included).
size_t utf8Length(std::string_view text, size_t at) {
    auto byte = [&](size_t i) {
        return static_cast<unsigned char>(text[i]);
    };
    unsigned char lead = byte(at);
    size_t length = lead < 0xC2 ? 0 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF5 ? 4 : 0;
    if (length == 0 || at + length > text.size())
        return 0;
    for (size_t i = 1; i < length; ++i)
        if ((byte(at + i) & 0xC0) != 0x80)
            return 0;
    unsigned char second = byte(at + 1);
    if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0) ||
        (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90))
        return 0;
    return length;
}

std::string_view reference(char c) {
    switch (c) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '"':
        return "&quot;";
    case '\'':
        return "&#39;";
    default:
        return {};
    }
}

} // namespace

std::string escapeMarkup(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            size_t length = utf8Length(text, i);
            out += length == 0 ? kReplacement : text.substr(i, length);
            i += length == 0 ? 1 : length;
            continue;
        }
        if (std::string_view ref = reference(text[i]); !ref.empty())
            out += ref;
        else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F)
            out += ' ';
        else
            out += text[i];
        ++i;
    }
    return out;
}

std::string siNumber(double value) {
    constexpr std::array<const char*, 6> kPrefixes = {"", "k", "M", "G", "T", "P"};
    size_t prefix = 0;
    double scaled = value;
    while (std::fabs(scaled) >= 999.5 && prefix + 1 < kPrefixes.size()) {
        scaled /= 1000;
        ++prefix;
    }
    char text[48];
    std::snprintf(text, sizeof text, "%.3g %s", scaled, kPrefixes[prefix]);
    return text;
}

} // namespace stagecraft::io
