#pragma once
// Energies as the views print them: picojoules scaled to the unit that
// keeps three significant digits readable ("812 nJ", "45.2 µJ", "3.07 mJ",
// "1.20 J"), and the words for an energy that is unknown because the
// architecture has no energy table (never shown as 0).

#include <QString>

#include <optional>

namespace stagecraft::views {

/// \p picojoules in pJ, nJ, µJ, mJ or J, three significant digits.
QString formatEnergy(double picojoules);
/// \p value with three significant digits ("3.07", "45.2", "1204", "0.00312").
QString formatSignificant(double value);
/// "—": what a cell of an unknown energy shows.
QString unknownEnergyText();
/// Why an energy is unknown: the tooltip of such a cell.
QString unknownEnergyTip();

} // namespace stagecraft::views
