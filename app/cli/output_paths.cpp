#include "cli/output_paths.h"

#include "support/file.h"

namespace stagecraft::cli {

Status checkOutputOptions(const ArgParser& parser, std::initializer_list<const char*> names) {
    for (const char* name : names)
        if (std::optional<std::string> path = parser.value(name))
            SC_RETURN_IF_ERROR(checkOutputPath(*path));
    return Status::success();
}

} // namespace stagecraft::cli
