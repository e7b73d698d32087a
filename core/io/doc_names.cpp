// The spellings of the schedule's enums in documents: one table per enum,
// looked up both ways.

#include "io/internal/doc_names.h"

#include <array>
#include <utility>

namespace stagecraft::io {

namespace {

using schedule::DataMove;
using schedule::OrderChoice;
using schedule::OrderKind;
using schedule::Scope;

template <class Enum, size_t N>
std::string_view nameIn(const std::array<std::pair<Enum, std::string_view>, N>& table, Enum value) {
    for (const auto& [entry, name] : table)
        if (entry == value)
            return name;
    SC_ASSERT(false, "enum value without a document name");
    return {};
}

template <class Enum, size_t N>
std::optional<Enum> valueIn(const std::array<std::pair<Enum, std::string_view>, N>& table,
                            std::string_view name) {
    for (const auto& [entry, text] : table)
        if (text == name)
            return entry;
    return std::nullopt;
}

constexpr std::array<std::pair<Scope, std::string_view>, 3> kScopes{
    {{Scope::LB, "LB"}, {Scope::GB, "GB"}, {Scope::DDR, "DDR"}}};
constexpr std::array<std::pair<DataMove::Kind, std::string_view>, 3> kMoveKinds{
    {{DataMove::Kind::Concat, "concat"},
     {DataMove::Kind::Copy, "copy"},
     {DataMove::Kind::Redistribute, "redistribute"}}};
constexpr std::array<std::pair<OrderKind, std::string_view>, 4> kOrderKinds{
    {{OrderKind::BFS, "bfs"},
     {OrderKind::DFS, "dfs"},
     {OrderKind::User, "user"},
     {OrderKind::Stages, "stages"}}};
constexpr std::array<std::pair<OrderChoice, std::string_view>, 3> kOrderChoices{
    {{OrderChoice::BFS, "bfs"}, {OrderChoice::DFS, "dfs"}, {OrderChoice::Best, "best"}}};

} // namespace

std::string_view scopeDocName(Scope scope) {
    return nameIn(kScopes, scope);
}
std::optional<Scope> parseScopeDoc(std::string_view name) {
    return valueIn(kScopes, name);
}

std::string_view moveKindDocName(DataMove::Kind kind) {
    return nameIn(kMoveKinds, kind);
}
std::optional<DataMove::Kind> parseMoveKindDoc(std::string_view name) {
    return valueIn(kMoveKinds, name);
}

std::string_view orderKindDocName(OrderKind kind) {
    return nameIn(kOrderKinds, kind);
}
std::optional<OrderKind> parseOrderKindDoc(std::string_view name) {
    return valueIn(kOrderKinds, name);
}

std::string_view orderChoiceDocName(OrderChoice choice) {
    return nameIn(kOrderChoices, choice);
}
std::optional<OrderChoice> parseOrderChoiceDoc(std::string_view name) {
    return valueIn(kOrderChoices, name);
}

} // namespace stagecraft::io
