#pragma once
// Which of the cost table's columns fit: docked beside the graph, the table
// has room for a few of its twenty. Columns are shown in order of what an
// engineer reads first (the name, the time and its share, its main cause,
// DDR bytes, spills, energy), each while the ones before it leave room, so that a
// narrow table keeps the verdict and drops the detail rather than scrolling
// sideways. A column the user shows or hides from the header's menu stays
// so at any width.

#include <optional>
#include <vector>

namespace stagecraft::views {

/// The columns (CostTableModel::Column values) from the most to the least
/// needed.
const std::vector<int>& costColumnPriority();

/// Which columns to show: \p widths are the columns' natural widths (by
/// column), \p available the table's width; \p chosen a column the user
/// set (shown or hidden) or nullopt. The first column of the priority
/// always shows.
std::vector<bool> fittedColumns(const std::vector<int>& widths, int available,
                                const std::vector<std::optional<bool>>& chosen);

} // namespace stagecraft::views
