#include "ir/attribute.h"

#include "support/expected.h"

#include <algorithm>
#include <cstdio>

namespace stagecraft::ir {

namespace {

auto lowerBound(std::vector<std::pair<std::string, AttrValue>>& entries, std::string_view name) {
    return std::lower_bound(
        entries.begin(), entries.end(), name,
        [](const auto& entry, std::string_view key) { return entry.first < key; });
}

template <class T>
const T& expectType(const AttrValue& value, std::string_view name) {
    const T* typed = std::get_if<T>(&value);
    if (typed == nullptr) {
        std::fprintf(stderr, "attribute '%.*s' has an unexpected type\n",
                     static_cast<int>(name.size()), name.data());
        SC_ASSERT(false, "attribute read with the wrong type");
    }
    return *typed;
}

std::string formatDouble(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

} // namespace

void Attributes::set(std::string name, AttrValue value) {
    auto it = lowerBound(entries_, name);
    if (it != entries_.end() && it->first == name)
        it->second = std::move(value);
    else
        entries_.insert(it, {std::move(name), std::move(value)});
}

void Attributes::erase(std::string_view name) {
    auto it = lowerBound(entries_, name);
    if (it != entries_.end() && it->first == name)
        entries_.erase(it);
}

const AttrValue* Attributes::find(std::string_view name) const {
    auto it =
        std::lower_bound(entries_.begin(), entries_.end(), name,
                         [](const auto& entry, std::string_view key) { return entry.first < key; });
    return it != entries_.end() && it->first == name ? &it->second : nullptr;
}

int64_t Attributes::getInt(std::string_view name, int64_t fallback) const {
    const AttrValue* value = find(name);
    return value ? expectType<int64_t>(*value, name) : fallback;
}

double Attributes::getFloat(std::string_view name, double fallback) const {
    const AttrValue* value = find(name);
    return value ? expectType<double>(*value, name) : fallback;
}

std::string Attributes::getString(std::string_view name, std::string_view fallback) const {
    const AttrValue* value = find(name);
    return value ? expectType<std::string>(*value, name) : std::string(fallback);
}

std::vector<int64_t> Attributes::getInts(std::string_view name,
                                         std::vector<int64_t> fallback) const {
    const AttrValue* value = find(name);
    return value ? expectType<std::vector<int64_t>>(*value, name) : fallback;
}

std::vector<double> Attributes::getFloats(std::string_view name,
                                          std::vector<double> fallback) const {
    const AttrValue* value = find(name);
    return value ? expectType<std::vector<double>>(*value, name) : fallback;
}

const ConstTensor* Attributes::getTensor(std::string_view name) const {
    const AttrValue* value = find(name);
    return value ? &expectType<ConstTensor>(*value, name) : nullptr;
}

std::string formatAttrValue(const AttrValue& value) {
    struct Visitor {
        std::string operator()(int64_t v) const { return std::to_string(v); }
        std::string operator()(double v) const { return formatDouble(v); }
        std::string operator()(const std::string& v) const { return "\"" + v + "\""; }
        std::string operator()(const std::vector<int64_t>& v) const {
            std::string out = "[";
            for (size_t i = 0; i < v.size(); ++i)
                out += (i ? "," : "") + std::to_string(v[i]);
            return out + "]";
        }
        std::string operator()(const std::vector<double>& v) const {
            std::string out = "[";
            for (size_t i = 0; i < v.size(); ++i)
                out += (i ? "," : "") + formatDouble(v[i]);
            return out + "]";
        }
        std::string operator()(const std::vector<std::string>& v) const {
            std::string out = "[";
            for (size_t i = 0; i < v.size(); ++i)
                out += (i ? ",\"" : "\"") + v[i] + "\"";
            return out + "]";
        }
        std::string operator()(const ConstTensor& v) const {
            return "tensor<" + std::string(dtypeName(v.dtype())) + " " + formatShape(v.shape()) +
                   ">";
        }
    };
    return std::visit(Visitor{}, value);
}

} // namespace stagecraft::ir
