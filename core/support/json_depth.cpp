// Nesting depth of JSON text, scanned without parsing.

#include "support/json_depth.h"

#include <string>

namespace stagecraft {

Status checkJsonDepth(std::string_view text) {
    int depth = 0;
    int line = 1;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '\n')
            ++line;
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                return Error("not valid JSON: nested deeper than " + std::to_string(kMaxJsonDepth) +
                             " levels (line " + std::to_string(line) + ")");
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return Status::success();
}

} // namespace stagecraft
