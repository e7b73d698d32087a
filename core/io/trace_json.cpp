// The algorithm trace (partition/trace.h) <-> JSON. Merge steps name their
// parts by op name (op ids are not stable across files), as AGO's and DLA's
// steps do; the order and binding steps keep their lists as recorded. The
// `ago` and `dla` lists are written only when recorded (those strategies). Reading checks the value
// sets trace.h documents (patterns, rules, actions), instance labels and op names.

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

Expected<ir::OpId> opField(const Json& value, const std::string& path, const char* key,
                           const ir::Graph& graph) {
    SC_ASSIGN_OR_RETURN(std::string name, json::stringField(value, path, key));
    std::optional<ir::OpId> op = graph.findOp(name);
    if (!op)
        return json::errorAt(json::child(path, key), "unknown op " + quote(name));
    return *op;
}

/// The ops named by the string array \p key.
Expected<std::vector<ir::OpId>> opsField(const Json& value, const std::string& path,
                                         const char* key, const ir::Graph& graph) {
    SC_ASSIGN_OR_RETURN(std::vector<std::string> names, json::stringsField(value, path, key));
    std::vector<ir::OpId> ops;
    for (size_t i = 0; i < names.size(); ++i) {
        std::optional<ir::OpId> op = graph.findOp(names[i]);
        if (!op)
            return json::errorAt(json::item(json::child(path, key), i),
                                 "unknown op " + quote(names[i]));
        ops.push_back(*op);
    }
    return ops;
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
    SC_ASSIGN_OR_RETURN(step.parts, opsField(value, path, "parts", graph));
    SC_ASSIGN_OR_RETURN(step.partSizes, json::intsField(value, path, "part_sizes", 1));
    SC_ASSIGN_OR_RETURN(step.factors, json::intsField(value, path, "factors", 0));
    if (step.partSizes.size() != step.parts.size() || step.factors.size() != step.parts.size())
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

OrderedJson agoToJson(const ir::Graph& graph, const partition::AgoStep& step) {
    return {{"into", graph.op(step.into).name}, {"taken", graph.op(step.taken).name},
            {"into_ops", step.intoOps},         {"taken_ops", step.takenOps},
            {"into_weight", step.intoWeight},   {"taken_weight", step.takenWeight},
            {"threshold", step.threshold},      {"explanation", step.explanation}};
}

OrderedJson dlaToJson(const ir::Graph& graph, const partition::DlaStep& step) {
    OrderedJson parts = OrderedJson::array();
    for (ir::OpId op : step.parts)
        parts.push_back(graph.op(op).name);
    return {{"first", graph.op(step.first).name},   {"ops", step.ops},
            {"on_accelerator", step.onAccelerator}, {"parts", std::move(parts)},
            {"part_sizes", step.partSizes},         {"explanation", step.explanation}};
}

Expected<partition::AgoStep> agoFromJson(const Json& value, const std::string& path,
                                         const ir::Graph& graph) {
    SC_RETURN_IF_ERROR(json::checkObject(value, path,
                                         {"into", "taken", "into_ops", "taken_ops", "into_weight",
                                          "taken_weight", "threshold", "explanation"}));
    partition::AgoStep step;
    SC_ASSIGN_OR_RETURN(step.into, opField(value, path, "into", graph));
    SC_ASSIGN_OR_RETURN(step.taken, opField(value, path, "taken", graph));
    SC_ASSIGN_OR_RETURN(step.intoOps, json::intField(value, path, "into_ops", 1));
    SC_ASSIGN_OR_RETURN(step.takenOps, json::intField(value, path, "taken_ops", 1));
    SC_ASSIGN_OR_RETURN(step.intoWeight, json::numberField(value, path, "into_weight"));
    SC_ASSIGN_OR_RETURN(step.takenWeight, json::numberField(value, path, "taken_weight"));
    SC_ASSIGN_OR_RETURN(step.threshold, json::numberField(value, path, "threshold"));
    SC_ASSIGN_OR_RETURN(step.explanation, json::stringField(value, path, "explanation"));
    return step;
}

Expected<partition::DlaStep> dlaFromJson(const Json& value, const std::string& path,
                                         const ir::Graph& graph) {
    SC_RETURN_IF_ERROR(json::checkObject(
        value, path, {"first", "ops", "on_accelerator", "parts", "part_sizes", "explanation"}));
    partition::DlaStep step;
    SC_ASSIGN_OR_RETURN(step.first, opField(value, path, "first", graph));
    SC_ASSIGN_OR_RETURN(step.ops, json::intField(value, path, "ops", 1));
    SC_ASSIGN_OR_RETURN(step.onAccelerator, json::boolField(value, path, "on_accelerator"));
    SC_ASSIGN_OR_RETURN(step.parts, opsField(value, path, "parts", graph));
    SC_ASSIGN_OR_RETURN(step.partSizes, json::intsField(value, path, "part_sizes", 1));
    if (step.partSizes.size() != step.parts.size())
        return json::errorAt(path, "parts and part_sizes must have the same length");
    SC_ASSIGN_OR_RETURN(step.explanation, json::stringField(value, path, "explanation"));
    return step;
}

OrderedJson iosToJson(const ir::Graph& graph, const partition::IosStep& step) {
    OrderedJson groups = OrderedJson::array();
    for (ir::OpId op : step.groups)
        groups.push_back(graph.op(op).name);
    return {{"block", step.block},
            {"units", step.units},
            {"states", step.states},
            {"transitions", step.transitions},
            {"groups", std::move(groups)},
            {"group_sizes", step.groupSizes},
            {"merged", step.merged},
            {"latency_ns", step.latencyNs},
            {"state_units", step.stateUnits},
            {"state_cost_ns", step.stateCostNs},
            {"endings", step.endings},
            {"runner_up_ns", step.runnerUpNs},
            {"explanation", step.explanation}};
}

/// The DP's state of an IOS step; absent from documents written before it.
Status iosStateFromJson(const Json& value, const std::string& path, partition::IosStep& step) {
    if (json::optional(value, "state_units") == nullptr)
        return Status::success();
    SC_ASSIGN_OR_RETURN(step.stateUnits, json::intField(value, path, "state_units", 1));
    SC_ASSIGN_OR_RETURN(step.stateCostNs, json::numberField(value, path, "state_cost_ns"));
    SC_ASSIGN_OR_RETURN(step.endings, json::intField(value, path, "endings", 1));
    SC_ASSIGN_OR_RETURN(step.runnerUpNs, json::numberField(value, path, "runner_up_ns"));
    return Status::success();
}

Expected<partition::IosStep> iosFromJson(const Json& value, const std::string& path,
                                         const ir::Graph& graph) {
    SC_RETURN_IF_ERROR(json::checkObject(
        value, path,
        {"block", "units", "states", "transitions", "groups", "group_sizes", "merged", "latency_ns",
         "state_units", "state_cost_ns", "endings", "runner_up_ns", "explanation"}));
    partition::IosStep step;
    SC_ASSIGN_OR_RETURN(step.block, json::intField(value, path, "block", 0));
    SC_ASSIGN_OR_RETURN(step.units, json::intField(value, path, "units", 1));
    SC_ASSIGN_OR_RETURN(step.states, json::intField(value, path, "states", 1));
    SC_ASSIGN_OR_RETURN(step.transitions, json::intField(value, path, "transitions", 0));
    SC_ASSIGN_OR_RETURN(step.groups, opsField(value, path, "groups", graph));
    SC_ASSIGN_OR_RETURN(step.groupSizes, json::intsField(value, path, "group_sizes", 1));
    if (step.groups.empty() || step.groupSizes.size() != step.groups.size())
        return json::errorAt(path, "groups and group_sizes must have the same, non-zero length");
    SC_ASSIGN_OR_RETURN(step.merged, json::boolField(value, path, "merged"));
    SC_ASSIGN_OR_RETURN(step.latencyNs, json::numberField(value, path, "latency_ns"));
    SC_RETURN_IF_ERROR(iosStateFromJson(value, path, step));
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
    OrderedJson out = {{"merges", std::move(merges)},
                       {"order", std::move(order)},
                       {"binding", std::move(binding)}};
    if (!trace.ago.empty()) { // only the ago, dla and ios strategies have these
        OrderedJson ago = OrderedJson::array();
        for (const partition::AgoStep& step : trace.ago)
            ago.push_back(agoToJson(graph, step));
        out["ago"] = std::move(ago);
    }
    if (!trace.dla.empty()) {
        OrderedJson dla = OrderedJson::array();
        for (const partition::DlaStep& step : trace.dla)
            dla.push_back(dlaToJson(graph, step));
        out["dla"] = std::move(dla);
    }
    if (!trace.ios.empty()) {
        OrderedJson ios = OrderedJson::array();
        for (const partition::IosStep& step : trace.ios)
            ios.push_back(iosToJson(graph, step));
        out["ios"] = std::move(ios);
    }
    return out;
}

Expected<partition::Trace>
traceFromJson(const Json& value, const std::string& path, const ir::Graph& graph,
              const std::map<std::string, schedule::InstanceId>& labels) {
    SC_RETURN_IF_ERROR(
        json::checkObject(value, path, {"merges", "order", "binding", "ago", "dla", "ios"}));
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
    if (json::optional(value, "ago") != nullptr)
        SC_RETURN_IF_ERROR(
            readSteps(value, path, "ago", trace.ago, [&](const Json& step, const std::string& at) {
                return agoFromJson(step, at, graph);
            }));
    if (json::optional(value, "dla") != nullptr)
        SC_RETURN_IF_ERROR(
            readSteps(value, path, "dla", trace.dla, [&](const Json& step, const std::string& at) {
                return dlaFromJson(step, at, graph);
            }));
    if (json::optional(value, "ios") != nullptr)
        SC_RETURN_IF_ERROR(
            readSteps(value, path, "ios", trace.ios, [&](const Json& step, const std::string& at) {
                return iosFromJson(step, at, graph);
            }));
    return trace;
}

} // namespace stagecraft::io
