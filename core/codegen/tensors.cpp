// Tensor files ("stagecraft-tensors" JSON), seeded inputs and the error
// measure the host-execution tests use against ONNX Runtime.

#include "codegen/tensors.h"

#include "ir/const_tensor.h"
#include "support/json_depth.h"
#include "support/limits.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace stagecraft::codegen {

namespace {

constexpr const char* kFormat = "stagecraft-tensors";
constexpr int kVersion = 1;

void appendNumber(std::string& out, const HostTensor& t, int64_t i) {
    char buffer[64];
    if (ir::isFloatingPoint(t.dtype)) {
        double v = ir::readDouble(t.dtype, t.data, i);
        if (std::isnan(v)) {
            out += "null";
            return;
        }
        if (std::isinf(v)) { // JSON has no number for infinity: a string
            out += v > 0 ? "\"inf\"" : "\"-inf\"";
            return;
        }
        auto r = t.dtype == ir::DType::Float64
                     ? std::to_chars(buffer, buffer + sizeof buffer, v)
                     : std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(v));
        out.append(buffer, r.ptr);
        return;
    }
    auto r = std::to_chars(buffer, buffer + sizeof buffer, ir::readInt64(t.dtype, t.data, i));
    out.append(buffer, r.ptr);
}

std::string quoted(const std::string& text) {
    return nlohmann::json(text).dump();
}

