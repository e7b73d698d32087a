// The overrides object <-> schedule::Overrides. Only the form is checked here
// (types, non-empty names, dim >= 0, factor >= 1, scope names, an instance at
// most once in `order`); buildSchedule decides whether the edits fit the model
// and refuses them with a reason. An overrides file always lists all six keys
// when written, so that a user editing it sees what can be set.

#include "io/overrides_json.h"

#include "io/internal/doc_names.h"
#include "io/internal/doc_parts.h"
#include "io/schedule_json.h"
#include "support/strings.h"

#include <set>

namespace stagecraft::io {

namespace {

using json::Json;
using json::OrderedJson;
using schedule::Overrides;

Status readMerges(const Json& value, const std::string& path, Overrides& overrides) {
    SC_RETURN_IF_ERROR(json::checkArray(value, path));
    for (size_t i = 0; i < value.size(); ++i) {
        const std::string at = json::item(path, i);
        if (!value[i].is_array() || value[i].size() != 2)
            return json::mustBe(at, "a pair of op names [\"opA\", \"opB\"]", value[i]);
        SC_ASSIGN_OR_RETURN(std::string op1, json::getName(value[i][0], json::item(at, 0)));
        SC_ASSIGN_OR_RETURN(std::string op2, json::getName(value[i][1], json::item(at, 1)));
        overrides.merges.push_back({std::move(op1), std::move(op2)});
    }
    return {};
}

Status readUngroups(const Json& value, const std::string& path, Overrides& overrides) {
    SC_RETURN_IF_ERROR(json::checkArray(value, path));
    for (size_t i = 0; i < value.size(); ++i) {
        SC_ASSIGN_OR_RETURN(std::string op, json::getName(value[i], json::item(path, i)));
        overrides.ungroups.push_back({std::move(op)});
    }
    return {};
}

Status readHost(const Json& value, const std::string& path, Overrides& overrides) {
    SC_RETURN_IF_ERROR(json::checkArray(value, path));
    std::set<std::string> seen;
    for (size_t i = 0; i < value.size(); ++i) {
        SC_ASSIGN_OR_RETURN(std::string op, json::getName(value[i], json::item(path, i)));
        if (!seen.insert(op).second)
            return json::errorAt(json::item(path, i), "op " + quote(op) + " is listed twice");
        overrides.host.push_back(std::move(op));
    }
    return {};
}

Status readSplits(const Json& value, const std::string& path, Overrides& overrides) {
    SC_RETURN_IF_ERROR(json::checkArray(value, path));
    for (size_t i = 0; i < value.size(); ++i) {
        const std::string at = json::item(path, i);
        SC_RETURN_IF_ERROR(json::checkObject(value[i], at, {"op", "dim", "factor"}));
        Overrides::Split split;
        SC_ASSIGN_OR_RETURN(split.op, json::nameField(value[i], at, "op"));
        SC_ASSIGN_OR_RETURN(split.dim, json::smallIntField(value[i], at, "dim", 0));
        SC_ASSIGN_OR_RETURN(split.factor, json::intField(value[i], at, "factor", 1));
        overrides.splits.push_back(std::move(split));
    }
    return {};
}

Status readOrder(const Json& value, const std::string& path, Overrides& overrides) {
    SC_RETURN_IF_ERROR(json::checkArray(value, path));
    std::set<std::string> seen;
    for (size_t i = 0; i < value.size(); ++i) {
        SC_ASSIGN_OR_RETURN(std::string label, json::getName(value[i], json::item(path, i)));
        if (!seen.insert(label).second)
            return json::errorAt(json::item(path, i),
                                 "instance " + quote(label) + " is listed twice");
        overrides.order.push_back(std::move(label));
    }
    return {};
}

Status readScopes(const Json& value, const std::string& path, Overrides& overrides) {
    SC_RETURN_IF_ERROR(json::checkArray(value, path));
    for (size_t i = 0; i < value.size(); ++i) {
        const std::string at = json::item(path, i);
        SC_RETURN_IF_ERROR(json::checkObject(value[i], at, {"tensor", "scope"}));
        Overrides::ScopePin pin;
        SC_ASSIGN_OR_RETURN(pin.tensor, json::nameField(value[i], at, "tensor"));
        SC_ASSIGN_OR_RETURN(pin.scope, scopeField(value[i], at, "scope"));
        overrides.scopes.push_back(std::move(pin));
    }
    return {};
}

} // namespace

OrderedJson overridesToJson(const Overrides& overrides) {
    OrderedJson merges = OrderedJson::array();
    for (const Overrides::Merge& merge : overrides.merges)
        merges.push_back(OrderedJson::array({merge.op1, merge.op2}));
    OrderedJson ungroups = OrderedJson::array();
    for (const Overrides::Ungroup& ungroup : overrides.ungroups)
        ungroups.push_back(ungroup.op);
    OrderedJson splits = OrderedJson::array();
    for (const Overrides::Split& split : overrides.splits)
        splits.push_back({{"op", split.op}, {"dim", split.dim}, {"factor", split.factor}});
    OrderedJson scopes = OrderedJson::array();
    for (const Overrides::ScopePin& pin : overrides.scopes)
        scopes.push_back({{"tensor", pin.tensor}, {"scope", scopeDocName(pin.scope)}});
    OrderedJson object = OrderedJson::object();
    object["merge"] = std::move(merges);
    object["ungroup"] = std::move(ungroups);
    object["split"] = std::move(splits);
    object["order"] = overrides.order;
    object["scope"] = std::move(scopes);
    object["host"] = overrides.host;
    return object;
}

Expected<Overrides> overridesFromJson(const Json& value, const std::string& path, bool isFile) {
    if (isFile)
        SC_RETURN_IF_ERROR(json::checkObject(
            value, path,
            {"format", "version", "merge", "ungroup", "split", "order", "scope", "host"}));
    else
        SC_RETURN_IF_ERROR(json::checkObject(
            value, path, {"merge", "ungroup", "split", "order", "scope", "host"}));
    Overrides overrides;
    if (const Json* merges = json::optional(value, "merge"))
        SC_RETURN_IF_ERROR(readMerges(*merges, json::child(path, "merge"), overrides));
    if (const Json* ungroups = json::optional(value, "ungroup"))
        SC_RETURN_IF_ERROR(readUngroups(*ungroups, json::child(path, "ungroup"), overrides));
    if (const Json* splits = json::optional(value, "split"))
        SC_RETURN_IF_ERROR(readSplits(*splits, json::child(path, "split"), overrides));
    if (const Json* order = json::optional(value, "order"))
        SC_RETURN_IF_ERROR(readOrder(*order, json::child(path, "order"), overrides));
    if (const Json* scopes = json::optional(value, "scope"))
        SC_RETURN_IF_ERROR(readScopes(*scopes, json::child(path, "scope"), overrides));
    if (const Json* host = json::optional(value, "host"))
        SC_RETURN_IF_ERROR(readHost(*host, json::child(path, "host"), overrides));
    return overrides;
}

std::string writeOverridesJson(const Overrides& overrides) {
    OrderedJson root = OrderedJson::object();
    root["format"] = kOverridesFormat;
    root["version"] = kOverridesVersion;
    OrderedJson members = overridesToJson(overrides);
    for (auto& [key, value] : members.items())
        root[key] = std::move(value);
    return json::formatJson(root);
}

namespace {

Expected<Overrides> readOverridesRoot(std::string_view text) {
    SC_ASSIGN_OR_RETURN(Json root, json::parse(text));
    if (!root.is_object())
        return json::mustBe("", "a JSON object", root);
    SC_ASSIGN_OR_RETURN(std::string format, json::stringField(root, "", "format"));
    if (format == kScheduleFormat) {
        SC_RETURN_IF_ERROR(json::checkFormat(root, kScheduleFormat, kScheduleVersion));
        SC_ASSIGN_OR_RETURN(const Json* member, json::required(root, "", "overrides"));
        return overridesFromJson(*member, "overrides", false);
    }
    if (format != kOverridesFormat)
        return json::errorAt("format", "must be " + quote(kOverridesFormat) + " or " +
                                           quote(kScheduleFormat) + " (got " + quote(format) + ")");
    SC_RETURN_IF_ERROR(json::checkFormat(root, kOverridesFormat, kOverridesVersion));
    return overridesFromJson(root, "", true);
}

} // namespace

Expected<Overrides> readOverridesJson(std::string_view text, std::string_view source) {
    Expected<Overrides> overrides = readOverridesRoot(text);
    if (!overrides.ok() && !source.empty())
        return overrides.error().withContext(source);
    return overrides;
}

} // namespace stagecraft::io
