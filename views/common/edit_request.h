#pragma once
// What a view asks for when the user edits the schedule: the overrides as they
// should be after the edit and a one-line description for the undo history
// ("split group a: dim 2 x 4"). The application turns it into an undoable
// command; if the pipeline refuses the new overrides, its reason is shown and
// nothing changes.

#include "schedule/pipeline.h"

#include <QString>

namespace stagecraft::views {

struct EditRequest {
    QString description;
    schedule::Overrides overrides;
};

} // namespace stagecraft::views
