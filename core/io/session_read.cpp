// readSessionJson and loadSession: the session file -> Session. Choices:
// unknown keys are errors (usually typos); `inputs`, `dims` and `overrides`
// may be left out (nothing bound, no edits), everything else is required;
// model.sha256 is 64 lowercase hex digits or empty (not known). The
// architecture goes through arch::parseArch, the one validation of
// architectures, and its message is moved under the `arch` member: parseArch
// names fields from its own root ("clusters: must be ..."), which here is
// "arch.clusters: must be ...". The strategy is checked against
// sessionStrategyNames(), since io does not link the simulator.

#include "arch/arch_json.h"
#include "io/internal/doc_names.h"
#include "io/internal/doc_parts.h"
#include "io/session_json.h"
#include "ir/precision.h"
#include "support/file.h"
#include "support/strings.h"

#include <algorithm>

namespace stagecraft::io {

namespace {

using json::Json;

bool isLowerHex(const std::string& text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

Status readModel(const Json& root, Session& session) {
    SC_ASSIGN_OR_RETURN(const Json* model, json::required(root, "", "model"));
    SC_RETURN_IF_ERROR(json::checkObject(*model, "model", {"path", "sha256", "seq"}));
    SC_ASSIGN_OR_RETURN(session.modelPath, json::stringField(*model, "model", "path"));
    if (const Json* sha = json::optional(*model, "sha256")) {
        SC_ASSIGN_OR_RETURN(session.modelSha256, json::getString(*sha, "model.sha256"));
        const std::string& hex = session.modelSha256;
        if (!hex.empty() && (hex.size() != 64 || !isLowerHex(hex)))
            return json::mustBe("model.sha256", "64 lowercase hex digits or empty", *sha);
    }
    if (const Json* seq = json::optional(*model, "seq")) {
        SC_ASSIGN_OR_RETURN(session.seq, json::getInt(*seq, "model.seq", 1));
    }
    return {};
}

Status readInputs(const Json& root, Session& session) {
    const Json* inputs = json::optional(root, "inputs");
    if (inputs == nullptr)
        return {};
    if (!inputs->is_object())
        return json::mustBe("inputs", "an object of input name: shape", *inputs);
    for (const auto& [name, shape] : inputs->items()) {
        SC_ASSIGN_OR_RETURN(session.inputShapes[name],
                            json::getInts(shape, json::child("inputs", name), 0));
    }
    return {};
}

Status readDims(const Json& root, Session& session) {
    const Json* dims = json::optional(root, "dims");
    if (dims == nullptr)
        return {};
    if (!dims->is_object())
        return json::mustBe("dims", "an object of dimension name: value", *dims);
    for (const auto& [name, value] : dims->items()) {
        SC_ASSIGN_OR_RETURN(session.dims[name], json::getInt(value, json::child("dims", name), 0));
    }
    return {};
}

Status readValues(const Json& root, Session& session) {
    const Json* values = json::optional(root, "values");
    if (values == nullptr)
        return {};
    if (!values->is_object())
        return json::mustBe("values", "an object of input name: \"V,V,...\"", *values);
    for (const auto& [name, value] : values->items()) {
        SC_ASSIGN_OR_RETURN(session.values[name],
                            json::getString(value, json::child("values", name)));
    }
    return {};
}

/// parseArch's "<field path>: <reason>" (or a bare reason about its root) as
/// an error at "arch.<field path>" (or "arch").
Error underArch(std::string_view message) {
    size_t colon = message.find(": ");
    bool hasPath = colon != std::string_view::npos && colon > 0 &&
                   message.substr(0, colon).find(' ') == std::string_view::npos;
    if (hasPath)
        return Error("arch." + std::string(message));
    return json::errorAt("arch", std::string(message));
}

Status readArch(const Json& root, Session& session) {
    SC_ASSIGN_OR_RETURN(const Json* value, json::required(root, "", "arch"));
    if (!value->is_object())
        return json::mustBe("arch", "an architecture description (an object)", *value);
    // No source name: parseArch then puts only ": " in front of its message.
    Expected<arch::Arch> parsed = arch::parseArch(value->dump(), "");
    if (!parsed.ok()) {
        std::string_view message = parsed.error().message();
        if (message.starts_with(": "))
            message.remove_prefix(2);
        return underArch(message);
    }
    session.arch = std::move(parsed).value();
    return {};
}

Status readStrategy(const Json& root, Session& session) {
    SC_ASSIGN_OR_RETURN(session.strategy, json::stringField(root, "", "strategy"));
    auto known = sessionStrategyNames();
    if (std::find(known.begin(), known.end(), session.strategy) != known.end())
        return {};
    std::vector<std::string> names(known.begin(), known.end() - 1);
    return json::errorAt("strategy", "unknown strategy " + quote(session.strategy) + " (expected " +
                                         join(names, ", ") + " or " + std::string(known.back()) +
                                         ")");
}

Status readChoices(const Json& root, Session& session) {
    SC_RETURN_IF_ERROR(readStrategy(root, session));
    SC_ASSIGN_OR_RETURN(std::string level, json::stringField(root, "", "level"));
    std::optional<schedule::LevelChoice> parsedLevel = schedule::parseLevelChoice(level);
    if (!parsedLevel || level != schedule::levelChoiceName(*parsedLevel))
        return json::errorAt("level",
                             "unknown level " + quote(level) + " (expected auto, LB or GB)");
    session.level = *parsedLevel;
    SC_ASSIGN_OR_RETURN(std::string order, json::stringField(root, "", "order"));
    std::optional<schedule::OrderChoice> parsedOrder = parseOrderChoiceDoc(order);
    if (!parsedOrder)
        return json::errorAt("order",
                             "unknown order " + quote(order) + " (expected bfs, dfs or best)");
    session.order = *parsedOrder;
    if (const Json* precision = json::optional(root, "precision")) {
        SC_ASSIGN_OR_RETURN(std::string text, json::getString(*precision, "precision"));
        Expected<ir::DType> parsed = ir::parsePrecision(text);
        if (!parsed.ok())
            return json::errorAt("precision", parsed.error().message());
        session.precision = *parsed;
    }
    return {};
}

/// `batch`: `total` an integer >= 1, `per_cluster` one or "auto" (which
/// needs the total), both optional.
Status readBatch(const Json& root, Session& session) {
    const Json* batch = json::optional(root, "batch");
    if (batch == nullptr)
        return {};
    if (!batch->is_object())
        return json::mustBe("batch", "an object with total and per_cluster", *batch);
    SC_RETURN_IF_ERROR(json::checkObject(*batch, "batch", {"total", "per_cluster"}));
    schedule::BatchChoice& choice = session.batch;
    if (const Json* total = json::optional(*batch, "total")) {
        SC_ASSIGN_OR_RETURN(choice.total, json::getInt(*total, "batch.total", 1));
    }
    if (const Json* perCluster = json::optional(*batch, "per_cluster")) {
        if (perCluster->is_string() && perCluster->get<std::string>() == "auto")
            choice.autoPerCluster = true;
        else if (perCluster->is_number_integer() && perCluster->get<int64_t>() >= 1)
            choice.perCluster = perCluster->get<int64_t>();
        else
            return json::mustBe("batch.per_cluster", "an integer >= 1 or \"auto\"", *perCluster);
    }
    if (choice.autoPerCluster && !choice.total)
        return json::errorAt("batch.per_cluster", "\"auto\" needs batch.total");
    return {};
}

Expected<Session> readDocument(std::string_view text) {
    if (trim(text).empty())
        return Error("empty file, not a stagecraft session");
    SC_ASSIGN_OR_RETURN(Json root, json::parse(text));
    SC_RETURN_IF_ERROR(json::checkFormat(root, kSessionFormat, kSessionVersion));
    SC_RETURN_IF_ERROR(
        json::checkObject(root, "",
                          {"format", "version", "model", "inputs", "dims", "values", "arch",
                           "strategy", "level", "order", "precision", "batch", "overrides"}));
    Session session;
    SC_RETURN_IF_ERROR(readModel(root, session));
    SC_RETURN_IF_ERROR(readInputs(root, session));
    SC_RETURN_IF_ERROR(readDims(root, session));
    SC_RETURN_IF_ERROR(readValues(root, session));
    SC_RETURN_IF_ERROR(readArch(root, session));
    SC_RETURN_IF_ERROR(readChoices(root, session));
    SC_RETURN_IF_ERROR(readBatch(root, session));
    if (const Json* overrides = json::optional(root, "overrides")) {
        SC_ASSIGN_OR_RETURN(session.overrides, overridesFromJson(*overrides, "overrides", false));
    }
    return session;
}

} // namespace

Expected<Session> readSessionJson(std::string_view text, std::string_view source) {
    Expected<Session> session = [&]() -> Expected<Session> {
        try {
            return readDocument(text);
        } catch (const nlohmann::json::exception& e) {
            return Error("unreadable JSON: " + json::untagged(e.what()));
        }
    }();
    if (!session.ok() && !source.empty())
        return session.error().withContext(source);
    return session;
}

Expected<Session> loadSession(const std::filesystem::path& path) {
    SC_ASSIGN_OR_RETURN(std::string text, readFile(path));
    SC_ASSIGN_OR_RETURN(Session session, readSessionJson(text, path.string()));
    // Sessions store absolute paths; one edited by hand to a relative path
    // means the model next to the session, not in the working directory.
    std::filesystem::path model(session.modelPath);
    if (!model.empty() && model.is_relative() && session.modelPath.rfind("zoo:", 0) != 0)
        session.modelPath =
            (std::filesystem::absolute(path).parent_path() / model).lexically_normal().string();
    return session;
}

} // namespace stagecraft::io
