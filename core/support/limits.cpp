// The per-command resource cap and its environment variable.

#include "support/limits.h"

#include "support/strings.h"

#include <cstdlib>

namespace stagecraft {

std::optional<int64_t> parseByteSize(std::string_view text) {
    text = trim(text);
    int shift = 0;
    if (!text.empty()) {
        switch (text.back()) {
        case 'K':
        case 'k':
            shift = 10;
            break;
        case 'M':
        case 'm':
            shift = 20;
            break;
        case 'G':
        case 'g':
            shift = 30;
            break;
        case 'T':
        case 't':
            shift = 40;
            break;
        default:
            break;
        }
        if (shift != 0)
            text.remove_suffix(1);
    }
    std::optional<int64_t> number = parseInt(text);
    if (!number || *number <= 0 || *number > (INT64_MAX >> shift))
        return std::nullopt;
    return *number << shift;
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
