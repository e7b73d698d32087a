#pragma once
// The one selection every view shares: an op, a group, an instance or a
// tensor of the current result (ids index the result's graph and schedule).
// Views call select(); every view listens to changed() and follows.

#include <QObject>

#include <cstdint>

namespace stagecraft::views {

struct Selection {
    enum class Kind { None, Op, Group, Instance, Tensor };
    Kind kind = Kind::None;
    int32_t id = -1;
    /// With an Instance: the op within it the user pointed at (a timeline
    /// task), or -1. Views that show ops mark it; the others follow the
    /// instance.
    int32_t op = -1;

    bool operator==(const Selection&) const = default;
};

class SelectionModel : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    const Selection& current() const { return current_; }
    /// Selects \p selection; emits changed() when it differs from the current one.
    void select(const Selection& selection);
    void clear() { select({}); }

signals:
    void changed(const stagecraft::views::Selection& selection);

private:
    Selection current_;
};

} // namespace stagecraft::views
