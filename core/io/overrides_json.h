#pragma once
/// \file
/// The overrides file (docs/schedule-format.md): the user's edits of a
/// schedule as JSON, `{"format": "stagecraft-overrides", "version": 1,
/// "merge": [["opA", "opB"]], "ungroup": ["opX"], "split": [{"op": "conv1",
/// "dim": 0, "factor": 4}], "order": ["a8", "a7"], "scope": [{"tensor": "t",
/// "scope": "GB"}]}`, every key optional. A schedule document carries the same
/// object (without format and version) as its `overrides` member.

#include "schedule/pipeline.h"
#include "support/expected.h"

#include <string>
#include <string_view>

namespace stagecraft::io {

inline constexpr std::string_view kOverridesFormat = "stagecraft-overrides";
inline constexpr int kOverridesVersion = 1;

/// \p overrides as an overrides file: every key written (empty lists too),
/// 2-space indent, a trailing newline. The same overrides give the same bytes.
std::string writeOverridesJson(const schedule::Overrides& overrides);

/// Reads an overrides file, or takes the `overrides` member of a schedule
/// document (`"format": "stagecraft-schedule"`), so that a saved schedule can
/// be re-applied. Checks the form only (types, names, factors >= 1, scope
/// names, no instance twice in `order`); whether the overrides fit a model is
/// buildSchedule's decision. Errors are one line, "<source>: <field path>:
/// <reason>", e.g. "edits.json: split[0].factor: must be an integer >= 1 (got 0)".
Expected<schedule::Overrides> readOverridesJson(std::string_view text, std::string_view source);

} // namespace stagecraft::io
