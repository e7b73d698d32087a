// Byte counts in SI units with one decimal from kB on.

#include "common/byte_text.h"

namespace stagecraft::views {

QString formatBytes(int64_t bytes) {
    static const char* const units[] = {"B", "kB", "MB", "GB", "TB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1000 && unit < 4) {
        value /= 1000;
        ++unit;
    }
    return QString::number(value, 'f', unit == 0 ? 0 : 1) + QLatin1Char(' ') +
           QLatin1String(units[unit]);
}

} // namespace stagecraft::views