uint64_t mix(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t hashName(const std::string& text, uint64_t seed) {
    uint64_t hash = 0xcbf29ce484222325ULL ^ seed;
    for (unsigned char c : text)
        hash = (hash ^ c) * 0x100000001b3ULL;
    return hash;
}

/// A float element written as a string: "inf", "-inf" (also "+inf"),
/// "nan"; nullopt for any other text.
std::optional<double> specialFloat(const std::string& text) {
    if (text == "inf" || text == "+inf")
        return std::numeric_limits<double>::infinity();
    if (text == "-inf")
        return -std::numeric_limits<double>::infinity();
    if (text == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    return std::nullopt;
}

/// The largest finite value of floating-point \p dtype.
double largestFinite(ir::DType dtype) {
    switch (dtype) {
    case ir::DType::Float16:
        return 65504.0;
    case ir::DType::BFloat16:
        return 3.3895313892515355e38;
    case ir::DType::Float32:
        return static_cast<double>(std::numeric_limits<float>::max());
    default:
        return std::numeric_limits<double>::max();
    }
}

/// The least magnitude that rounds to an infinity in floating-point \p dtype
/// (its largest finite value plus half an ulp there, round to nearest even:
/// the largest's last bit is odd), so that a decimal of the largest finite
/// value, as "%.8g" writes FLT_MAX (3.4028235e+38), is taken.
double overflowThreshold(ir::DType dtype) {
    switch (dtype) {
    case ir::DType::Float16:
        return 65520.0;
    case ir::DType::BFloat16:
        return largestFinite(dtype) + std::ldexp(1.0, 119);
    case ir::DType::Float32:
        return largestFinite(dtype) + std::ldexp(1.0, 103);
    default:
        return std::numeric_limits<double>::infinity();
    }
}

/// The range of integer \p dtype, as (lowest, highest).
std::pair<long double, long double> integerRange(ir::DType dtype) {
    int bits = static_cast<int>(ir::dtypeSize(dtype) * 8);
    bool isSigned = dtype == ir::DType::Int8 || dtype == ir::DType::Int16 ||
                    dtype == ir::DType::Int32 || dtype == ir::DType::Int64;
    long double span = std::ldexp(1.0L, isSigned ? bits - 1 : bits);
    return isSigned ? std::pair{-span, span - 1} : std::pair{0.0L, span - 1};
}

/// Why number \p v cannot be an element of \p dtype ("" when it can): a
/// float beyond the type's finite range would silently become an infinity,
/// an integer beyond its range would wrap.
std::string rangeProblem(ir::DType dtype, const nlohmann::json& v) {
    std::string type(ir::dtypeName(dtype));
    if (ir::isFloatingPoint(dtype)) {
        double d = v.get<double>();
        if (std::isfinite(d) && std::abs(d) >= overflowThreshold(dtype)) {
            char largest[32];
            std::snprintf(largest, sizeof largest, "%.8g", largestFinite(dtype));
            return v.dump() + " is beyond " + type + "'s largest finite value (" + largest +
                   "); write \"inf\" or \"-inf\" for an infinity";
        }
        return {};
    }
    if (!ir::isInteger(dtype))
        return {};
    if (!v.is_number_integer())
        return "expected a whole number for " + type + ", got " + v.dump();
    auto [lowest, highest] = integerRange(dtype);
    long double value = v.is_number_unsigned() ? static_cast<long double>(v.get<uint64_t>())
                                               : static_cast<long double>(v.get<int64_t>());
    if (value < lowest || value > highest)
        return v.dump() + " is out of " + type + "'s range";
    return {};
}

Expected<HostTensor> readTensor(const nlohmann::json& item, const std::string& where) {
    HostTensor t;
    if (!item.is_object() || !item.contains("name") || !item["name"].is_string())
        return Error(where + ": needs a string 'name'");
    t.name = item["name"].get<std::string>();
    std::string at = where + " ('" + t.name + "')";
    auto dtype = item.contains("dtype") && item["dtype"].is_string()
                     ? ir::parseDType(item["dtype"].get<std::string>())
                     : std::nullopt;
    if (item.contains("dtype") && item["dtype"] == "string")
        return Error(at + ".dtype: strings are not supported: Stagecraft's kernels take numbers "
                          "and booleans only");
    if (!dtype || ir::dtypeSize(*dtype) == 0)
        return Error(at + ".dtype: expected an element type such as \"f32\" or \"i64\"");
    t.dtype = *dtype;
    if (!item.contains("shape") || !item["shape"].is_array())
        return Error(at + ".shape: expected an array of dims");
    for (const auto& d : item["shape"]) {
        if (!d.is_number_integer() || d.get<int64_t>() < 0)
            return Error(at + ".shape: dims must be whole numbers >= 0");
        t.shape.push_back(d.get<int64_t>());
    }
    std::optional<int64_t> count = ir::checkedElementCount(t.shape);
    if (!count)
        return Error(at + ".shape: " + ir::formatShape(t.shape) + " has too many elements");
    const auto& data = item.contains("data") ? item["data"] : nlohmann::json();
    if (!data.is_array() || static_cast<int64_t>(data.size()) != *count)
        return Error(at + ".data: expected " + std::to_string(*count) + " numbers for shape " +
                     ir::formatShape(t.shape));
    t.data.resize(static_cast<size_t>(*count * ir::dtypeSize(t.dtype)));
    for (int64_t i = 0; i < t.elementCount(); ++i) {
        const auto& v = data[static_cast<size_t>(i)];
        if (v.is_number())
            if (std::string problem = rangeProblem(t.dtype, v); !problem.empty())
                return Error(at + ".data[" + std::to_string(i) + "]: " + problem);
        if (v.is_null() && ir::isFloatingPoint(t.dtype))
            ir::writeDouble(t.dtype, t.data, i, std::numeric_limits<double>::quiet_NaN());
        else if (v.is_number_integer() && !ir::isFloatingPoint(t.dtype))
            ir::writeInt64(t.dtype, t.data, i, v.get<int64_t>());
        else if (v.is_number())
            ir::writeDouble(t.dtype, t.data, i, v.get<double>());
        else if (auto special = v.is_string() && ir::isFloatingPoint(t.dtype)
                                    ? specialFloat(v.get<std::string>())
                                    : std::nullopt)
            ir::writeDouble(t.dtype, t.data, i, *special);
        else
            return Error(
                at + ".data[" + std::to_string(i) + "]: expected a number" +
                (ir::isFloatingPoint(t.dtype) ? ", null, \"inf\", \"-inf\" or \"nan\"" : ""));
    }
    return t;
}

} // namespace

double HostTensor::at(int64_t index) const {
    return ir::readDouble(dtype, data, index);
}

const HostTensor* findTensor(const TensorSet& set, std::string_view name) {
    for (const HostTensor& t : set)
        if (t.name == name)
            return &t;
    return nullptr;
}

std::string writeTensorsJson(const TensorSet& tensors) {
    std::string out = "{\n  \"format\": \"" + std::string(kFormat) +
                      "\",\n  \"version\": " + std::to_string(kVersion) + ",\n  \"tensors\": [";
    for (size_t k = 0; k < tensors.size(); ++k) {
        const HostTensor& t = tensors[k];
        out += k == 0 ? "\n    {" : ",\n    {";
        out += "\"name\": " + quoted(t.name) + ", \"dtype\": \"" +
               std::string(ir::dtypeName(t.dtype)) + "\", \"shape\": [";
        for (size_t d = 0; d < t.shape.size(); ++d)
            out += (d ? ", " : "") + std::to_string(t.shape[d]);
        out += "], \"data\": [";
        for (int64_t i = 0; i < t.elementCount(); ++i) {
            if (i > 0)
                out += ", ";
            appendNumber(out, t, i);
        }
        out += "]}";
    }
    out += "\n  ]\n}\n";
    return out;
}

Expected<TensorSet> readTensorsJson(std::string_view text, const std::string& file) {
    if (Status depth = checkJsonDepth(text); !depth.ok())
        return depth.error().withContext(file);
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded())
        return Error(file + ": not a JSON document");
    // Fields are type-checked before they are read: nlohmann's value() throws
    // on a string where a number is expected and casts 1e30 to int unchecked.
    const auto* format = doc.is_object() && doc.contains("format") ? &doc["format"] : nullptr;
    if (format == nullptr || !format->is_string() || format->get<std::string>() != kFormat)
        return Error(file + ": format: expected \"" + std::string(kFormat) + "\"");
    const auto* version = doc.contains("version") ? &doc["version"] : nullptr;
    if (version == nullptr || !version->is_number_integer() || version->get<int64_t>() != kVersion)
        return Error(file + ": version: expected " + std::to_string(kVersion));
    if (!doc.contains("tensors") || !doc["tensors"].is_array())
        return Error(file + ": tensors: expected an array");
    TensorSet set;
    for (size_t i = 0; i < doc["tensors"].size(); ++i) {
        SC_ASSIGN_OR_RETURN(
            HostTensor t,
            readTensor(doc["tensors"][i], file + ": tensors[" + std::to_string(i) + "]"));
        if (findTensor(set, t.name) != nullptr)
            return Error(file + ": tensor '" + t.name + "' appears twice");
        set.push_back(std::move(t));
    }
    return set;
}

