#include "cli/commands.h"

#include <ostream>

namespace stagecraft::cli {

int runInspect(const Args&, std::ostream&, std::ostream& err) {
    err << "stagecraft inspect: not built yet\n"; // placeholder, replaced by the inspect work
    return 2;
}

} // namespace stagecraft::cli
