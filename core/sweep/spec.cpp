// Reading a sweep spec (docs/sweeps.md). Every field is checked here, with
// its JSON path in the error, so that a typo fails at once rather than as
// thousands of failed points. Lists of numbers may be written as a number, a
// list, or a range: {"from", "to", "step"} (linear) or {"from", "to",
// "times"} (geometric, e.g. powers of two).

#include "sweep/spec.h"

#include "ir/precision.h"
#include "json/fields.h"
#include "schedule/schedule.h"
#include "sim/compare.h"
#include "support/error_context.h"
#include "support/strings.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stagecraft::sweep {

namespace {

using json_fields::child;
using json_fields::errorAt;
using json_fields::item;
using json_fields::Json;
using json_fields::mustBe;

/// More values than this on one list is a typo in a range, not a sweep.
constexpr size_t kMaxValues = 100000;

Expected<double> finiteNumber(const Json& value, const std::string& path) {
    if (!value.is_number() || !std::isfinite(value.get<double>()))
        return mustBe(path, "a number", value);
    return value.get<double>();
}

Expected<std::vector<double>> readRange(const Json& range, const std::string& path) {
    SC_RETURN_IF_ERROR(json_fields::checkObject(range, path, {"from", "to", "step", "times"}));
    SC_ASSIGN_OR_RETURN(const Json* fromField, json_fields::required(range, path, "from"));
    SC_ASSIGN_OR_RETURN(const Json* toField, json_fields::required(range, path, "to"));
    SC_ASSIGN_OR_RETURN(double from, finiteNumber(*fromField, child(path, "from")));
    SC_ASSIGN_OR_RETURN(double to, finiteNumber(*toField, child(path, "to")));
    if (to < from)
        return mustBe(child(path, "to"), "at least 'from'", *toField);
    const Json* step = json_fields::optional(range, "step");
    const Json* times = json_fields::optional(range, "times");
    if (step && times)
        return errorAt(path, "give 'step' or 'times', not both");
    // The last value taken, a little above 'to' for rounding; never beyond
    // the largest double, so that no value overflows to infinity.
    auto upTo = [](double bound) {
        return std::min(bound, std::numeric_limits<double>::max());
    };
    std::vector<double> values;
    if (times) {
        SC_ASSIGN_OR_RETURN(double factor, finiteNumber(*times, child(path, "times")));
        if (factor <= 1 || from <= 0)
            return factor <= 1 ? mustBe(child(path, "times"), "above 1", *times)
                               : mustBe(child(path, "from"), "above 0 with 'times'", *fromField);
        for (double v = from; v <= upTo(to * (1 + 1e-12)) && values.size() <= kMaxValues;
             v *= factor)
            values.push_back(v);
    } else {
        double by = 1;
        if (step) {
            SC_ASSIGN_OR_RETURN(by, finiteNumber(*step, child(path, "step")));
            if (by <= 0)
                return mustBe(child(path, "step"), "above 0", *step);
        }
        for (size_t i = 0; from + static_cast<double>(i) * by <= upTo(to * (1 + 1e-12) + 1e-12) &&
                           values.size() <= kMaxValues;
             ++i)
            values.push_back(from + static_cast<double>(i) * by);
    }
    if (values.size() > kMaxValues)
        return errorAt(path, "more than " + std::to_string(kMaxValues) + " values");
    return values;
}

/// A number, a non-empty list of numbers or a range.
Expected<std::vector<double>> readValues(const Json& value, const std::string& path) {
    if (value.is_object())
        return readRange(value, path);
    if (!value.is_array()) {
        if (!value.is_number())
            return mustBe(path, "a number, a list or a range", value);
        SC_ASSIGN_OR_RETURN(double single, finiteNumber(value, path));
        return std::vector<double>{single};
    }
    if (value.empty())
        return mustBe(path, "a non-empty list", value);
    if (value.size() > kMaxValues)
        return errorAt(path, "more than " + std::to_string(kMaxValues) + " values");
    std::vector<double> values;
    for (size_t i = 0; i < value.size(); ++i) {
        SC_ASSIGN_OR_RETURN(double v, finiteNumber(value[i], item(path, i)));
        values.push_back(v);
    }
    return values;
}

/// readValues, each value a whole number of at least 1.
Expected<std::vector<int64_t>> readCounts(const Json& value, const std::string& path) {
    SC_ASSIGN_OR_RETURN(std::vector<double> values, readValues(value, path));
    std::vector<int64_t> counts;
    for (double v : values) {
        if (v < 1 || v != std::floor(v) || v > 1e15)
            return errorAt(path, "every value must be a whole number of at least 1 (got " +
                                     formatNumber(v) + ")");
        counts.push_back(static_cast<int64_t>(v));
    }
    return counts;
}

/// A string or a non-empty list of strings, each accepted by \p check (which
/// returns an error message or nothing).
template <class Check>
Expected<std::vector<std::string>> readNames(const Json& value, const std::string& path,
                                             Check check) {
    std::vector<std::string> names;
    if (value.is_string()) {
        names.push_back(value.get<std::string>());
    } else if (value.is_array() && !value.empty()) {
        for (size_t i = 0; i < value.size(); ++i) {
            SC_ASSIGN_OR_RETURN(std::string name, json_fields::getString(value[i], item(path, i)));
            names.push_back(std::move(name));
        }
    } else {
        return mustBe(path, "a string or a non-empty list of strings", value);
    }
    for (size_t i = 0; i < names.size(); ++i)
        if (std::optional<std::string> problem = check(names[i]))
            return errorAt(value.is_array() ? item(path, i) : path, *problem);
    return names;
}

std::optional<std::string> checkStrategy(const std::string& name) {
    if (sim::findStrategy(name) == nullptr)
        return sim::unknownStrategyMessage(name);
    return std::nullopt;
}

std::optional<std::string> checkPrecision(const std::string& name) {
    if (name == "model")
        return std::nullopt;
    if (!ir::parsePrecision(name).ok())
        return "must be model, f32, f16 or bf16 (got " + quote(name) + ")";
    return std::nullopt;
}

std::optional<std::string> checkLevel(const std::string& name) {
    if (!schedule::parseLevelChoice(name))
        return "must be auto, lb or gb (got " + quote(name) + ")";
    return std::nullopt;
}

Expected<ModelEntry> readModel(const Json& value, const std::string& path) {
    if (value.is_string())
        return ModelEntry{value.get<std::string>(), 0};
    if (!value.is_object())
        return mustBe(path, "a model path, \"zoo:NAME\" or {\"model\", \"seq\"}", value);
    SC_RETURN_IF_ERROR(json_fields::checkObject(value, path, {"model", "seq"}));
    ModelEntry entry;
    SC_ASSIGN_OR_RETURN(entry.text, json_fields::stringField(value, path, "model"));
    if (const Json* seq = json_fields::optional(value, "seq")) {
        if (!seq->is_number_integer() || seq->get<int64_t>() < 1)
            return mustBe(child(path, "seq"), "a whole number of at least 1", *seq);
        entry.seq = seq->get<int64_t>();
    }
    return entry;
}

Status readModels(const Json& root, SweepSpec& spec) {
    SC_ASSIGN_OR_RETURN(const Json* models, json_fields::required(root, "", "models"));
    if (!models->is_array() || models->empty())
        return mustBe("models", "a non-empty list", *models);
    for (size_t i = 0; i < models->size(); ++i) {
        SC_ASSIGN_OR_RETURN(ModelEntry entry, readModel((*models)[i], item("models", i)));
        if (entry.text.empty())
            return errorAt(item("models", i), "empty model name");
        spec.models.push_back(std::move(entry));
    }
    return Status::success();
}

bool knownAxisName(const std::string& field) {
    for (const char* name : {"lb_bytes", "gb_bytes", "cores", "clusters", "clock_ghz"})
        if (field == name)
            return true;
    return field.rfind("bandwidth:", 0) == 0 || field.rfind("rate:", 0) == 0 ||
           field.rfind('/', 0) == 0;
}

Status readArch(const Json& arch, SweepSpec& spec) {
    if (arch.is_string()) {
        spec.arch = arch.get<std::string>();
        return Status::success();
    }
    if (!arch.is_object())
        return mustBe("arch", "a preset name, a file or {\"base\", \"vary\"}", arch);
    SC_RETURN_IF_ERROR(json_fields::checkObject(arch, "arch", {"base", "vary"}));
    if (json_fields::optional(arch, "base")) {
        SC_ASSIGN_OR_RETURN(spec.arch, json_fields::stringField(arch, "arch", "base"));
    }
    const Json* vary = json_fields::optional(arch, "vary");
    if (!vary)
        return Status::success();
    if (!vary->is_object())
        return mustBe("arch.vary", "an object of fields and their values", *vary);
    for (const auto& [field, values] : vary->items()) {
        std::string path = child("arch.vary", field);
        if (!knownAxisName(field))
            return errorAt(path, "unknown field (expected lb_bytes, gb_bytes, cores, clusters, "
                                 "clock_ghz, bandwidth:FROM->TO, rate:UNIT:DTYPE or a JSON "
                                 "pointer such as /cluster/global_buffer/bytes)");
        SC_ASSIGN_OR_RETURN(std::vector<double> list, readValues(values, path));
        spec.axes.push_back({field, std::move(list)});
    }
    return Status::success();
}

Status readLists(const Json& root, SweepSpec& spec) {
    if (const Json* v = json_fields::optional(root, "strategies")) {
        SC_ASSIGN_OR_RETURN(spec.strategies, readNames(*v, "strategies", checkStrategy));
    }
    if (const Json* v = json_fields::optional(root, "precisions")) {
        SC_ASSIGN_OR_RETURN(spec.precisions, readNames(*v, "precisions", checkPrecision));
    }
    if (const Json* v = json_fields::optional(root, "levels")) {
        SC_ASSIGN_OR_RETURN(spec.levels, readNames(*v, "levels", checkLevel));
    }
    if (const Json* v = json_fields::optional(root, "batch")) {
        SC_ASSIGN_OR_RETURN(spec.batches, readCounts(*v, "batch"));
    }
    if (const Json* v = json_fields::optional(root, "per_cluster")) {
        SC_ASSIGN_OR_RETURN(spec.perCluster, readCounts(*v, "per_cluster"));
    }
    return Status::success();
}

Status readHeader(const Json& root) {
    if (const Json* format = json_fields::optional(root, "format");
        format && *format != "stagecraft-sweep")
        return mustBe("format", "\"stagecraft-sweep\"", *format);
    if (const Json* version = json_fields::optional(root, "version"); version && *version != 1)
        return mustBe("version", "1", *version);
    return Status::success();
}

Expected<SweepSpec> readSpec(const Json& root) {
    if (!root.is_object())
        return mustBe("", "a JSON object", root);
    SC_RETURN_IF_ERROR(
        json_fields::checkObject(root, "",
                                 {"format", "version", "models", "arch", "strategies", "precisions",
                                  "batch", "per_cluster", "levels"}));
    SC_RETURN_IF_ERROR(readHeader(root));
    SweepSpec spec;
    SC_RETURN_IF_ERROR(readModels(root, spec));
    if (const Json* arch = json_fields::optional(root, "arch")) {
        SC_RETURN_IF_ERROR(readArch(*arch, spec));
    }
    SC_RETURN_IF_ERROR(readLists(root, spec));
    if (spec.strategies.empty())
        spec.strategies = {"tvm", "astitch", "graphturbo"};
    if (spec.precisions.empty())
        spec.precisions = {"model"};
    if (spec.levels.empty())
        spec.levels = {"auto"};
    return spec;
}

/// Multiplies, saturating at INT64_MAX.
int64_t times(int64_t a, size_t b) {
    if (b != 0 && a > std::numeric_limits<int64_t>::max() / static_cast<int64_t>(b))
        return std::numeric_limits<int64_t>::max();
    return a * static_cast<int64_t>(b);
}

template <class T>
std::vector<std::optional<T>> optionalList(const std::vector<T>& values) {
    if (values.empty())
        return {std::nullopt};
    return {values.begin(), values.end()};
}

/// Every combination of the axes' values, the last axis fastest.
std::vector<std::vector<double>> archCombinations(const std::vector<ArchAxis>& axes) {
    std::vector<std::vector<double>> combos{{}};
    for (const ArchAxis& axis : axes) {
        std::vector<std::vector<double>> next;
        for (const std::vector<double>& combo : combos)
            for (double v : axis.values) {
                next.push_back(combo);
                next.back().push_back(v);
            }
        combos = std::move(next);
    }
    return combos;
}

std::string optionalText(const std::optional<int64_t>& value) {
    return value ? std::to_string(*value) : "-";
}

} // namespace

