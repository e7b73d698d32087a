// The per-command resource cap and its environment variable.

#include "support/limits.h"

#include "support/strings.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace stagecraft {

std::optional<int64_t> parseByteSize(std::string_view text) {
    text = trim(text);
    // A binary unit, optionally spelt with "iB" or "B": 16G, 16GiB, 16gb.
    for (std::string_view suffix : {"iB", "ib", "B", "b"})
        if (text.size() > suffix.size() && text.ends_with(suffix) &&
            std::isalpha(static_cast<unsigned char>(text[text.size() - suffix.size() - 1]))) {
            text.remove_suffix(suffix.size());
            break;
        }
    double scale = 1;
    if (!text.empty())
        for (auto [unit, shift] :
             {std::pair{'K', 10}, std::pair{'M', 20}, std::pair{'G', 30}, std::pair{'T', 40}})
            if (std::toupper(static_cast<unsigned char>(text.back())) == unit) {
                scale = std::ldexp(1.0, shift);
                text.remove_suffix(1);
                break;
            }
    double number = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
        !std::isfinite(number) || number <= 0)
        return std::nullopt;
    double bytes = std::floor(number * scale);
    if (bytes < 1 || bytes >= 9.2e18)
        return std::nullopt;
    return static_cast<int64_t>(bytes);
}

Status memoryCapSetting() {
    const char* text = std::getenv("STAGECRAFT_MAX_MEMORY");
    if (text == nullptr || parseByteSize(text))
        return Status::success();
    return Error("STAGECRAFT_MAX_MEMORY: " + quote(std::string(text)) +
                 " is not a size of memory (a positive number of bytes, or with K, M, G or T: "
                 "16G, 1.5G)");
}

int64_t memoryCap() {
    static const int64_t cap = [] {
        const char* text = std::getenv("STAGECRAFT_MAX_MEMORY");
        std::optional<int64_t> parsed = text ? parseByteSize(text) : std::nullopt;
        return parsed.value_or(kDefaultMemoryCap);
    }();
    return cap;
}

int64_t checkedProduct(int64_t count, int64_t each) {
    int64_t product = 0;
    if (count < 0 || each < 0 || __builtin_mul_overflow(count, each, &product))
        return -1;
    return product;
}

Status checkAllocation(int64_t bytes, std::string_view what) {
    if (bytes >= 0 && bytes <= memoryCap())
        return Status::success();
    std::string size = bytes < 0 ? "more than 9.2 EB" : formatBytes(bytes);
    return Error(std::string(what) + " needs " + size + ", more than the " +
                 formatBytes(memoryCap()) +
                 " one command may allocate (set STAGECRAFT_MAX_MEMORY to allow more)");
}

} // namespace stagecraft