Expected<TensorSet> seededInputs(const ir::Graph& graph, uint64_t seed) {
    TensorSet set;
    for (ir::TensorId id : graph.inputs()) {
        const ir::Tensor& in = graph.tensor(id);
        if (!ir::isFloatingPoint(in.dtype) && !ir::isInteger(in.dtype) &&
            in.dtype != ir::DType::Bool)
            return Error("input '" + in.name + "' has element type " +
                         std::string(ir::dtypeName(in.dtype)) +
                         ", which cannot be seeded; give its values with --inputs");
        SC_RETURN_IF_ERROR(checkAllocation(in.byteSize(), "input '" + in.name + "'"));
        HostTensor t{in.name, in.dtype, in.shape, {}};
        t.data.resize(static_cast<size_t>(in.byteSize()));
        uint64_t state = hashName(in.name, seed);
        for (int64_t i = 0; i < t.elementCount(); ++i) {
            uint64_t bits = mix(state);
            if (ir::isFloatingPoint(in.dtype)) {
                double unit = static_cast<double>(bits >> 11) * 0x1.0p-53;
                // Rounded to float first so every consumer sees the same value.
                ir::writeDouble(in.dtype, t.data, i, static_cast<float>(2 * unit - 1));
            } else {
                ir::writeInt64(in.dtype, t.data, i, static_cast<int64_t>(bits >> 63));
            }
        }
        set.push_back(std::move(t));
    }
    return set;
}

Expected<TensorSet> matchInputs(const ir::Graph& graph, const TensorSet& given) {
    TensorSet inputs;
    for (ir::TensorId id : graph.inputs()) {
        const ir::Tensor& in = graph.tensor(id);
        const HostTensor* t = findTensor(given, in.name);
        if (t == nullptr)
            return Error("input '" + in.name + "' is missing");
        if (t->dtype != in.dtype || t->shape != in.shape)
            return Error("input '" + in.name + "' is " + std::string(ir::dtypeName(t->dtype)) +
                         " " + ir::formatShape(t->shape) + ", the model expects " +
                         std::string(ir::dtypeName(in.dtype)) + " " + ir::formatShape(in.shape));
        inputs.push_back(*t);
    }
    return inputs;
}

Difference compareTensors(const HostTensor& actual, const HostTensor& expected) {
    Difference d;
    if (actual.shape != expected.shape) {
        d.mismatch =
            "shape " + ir::formatShape(actual.shape) + " vs " + ir::formatShape(expected.shape);
        return d;
    }
    double scale = 0;
    for (int64_t i = 0; i < expected.elementCount(); ++i) {
        double a = actual.at(i), e = expected.at(i);
        if (std::isnan(a) != std::isnan(e)) {
            d.mismatch = "NaN at element " + std::to_string(i);
            d.worstIndex = i;
            return d;
        }
        if (std::isnan(a) || a == e)
            continue;
        if (std::isinf(a) || std::isinf(e)) {
            d.mismatch = "infinity against a different value at element " + std::to_string(i);
            d.worstIndex = i;
            return d;
        }
        scale = std::max(scale, std::abs(e));
        if (std::abs(a - e) > d.maxAbsolute || d.worstIndex < 0) {
            d.maxAbsolute = std::abs(a - e);
            d.worstIndex = i;
        }
    }
    d.relative = scale > 0 ? d.maxAbsolute / scale : (d.maxAbsolute > 0 ? 1 : 0);
    return d;
}

Closeness checkClose(const HostTensor& actual, const HostTensor& expected, double rtol,
                     double atol) {
    Closeness c;
    if (actual.shape != expected.shape) {
        c.mismatch =
            "shape " + ir::formatShape(actual.shape) + " vs " + ir::formatShape(expected.shape);
        return c;
    }
    for (int64_t i = 0; i < expected.elementCount(); ++i) {
        double a = actual.at(i), e = expected.at(i);
        bool close =
            (std::isnan(a) && std::isnan(e)) || a == e ||
            (std::isfinite(a) && std::isfinite(e) && std::abs(a - e) <= atol + rtol * std::abs(e));
        if (close)
            continue;
        if (c.failing++ == 0)
            c.firstIndex = i;
    }
    return c;
}

} // namespace stagecraft::codegen
