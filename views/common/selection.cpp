#include "common/selection.h"

namespace stagecraft::views {

void SelectionModel::select(const Selection& selection) {
    if (selection == current_)
        return;
    current_ = selection;
    emit changed(current_);
}

} // namespace stagecraft::views
