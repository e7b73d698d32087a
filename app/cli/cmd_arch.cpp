#include "cli/commands.h"

#include <ostream>

namespace stagecraft::cli {

int runArch(const Args&, std::ostream&, std::ostream& err) {
    err << "stagecraft arch: not built yet\n"; // placeholder, replaced by the arch work
    return 2;
}

} // namespace stagecraft::cli
