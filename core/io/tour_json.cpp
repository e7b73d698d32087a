// readTourJson: a tour file -> Tour (tour_json.h). Choices: `title`, `model`
// and `narration` are required in every step, everything else defaults to
// what `stagecraft schedule` does (stcp920, graphturbo, level auto, order
// best, the model's batch); the strategy must be one a session may name;
// the level is spelled as on the command line (auto, lb, gb).

#include "io/tour_json.h"

#include "io/internal/doc_names.h"
#include "io/internal/doc_parts.h"
#include "io/internal/json_fields.h"
#include "io/session_json.h"
#include "support/strings.h"

#include <algorithm>

namespace stagecraft::io {

namespace {

using json::Json;

Status readBatch(const Json& value, const std::string& path, schedule::BatchChoice& batch) {
    SC_RETURN_IF_ERROR(json::checkObject(value, path, {"total", "per_cluster"}));
    if (const Json* total = json::optional(value, "total")) {
        SC_ASSIGN_OR_RETURN(batch.total, json::getInt(*total, json::child(path, "total"), 1));
    }
    if (const Json* perCluster = json::optional(value, "per_cluster")) {
        const std::string at = json::child(path, "per_cluster");
        if (perCluster->is_string() && perCluster->get<std::string>() == "auto")
            batch.autoPerCluster = true;
        else if (perCluster->is_number_integer() && perCluster->get<int64_t>() >= 1)
            batch.perCluster = perCluster->get<int64_t>();
        else
            return json::mustBe(at, "an integer >= 1 or \"auto\"", *perCluster);
        if (batch.autoPerCluster && !batch.total)
            return json::errorAt(at, "\"auto\" needs a total");
    }
    return {};
}

Status readExpect(const Json& value, const std::string& path, TourExpect& expect) {
    SC_RETURN_IF_ERROR(
        json::checkObject(value, path, {"groups", "instances", "order", "kernel_layers"}));
    if (const Json* groups = json::optional(value, "groups")) {
        SC_ASSIGN_OR_RETURN(expect.groups, json::getInt(*groups, json::child(path, "groups"), 1));
    }
    if (const Json* layers = json::optional(value, "kernel_layers")) {
        SC_ASSIGN_OR_RETURN(expect.kernelLayers,
                            json::getInt(*layers, json::child(path, "kernel_layers"), 1));
    }
    if (const Json* instances = json::optional(value, "instances")) {
        const std::string at = json::child(path, "instances");
        if (!instances->is_object())
            return json::mustBe(at, "an object of group label: instances", *instances);
        for (const auto& [label, count] : instances->items()) {
            SC_ASSIGN_OR_RETURN(expect.instances[label],
                                json::getInt(count, json::child(at, label), 1));
        }
    }
    if (const Json* order = json::optional(value, "order")) {
        SC_ASSIGN_OR_RETURN(expect.order, json::getString(*order, json::child(path, "order")));
        if (expect.order != "BFS" && expect.order != "DFS")
            return json::errorAt(json::child(path, "order"), "must be BFS or DFS");
    }
    return {};
}

Status readChoices(const Json& value, const std::string& path, TourStep& step) {
    if (const Json* arch = json::optional(value, "arch")) {
        SC_ASSIGN_OR_RETURN(step.arch, json::getName(*arch, json::child(path, "arch")));
    }
    if (const Json* strategy = json::optional(value, "strategy")) {
        SC_ASSIGN_OR_RETURN(step.strategy,
                            json::getString(*strategy, json::child(path, "strategy")));
        auto known = sessionStrategyNames();
        if (std::find(known.begin(), known.end(), step.strategy) == known.end())
            return json::errorAt(json::child(path, "strategy"),
                                 "unknown strategy " + quote(step.strategy));
    }
    if (const Json* level = json::optional(value, "level")) {
        SC_ASSIGN_OR_RETURN(std::string text, json::getString(*level, json::child(path, "level")));
        std::optional<schedule::LevelChoice> parsed = schedule::parseLevelChoice(text);
        if (!parsed)
            return json::errorAt(json::child(path, "level"),
                                 "unknown level " + quote(text) + " (expected auto, lb or gb)");
        step.level = *parsed;
    }
    if (const Json* order = json::optional(value, "order")) {
        SC_ASSIGN_OR_RETURN(std::string text, json::getString(*order, json::child(path, "order")));
        std::optional<schedule::OrderChoice> parsed = parseOrderChoiceDoc(text);
        if (!parsed)
            return json::errorAt(json::child(path, "order"),
                                 "unknown order " + quote(text) + " (expected bfs, dfs or best)");
        step.order = *parsed;
    }
    return {};
}

Expected<TourStep> readStep(const Json& value, const std::string& path) {
    SC_RETURN_IF_ERROR(
        json::checkObject(value, path,
                          {"title", "model", "arch", "strategy", "level", "order", "batch", "seq",
                           "overrides", "select", "step", "views", "narration", "expect"}));
    TourStep step;
    SC_ASSIGN_OR_RETURN(step.title, json::stringField(value, path, "title"));
    SC_ASSIGN_OR_RETURN(step.model, json::stringField(value, path, "model"));
    SC_ASSIGN_OR_RETURN(step.narration, json::stringField(value, path, "narration"));
    SC_RETURN_IF_ERROR(readChoices(value, path, step));
    if (const Json* batch = json::optional(value, "batch")) {
        SC_RETURN_IF_ERROR(readBatch(*batch, json::child(path, "batch"), step.batch));
    }
    if (const Json* seq = json::optional(value, "seq")) {
        SC_ASSIGN_OR_RETURN(step.seq, json::getInt(*seq, json::child(path, "seq"), 1));
    }
    if (const Json* overrides = json::optional(value, "overrides")) {
        SC_ASSIGN_OR_RETURN(step.overrides,
                            overridesFromJson(*overrides, json::child(path, "overrides"), false));
    }
    if (const Json* select = json::optional(value, "select")) {
        SC_ASSIGN_OR_RETURN(step.select, json::getName(*select, json::child(path, "select")));
    }
    if (const Json* at = json::optional(value, "step")) {
        SC_ASSIGN_OR_RETURN(step.algorithmStep, json::getInt(*at, json::child(path, "step"), 1));
    }
    if (const Json* views = json::optional(value, "views")) {
        SC_ASSIGN_OR_RETURN(step.views, json::getStrings(*views, json::child(path, "views")));
    }
    if (const Json* expect = json::optional(value, "expect")) {
        SC_RETURN_IF_ERROR(readExpect(*expect, json::child(path, "expect"), step.expect));
    }
    return step;
}

Expected<Tour> readDocument(std::string_view text) {
    if (trim(text).empty())
        return Error("empty file, not a stagecraft tour");
    SC_ASSIGN_OR_RETURN(Json root, json::parse(text));
    SC_RETURN_IF_ERROR(json::checkFormat(root, kTourFormat, kTourVersion));
    SC_RETURN_IF_ERROR(json::checkObject(
        root, "", {"format", "version", "name", "title", "description", "steps"}));
    Tour tour;
    SC_ASSIGN_OR_RETURN(tour.name, json::stringField(root, "", "name"));
    SC_ASSIGN_OR_RETURN(tour.title, json::stringField(root, "", "title"));
    if (const Json* description = json::optional(root, "description")) {
        SC_ASSIGN_OR_RETURN(tour.description, json::getString(*description, "description"));
    }
    SC_ASSIGN_OR_RETURN(const Json* steps, json::required(root, "", "steps"));
    SC_RETURN_IF_ERROR(json::checkArray(*steps, "steps"));
    if (steps->empty())
        return json::errorAt("steps", "a tour needs at least one step");
    for (size_t i = 0; i < steps->size(); ++i) {
        SC_ASSIGN_OR_RETURN(TourStep step, readStep((*steps)[i], json::item("steps", i)));
        tour.steps.push_back(std::move(step));
    }
    return tour;
}

} // namespace

Expected<Tour> readTourJson(std::string_view text, std::string_view source) {
    Expected<Tour> tour = [&]() -> Expected<Tour> {
        try {
            return readDocument(text);
        } catch (const nlohmann::json::exception& e) {
            return Error("unreadable JSON: " + json::untagged(e.what()));
        }
    }();
    if (!tour.ok() && !source.empty())
        return tour.error().withContext(source);
    return tour;
}

} // namespace stagecraft::io
