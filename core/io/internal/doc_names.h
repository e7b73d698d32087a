#pragma once
/// \file
/// Internal to core/io: how the documents spell the schedule's enums. The
/// file format owns these spellings (docs/schedule-format.md), so a change of
/// a display name elsewhere never changes a saved file.

#include "schedule/pipeline.h"
#include "schedule/schedule.h"

#include <optional>
#include <string>
#include <string_view>

namespace stagecraft::io {

/// "LB", "GB", "DDR".
std::string_view scopeDocName(schedule::Scope scope);
std::optional<schedule::Scope> parseScopeDoc(std::string_view name);

/// "concat", "copy", "redistribute".
std::string_view moveKindDocName(schedule::DataMove::Kind kind);
std::optional<schedule::DataMove::Kind> parseMoveKindDoc(std::string_view name);

/// "bfs", "dfs", "user".
std::string_view orderKindDocName(schedule::OrderKind kind);
std::optional<schedule::OrderKind> parseOrderKindDoc(std::string_view name);

/// "bfs", "dfs", "best".
std::string_view orderChoiceDocName(schedule::OrderChoice choice);
std::optional<schedule::OrderChoice> parseOrderChoiceDoc(std::string_view name);

} // namespace stagecraft::io
