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
