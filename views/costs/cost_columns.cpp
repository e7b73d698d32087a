// The cost table's column fitting (cost_columns.h): in priority order, a
// column the user chose takes or leaves its room; the others show while
// they fit in what remains.

#include "costs/cost_columns.h"

#include "costs/cost_table_model.h"

namespace stagecraft::views {

const std::vector<int>& costColumnPriority() {
    using C = CostTableModel;
    static const std::vector<int> order = {
        C::Name,      C::Time,      C::Share,       C::MainCause,      C::DdrTraffic,
        C::Spills,    C::Energy,    C::FirstOp,     C::Computing,      C::Compute,
        C::DmaWait,   C::Kernels,   C::Control,     C::DdrEnergyShare, C::SpillBytes,
        C::GbTraffic, C::LbTraffic, C::WeightBytes, C::DynamicEnergy,  C::StaticEnergy};
    return order;
}

std::vector<bool> fittedColumns(const std::vector<int>& widths, int available,
                                const std::vector<std::optional<bool>>& chosen) {
    std::vector<bool> shown(widths.size(), false);
    auto widthOf = [&](int column) {
        return static_cast<size_t>(column) < widths.size() ? widths[static_cast<size_t>(column)]
                                                           : 0;
    };
    auto choiceOf = [&](int column) -> std::optional<bool> {
        return static_cast<size_t>(column) < chosen.size() ? chosen[static_cast<size_t>(column)]
                                                           : std::nullopt;
    };
    // The user's choices take their room first.
    int left = available;
    for (int column : costColumnPriority())
        if (choiceOf(column).value_or(false))
            left -= widthOf(column);
    bool first = true;
    for (int column : costColumnPriority()) {
        if (static_cast<size_t>(column) >= shown.size())
            continue;
        const std::optional<bool> choice = choiceOf(column);
        if (first && !choice.value_or(false)) {
            shown[static_cast<size_t>(column)] = true;
            left -= widthOf(column);
        } else if (choice) {
            shown[static_cast<size_t>(column)] = *choice;
        } else if (widthOf(column) <= left) {
            shown[static_cast<size_t>(column)] = true;
            left -= widthOf(column);
        } else {
            // Later columns do not jump the queue: the order is the reading order.
            left = 0;
        }
        first = false;
    }
    return shown;
}

} // namespace stagecraft::views
