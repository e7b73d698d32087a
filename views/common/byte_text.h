#pragma once
// Byte counts as the views print them: "999 B", "1.5 kB", "25.3 MB" (SI units).

#include <QString>

#include <cstdint>

namespace stagecraft::views {

QString formatBytes(int64_t bytes);

} // namespace stagecraft::views
