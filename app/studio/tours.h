#pragma once
// The tours Studio knows: those built in (resources/tours/*.json, compiled
// into the program) and a user's own tour file. A tour's views are checked
// against Studio's view names here, since core/io does not know them.

#include "io/tour_json.h"

#include <QString>

#include <vector>

namespace stagecraft::studio {

/// The built-in tours, in their files' name order.
std::vector<io::Tour> builtInTours();

/// The built-in tour named \p nameOrFile, else the tour file at that path;
/// a one-line error names the file and field, or lists the built-in names.
Expected<io::Tour> loadTour(const QString& nameOrFile);

} // namespace stagecraft::studio
