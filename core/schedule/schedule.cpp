#include "schedule/schedule.h"

#include "schedule/pipeline.h"

#include <algorithm>
#include <numeric>

namespace stagecraft::schedule {

std::string_view scopeName(Scope scope) {
    switch (scope) {
    case Scope::LB:
        return "LB";
    case Scope::GB:
        return "GB";
    case Scope::DDR:
        return "DDR";
    }
    return "LB";
}

std::optional<Scope> parseScope(std::string_view name) {
    for (Scope s : {Scope::LB, Scope::GB, Scope::DDR})
        if (scopeName(s) == name)
            return s;
    return std::nullopt;
}

std::string_view levelName(Level level) {
    return level == Level::LB ? "LB" : "GB";
}

std::optional<Level> parseLevel(std::string_view name) {
    if (name == "LB" || name == "lb")
        return Level::LB;
    if (name == "GB" || name == "gb")
        return Level::GB;
    return std::nullopt;
}

std::string_view levelChoiceName(LevelChoice choice) {
    return choice ? levelName(*choice) : "auto";
}

std::optional<LevelChoice> parseLevelChoice(std::string_view name) {
    if (name == "auto" || name == "AUTO" || name == "Auto")
        return LevelChoice{};
    if (std::optional<Level> level = parseLevel(name))
        return LevelChoice{*level};
    return std::nullopt;
}

Scope levelScope(Level level) {
    return level == Level::LB ? Scope::LB : Scope::GB;
}

Scope slowerScope(Scope scope) {
    return scope == Scope::LB ? Scope::GB : Scope::DDR;
}

int64_t coresUsed(const Binding& binding) {
    return std::accumulate(binding.begin(), binding.end(), int64_t{1}, std::multiplies<>());
}

Binding trimmed(const Binding& binding) {
    Binding out = binding;
    while (!out.empty() && out.back() == 1)
        out.pop_back();
    return out;
}

std::string_view moveKindName(DataMove::Kind kind) {
    switch (kind) {
    case DataMove::Kind::Concat:
        return "concat";
    case DataMove::Kind::Copy:
        return "copy";
    case DataMove::Kind::Redistribute:
        return "redistribute";
    }
    return "concat";
}

std::string_view orderKindName(OrderKind kind) {
    switch (kind) {
    case OrderKind::BFS:
        return "bfs";
    case OrderKind::DFS:
        return "dfs";
    case OrderKind::User:
        return "user";
    case OrderKind::Stages:
        return "stages";
    }
    return "dfs";
}

std::string_view groupingName(Grouping grouping) {
    switch (grouping) {
    case Grouping::GraphTurbo:
        return "graphturbo";
    case Grouping::Tvm:
        return "tvm";
    case Grouping::AStitch:
        return "astitch";
    case Grouping::Dla:
        return "dla";
    case Grouping::Ago:
        return "ago";
    case Grouping::Ios:
        return "ios";
    }
    return "graphturbo";
}

bool Overrides::empty() const {
    return merges.empty() && ungroups.empty() && splits.empty() && order.empty() &&
           scopes.empty() && host.empty();
}

Adjacency adjacency(const Schedule& schedule) {
    Adjacency a;
    a.preds.resize(schedule.instances.size());
    a.succs.resize(schedule.instances.size());
    for (const InstanceEdge& e : schedule.edges)
        if (!e.redundant) {
            a.preds[e.to].push_back(e.from);
            a.succs[e.from].push_back(e.to);
        }
    for (auto* lists : {&a.preds, &a.succs})
        for (auto& list : *lists)
            std::sort(list.begin(), list.end());
    return a;
}

} // namespace stagecraft::schedule
