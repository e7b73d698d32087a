#include "cli/commands.h"

#include <ostream>

namespace stagecraft::cli {

int runZoo(const Args&, std::ostream&, std::ostream& err) {
    err << "stagecraft zoo: not built yet\n"; // placeholder, replaced by the zoo work
    return 2;
}

} // namespace stagecraft::cli