std::string formatNumber(double value) {
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        return std::to_string(static_cast<int64_t>(value));
    return Json(value).dump();
}

Expected<SweepSpec> parseSpec(std::string_view json, std::string_view source) {
    Expected<Json> root = json_fields::parse(json);
    Expected<SweepSpec> spec = root.ok() ? readSpec(*root) : Expected<SweepSpec>(root.error());
    if (!spec.ok())
        return inContext(spec.error(), source);
    return spec;
}

int64_t countPoints(const SweepSpec& spec) {
    int64_t n = times(1, spec.models.size());
    for (const ArchAxis& axis : spec.axes)
        n = times(n, axis.values.size());
    for (size_t size :
         {spec.precisions.size(), std::max<size_t>(1, spec.batches.size()),
          std::max<size_t>(1, spec.perCluster.size()), spec.levels.size(), spec.strategies.size()})
        n = times(n, size);
    return n;
}

std::vector<SweepPoint> expandPoints(const SweepSpec& spec) {
    std::vector<SweepPoint> points;
    std::vector<std::vector<double>> archs = archCombinations(spec.axes);
    for (const ModelEntry& model : spec.models)
        for (const std::vector<double>& archValues : archs)
            for (const std::string& precision : spec.precisions)
                for (std::optional<int64_t> batch : optionalList(spec.batches))
                    for (std::optional<int64_t> k : optionalList(spec.perCluster))
                        for (const std::string& level : spec.levels)
                            for (const std::string& strategy : spec.strategies)
                                points.push_back({static_cast<int64_t>(points.size()), model,
                                                  archValues, strategy, precision, batch, k,
                                                  level});
    return points;
}

std::string pointKey(const SweepSpec& spec, const SweepPoint& point) {
    std::string key = "model=" + point.model.text + " seq=" + std::to_string(point.model.seq) +
                      " arch=" + spec.arch;
    for (size_t i = 0; i < spec.axes.size() && i < point.archValues.size(); ++i)
        key += " " + spec.axes[i].field + "=" + formatNumber(point.archValues[i]);
    return key + " precision=" + point.precision + " batch=" + optionalText(point.batch) +
           " per_cluster=" + optionalText(point.perCluster) + " level=" + point.level +
           " strategy=" + point.strategy;
}

} // namespace stagecraft::sweep
