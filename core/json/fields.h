#pragma once
/// \file
/// Internal to core (keeps nlohmann out of the public headers of core/arch
/// and core/io): reading JSON fields with the JSON path of each field in
/// every error, e.g. `groups[3].ops[2]: unknown op 'conv9'` or
/// `cluster.core_groups[0].count: must be a positive integer (got "4")`.

#include "support/expected.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace stagecraft::json_fields {

/// Documents are read into plain nlohmann::json; writers build ordered_json
/// so that keys keep the order they are set in.
using Json = nlohmann::json;

/// "a.b" from "a" and "b"; "b" at the root ("").
std::string child(const std::string& path, std::string_view key);
/// "a[3]".
std::string item(const std::string& path, size_t index);
/// "<path>: <message>", or the message alone at the root.
Error errorAt(const std::string& path, const std::string& message);
/// The value as the user wrote it, shortened for a one-line message.
std::string shown(const Json& value);
/// "<path>: must be <what> (got <value as written>)".
Error mustBe(const std::string& path, std::string_view what, const Json& value);
/// nlohmann's exception message without its "[json.exception.parse_error.101] "
/// tag, with control and non-ASCII bytes it quotes from the input as '?'.
std::string untagged(const char* what);

/// Parses \p text; a syntax error ("not valid JSON: ...") names the line and
/// column.
Expected<Json> parse(std::string_view text);

/// \p value must be an object whose keys are all in \p fields.
Status checkObject(const Json& value, const std::string& path,
                   std::initializer_list<std::string_view> fields);
/// The member \p key of \p object, or "<path>.<key>: missing".
Expected<const Json*> required(const Json& object, const std::string& path, const char* key);
/// The member \p key of \p object, or nullptr.
const Json* optional(const Json& object, const char* key);

Expected<std::string> getString(const Json& value, const std::string& path);
/// getString of the required member \p key of \p object.
Expected<std::string> stringField(const Json& object, const std::string& path, const char* key);

} // namespace stagecraft::json_fields
