// Energies: a unit per factor of a thousand from pJ, with the decimals that
// keep three significant digits, as byte counts keep one decimal.

#include "common/energy_text.h"

#include <array>

namespace stagecraft::views {

namespace {

/// Decimals that leave three significant digits of \p value (1 ≤ value < 1000).
int decimalsFor(double value) {
    return value >= 100 ? 0 : value >= 10 ? 1 : 2;
}

} // namespace

QString formatEnergy(double picojoules) {
    static constexpr std::array units{"pJ", "nJ", "µJ", "mJ", "J"};
    double value = picojoules;
    size_t unit = 0;
    while (value >= 999.5 && unit + 1 < units.size()) {
        value /= 1000;
        ++unit;
    }
    if (value == 0)
        return QStringLiteral("0 J");
    return QString::number(value, 'f', decimalsFor(value)) + QLatin1Char(' ') +
           QString::fromUtf8(units[unit]);
}

QString formatSignificant(double value) {
    if (value >= 1000)
        return QString::number(value, 'f', 0);
    if (value >= 1 || value == 0)
        return QString::number(value, 'f', value == 0 ? 0 : decimalsFor(value));
    return QString::number(value, 'g', 3);
}

QString unknownEnergyText() {
    return QStringLiteral("—");
}

QString unknownEnergyTip() {
    return QStringLiteral("Unknown: the architecture has no energy table (its \"energy\" "
                          "section), so the simulator cannot count joules");
}

} // namespace stagecraft::views
