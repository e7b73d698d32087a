// writeSessionJson and saveSession: Session -> the session file. Keys are set
// in the order of docs/session-format.md into an ordered_json and printed by
// formatJson, so the same session gives the same bytes. The architecture is
// embedded as the object arch::toJson produces (every field resolved), so a
// session opens the same on a build whose presets have changed; the overrides
// are the same object a schedule document carries.

#include "arch/arch_json.h"
#include "io/internal/doc_names.h"
#include "io/internal/doc_parts.h"
#include "io/session_json.h"
#include "support/file.h"

#include <array>

namespace stagecraft::io {

namespace {

using json::OrderedJson;

constexpr std::array<std::string_view, 11> kStrategyNames{
    "tvm",   "tvm-llb", "astitch",      "dla",      "ago",       "ios",
    "gt-gb", "gt-lb",   "gt-instances", "gt-paper", "graphturbo"};

OrderedJson inputsJson(const std::map<std::string, ir::Shape>& shapes) {
    OrderedJson object = OrderedJson::object();
    for (const auto& [name, shape] : shapes)
        object[name] = shape;
    return object;
}

OrderedJson dimsJson(const std::map<std::string, int64_t>& dims) {
    OrderedJson object = OrderedJson::object();
    for (const auto& [name, value] : dims)
        object[name] = value;
    return object;
}

/// arch::toJson's text read back keeps its key order (ordered_json) and
/// numbers: formatJson prints them as toJson did.
OrderedJson archJson(const arch::Arch& arch) {
    return OrderedJson::parse(arch::toJson(arch));
}

/// `{"total": N, "per_cluster": K or "auto"}`, each part only when set.
OrderedJson batchJson(const schedule::BatchChoice& batch) {
    OrderedJson object = OrderedJson::object();
    if (batch.total)
        object["total"] = *batch.total;
    if (batch.autoPerCluster)
        object["per_cluster"] = "auto";
    else if (batch.perCluster)
        object["per_cluster"] = *batch.perCluster;
    return object;
}

} // namespace

std::span<const std::string_view> sessionStrategyNames() {
    return kStrategyNames;
}

std::string writeSessionJson(const Session& session) {
    OrderedJson root = OrderedJson::object();
    root["format"] = kSessionFormat;
    root["version"] = kSessionVersion;
    root["model"] = {{"path", session.modelPath}, {"sha256", session.modelSha256}};
    if (session.seq > 0)
        root["model"]["seq"] = session.seq;
    root["inputs"] = inputsJson(session.inputShapes);
    root["dims"] = dimsJson(session.dims);
    if (!session.values.empty()) {
        root["values"] = OrderedJson::object();
        for (const auto& [name, text] : session.values)
            root["values"][name] = text;
    }
    root["arch"] = archJson(session.arch);
    root["strategy"] = session.strategy;
    root["level"] = schedule::levelChoiceName(session.level);
    root["order"] = orderChoiceDocName(session.order);
    if (session.precision)
        root["precision"] = ir::dtypeName(*session.precision);
    if (session.batch != schedule::BatchChoice{})
        root["batch"] = batchJson(session.batch);
    root["overrides"] = overridesToJson(session.overrides);
    return json::formatJson(root);
}

Status saveSession(const std::filesystem::path& path, const Session& session) {
    return writeFileAtomic(path, writeSessionJson(session));
}

} // namespace stagecraft::io
