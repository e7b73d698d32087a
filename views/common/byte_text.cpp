// Byte counts: SI units with one decimal from kB on, and binary units for buffer sizes.

#include "common/byte_text.h"

#include <array>
#include <cmath>

namespace stagecraft::views {

namespace {

/// \p bytes in the largest of \p units (each \p step times the one before)
/// that keeps the value at 1 or more: the value and the unit's index.
struct Scaled {
    double value;
    size_t unit;
};

Scaled scaled(int64_t bytes, double step, size_t units) {
    Scaled s{static_cast<double>(bytes), 0};
    while (s.value >= step && s.unit + 1 < units) {
        s.value /= step;
        ++s.unit;
    }
    return s;
}

} // namespace

QString formatBytes(int64_t bytes) {
    static constexpr std::array units{"B", "kB", "MB", "GB", "TB"};
    const Scaled s = scaled(bytes, 1000, units.size());
    return QString::number(s.value, 'f', s.unit == 0 ? 0 : 1) + QLatin1Char(' ') +
           QLatin1String(units[s.unit]);
}

QString formatBufferBytes(int64_t bytes) {
    static constexpr std::array units{"B", "KiB", "MiB", "GiB", "TiB"};
    const Scaled s = scaled(bytes, 1024, units.size());
    const double tenths = std::round(s.value * 10) / 10;
    const int decimals = s.unit == 0 || tenths == std::floor(tenths) ? 0 : 1;
    return QString::number(tenths, 'f', decimals) + QLatin1Char(' ') + QLatin1String(units[s.unit]);
}

} // namespace stagecraft::views
