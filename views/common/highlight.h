#pragma once
// Marks laid over the graph and instance views by the teaching and comparison
// tools (algorithm step-through, schedule diff): ops, groups and instances of
// the current result to light up, with a one-line caption. Unlike the
// selection, highlights are many at once and belong to one source tool;
// setting new highlights replaces the old ones.

#include <QObject>
#include <QString>

#include <cstdint>
#include <vector>

namespace stagecraft::views {

/// A spill of §4.3 as the step-through decided it: buffer \p buffer (a
/// kernel::BufferId) leaving memory level \p from (0 LB, 1 GB, 2 DDR, as
/// schedule::Scope) at computation task \p task.
struct SpillRef {
    int32_t buffer = -1;
    int32_t task = -1;
    int8_t from = 0;
    bool operator==(const SpillRef&) const = default;
};

struct Highlights {
    /// Op ids of the result's graph.
    std::vector<int32_t> ops;
    /// Group indices of the result's schedule.
    std::vector<int32_t> groups;
    /// Instance indices of the result's schedule.
    std::vector<int32_t> instances;
    /// A grouping to draw instead of the final one, by op id: ops with the
    /// same value are one group (the step-through's groups so far); empty
    /// for none.
    std::vector<int32_t> opGrouping;
    /// Algorithm 3's lists at a step, by instance id (empty for none): 0
    /// untouched, 1 on the visit list, 2 ready, 3 ordered; and the position
    /// in the order so far (from 1) of each ordered instance, 0 otherwise.
    std::vector<int8_t> instanceStates;
    std::vector<int32_t> instanceOrder;
    /// Algorithm 4 at a step of the step-through, by instance id: the
    /// binding ("[1,8]") and scope ("LB") decided so far, empty for an
    /// instance not bound yet. Empty vectors: not shown.
    std::vector<QString> stepBinds;
    std::vector<QString> stepScopes;
    /// At a §4.3 step of the step-through (spillStepping): the spills
    /// decided up to it, in order; the last one is the step's own when
    /// spillIsCurrent. The occupancy plots then show these alone.
    bool spillStepping = false;
    std::vector<SpillRef> spillsSoFar;
    bool spillIsCurrent = false;
    /// Shown by the views while the highlights are on ("Step 4/17: …").
    QString caption;

    bool empty() const { return ops.empty() && groups.empty() && instances.empty(); }
    bool operator==(const Highlights&) const = default;
};

class HighlightModel : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    const Highlights& current() const { return current_; }
    /// Replaces the highlights; emits changed() when they differ.
    void set(const Highlights& highlights) {
        if (highlights == current_)
            return;
        current_ = highlights;
        emit changed();
    }
    void clear() { set({}); }

signals:
    void changed();

private:
    Highlights current_;
};

} // namespace stagecraft::views
