#include "ir/shape.h"

#include "support/strings.h"

namespace stagecraft::ir {

int64_t elementCount(const Shape& shape) {
    int64_t count = 1;
    for (int64_t dim : shape)
        count *= dim;
    return count;
}

std::optional<int64_t> checkedElementCount(const Shape& shape) {
    int64_t count = 1;
    for (int64_t dim : shape)
        if (dim < 0 || __builtin_mul_overflow(count, dim, &count))
            return std::nullopt;
    return count;
}

std::optional<int64_t> checkedTensorBytes(std::optional<int64_t> elementCount,
                                          int64_t elementBytes) {
    int64_t bytes = 0;
    if (!elementCount || *elementCount < 0 || elementBytes < 0 ||
        __builtin_mul_overflow(*elementCount, elementBytes, &bytes) || bytes > kMaxTensorBytes)
        return std::nullopt;
    return bytes;
}

std::string formatShape(const Shape& shape) {
    if (shape.empty())
        return "scalar";
    std::string out;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i > 0)
            out += 'x';
        out += std::to_string(shape[i]);
    }
    return out;
}

Expected<Shape> parseShape(std::string_view text) {
    std::string normalized(trim(text));
    for (char& c : normalized)
        if (c == ',')
            c = 'x';
    if (normalized.empty())
        return Error("empty shape (expected dimensions like 1x3x224x224, or scalar)");
    if (normalized == "scalar")
        return Shape{};
    Shape shape;
    for (const std::string& field : split(normalized, 'x')) {
        auto dim = parseInt(trim(field));
        if (!dim || *dim < 0)
            return Error("bad dimension " + quote(field) + " in shape " + quote(text) +
                         " (expected non-negative integers like 1x3x224x224)");
        shape.push_back(*dim);
    }
    return shape;
}

std::vector<int64_t> rowMajorStrides(const Shape& shape) {
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;)
        strides[i - 1] = strides[i] * shape[i];
    return strides;
}

} // namespace stagecraft::ir
