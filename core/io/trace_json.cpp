// The algorithm trace (partition/trace.h) <-> JSON. Merge steps name their
// parts by op name (op ids are not stable across files); the order and binding
// steps keep their lists as recorded. Reading checks the value sets trace.h
// documents (patterns, rules, actions), instance labels and op names.

#include "io/internal/doc_names.h"
#include "io/internal/doc_parts.h"
#include "support/strings.h"

#include <algorithm>
#include <array>

namespace stagecraft::io {

namespace {

using json::Json;
using json::OrderedJson;

constexpr std::array<std::string_view, 3> kPatterns{"straight", "diamond", "branch"};
constexpr std::array<std::string_view, 2> kRules{"rule (i)", "rule (ii)"};
constexpr std::array<std::string_view, 5> kActions{"plain", "inferred", "mismatch", "updated",
                                                   "skipped"};

template <size_t N>
Expected<std::string> oneOf(const Json& object, const std::string& path, const char* key,
                            const std::array<std::string_view, N>& values) {
    SC_ASSIGN_OR_RETURN(std::string text, json::stringField(object, path, key));
    if (std::find(values.begin(), values.end(), text) == values.end()) {
        std::vector<std::string> names(values.begin(), values.end());
        return json::errorAt(json::child(path, key), "unknown value " + quote(text) +
                                                         " (expected " + join(names, ", ") + ")");
    }
    return text;
}

OrderedJson mergeToJson(const ir::Graph& graph, const partition::MergeStep& step) {
    OrderedJson parts = OrderedJson::array();
    for (ir::OpId op : step.parts)
        parts.push_back(graph.op(op).name);
    return {{"round", step.round},
            {"pattern", step.pattern},
            {"parts", std::move(parts)},
            {"part_sizes", step.partSizes},
            {"factors", step.factors},
            {"merged_factor", step.mergedFactor},
            {"rule", step.rule},
            {"merged", step.merged},
            {"explanation", step.explanation}};
}

Expected<partition::MergeStep> mergeFromJson(const Json& value, const std::string& path,
                                             const ir::Graph& graph) {
    SC_RETURN_IF_ERROR(json::checkObject(value, path,
                                         {"round", "pattern", "parts", "part_sizes", "factors",
                                          "merged_factor", "rule", "merged", "explanation"}));
    partition::MergeStep step;
    SC_ASSIGN_OR_RETURN(step.round, json::smallIntField(value, path, "round", 1));
    SC_ASSIGN_OR_RETURN(step.pattern, oneOf(value, path, "pattern", kPatterns));
    SC_ASSIGN_OR_RETURN(std::vector<std::string> parts, json::stringsField(value, path, "parts"));
    for (size_t i = 0; i < parts.size(); ++i) {
        std::optional<ir::OpId> op = graph.findOp(parts[i]);
        if (!op)
            return json::errorAt(json::item(json::child(path, "parts"), i),
                                 "unknown op " + quote(parts[i]));
        step.parts.push_back(*op);
    }
    SC_ASSIGN_OR_RETURN(step.partSizes, json::intsField(value, path, "part_sizes", 1));
    SC_ASSIGN_OR_RETURN(step.factors, json::intsField(value, path, "factors", 0));
    if (step.partSizes.size() != parts.size() || step.factors.size() != parts.size())
        return json::errorAt(path, "parts, part_sizes and factors must have the same length");
    SC_ASSIGN_OR_RETURN(step.mergedFactor, json::intField(value, path, "merged_factor", 0));
    SC_ASSIGN_OR_RETURN(step.rule, oneOf(value, path, "rule", kRules));
    SC_ASSIGN_OR_RETURN(step.merged, json::boolField(value, path, "merged"));
    SC_ASSIGN_OR_RETURN(step.explanation, json::stringField(value, path, "explanation"));
    return step;
}

Expected<std::vector<std::string>>
labelsField(const Json& value, const std::string& path, const char* key,
            const std::map<std::string, schedule::InstanceId>& labels) {
    SC_ASSIGN_OR_RETURN(std::vector<std::string> list, json::stringsField(value, path, key));
    for (size_t i = 0; i < list.size(); ++i)
        if (!labels.count(list[i]))
            return json::errorAt(json::item(json::child(path, key), i),
                                 "unknown instance " + quote(list[i]));
    return list;
}

Expected<partition::OrderStep>
orderStepFromJson(const Json& value, const std::string& path,
                  const std::map<std::string, schedule::InstanceId>& labels) {
    SC_RETURN_IF_ERROR(json::checkObject(value, path, {"visit", "ready", "order", "explanation"}));
    partition::OrderStep step;
    SC_ASSIGN_OR_RETURN(step.visit, labelsField(value, path, "visit", labels));
    SC_ASSIGN_OR_RETURN(step.ready, labelsField(value, path, "ready", labels));
    SC_ASSIGN_OR_RETURN(step.order, labelsField(value, path, "order", labels));
    SC_ASSIGN_OR_RETURN(step.explanation, json::stringField(value, path, "explanation"));
    return step;
}

Expected<partition::BindStep>
bindStepFromJson(const Json& value, const std::string& path,
                 const std::map<std::string, schedule::InstanceId>& labels) {
    SC_RETURN_IF_ERROR(
        json::checkObject(value, path, {"instance", "action", "bind", "scope", "explanation"}));
    partition::BindStep step;
    SC_ASSIGN_OR_RETURN(step.instance, json::stringField(value, path, "instance"));
    if (!labels.count(step.instance))
        return json::errorAt(json::child(path, "instance"),
                             "unknown instance " + quote(step.instance));
    SC_ASSIGN_OR_RETURN(step.action, oneOf(value, path, "action", kActions));
    SC_ASSIGN_OR_RETURN(step.bind, json::intsField(value, path, "bind", 1));
    SC_ASSIGN_OR_RETURN(step.scope, json::stringField(value, path, "scope"));
    if (!parseScopeDoc(step.scope))
        return json::errorAt(json::child(path, "scope"),
                             "unknown scope " + quote(step.scope) + " (expected LB, GB or DDR)");
    SC_ASSIGN_OR_RETURN(step.explanation, json::stringField(value, path, "explanation"));
    return step;
}

/// Reads the array \p key of \p value with \p readOne for each element.
template <class Step, class ReadOne>
Status readSteps(const Json& value, const std::string& path, const char* key,
                 std::vector<Step>& steps, ReadOne readOne) {
    SC_ASSIGN_OR_RETURN(const Json* list, json::required(value, path, key));
    const std::string at = json::child(path, key);
    SC_RETURN_IF_ERROR(json::checkArray(*list, at));
    for (size_t i = 0; i < list->size(); ++i) {
        SC_ASSIGN_OR_RETURN(Step step, readOne((*list)[i], json::item(at, i)));
        steps.push_back(std::move(step));
    }
    return {};
}

} // namespace

OrderedJson traceToJson(const ir::Graph& graph, const partition::Trace& trace) {
    OrderedJson merges = OrderedJson::array();
    for (const partition::MergeStep& step : trace.merges)
        merges.push_back(mergeToJson(graph, step));
    OrderedJson order = OrderedJson::array();
    for (const partition::OrderStep& step : trace.order)
        order.push_back({{"visit", step.visit},
                         {"ready", step.ready},
                         {"order", step.order},
                         {"explanation", step.explanation}});
    OrderedJson binding = OrderedJson::array();
    for (const partition::BindStep& step : trace.binding)
        binding.push_back({{"instance", step.instance},
                           {"action", step.action},
                           {"bind", step.bind},
                           {"scope", step.scope},
                           {"explanation", step.explanation}});
    return {{"merges", std::move(merges)},
            {"order", std::move(order)},
            {"binding", std::move(binding)}};
}

Expected<partition::Trace>
traceFromJson(const Json& value, const std::string& path, const ir::Graph& graph,
              const std::map<std::string, schedule::InstanceId>& labels) {
    SC_RETURN_IF_ERROR(json::checkObject(value, path, {"merges", "order", "binding"}));
    partition::Trace trace;
    SC_RETURN_IF_ERROR(readSteps(
        value, path, "merges", trace.merges,
        [&](const Json& step, const std::string& at) { return mergeFromJson(step, at, graph); }));
    SC_RETURN_IF_ERROR(
        readSteps(value, path, "order", trace.order, [&](const Json& step, const std::string& at) {
            return orderStepFromJson(step, at, labels);
        }));
    SC_RETURN_IF_ERROR(readSteps(value, path, "binding", trace.binding,
                                 [&](const Json& step, const std::string& at) {
                                     return bindStepFromJson(step, at, labels);
                                 }));
    return trace;
}

} // namespace stagecraft::io
