#pragma once
// Picks the instance order of §3.3: the better of BFS and DFS by memory
// utilization (best, shown as "by buffer use": it is not the faster by
// simulated time), Algorithm 3's DFS, or BFS. After a run the first item
// says which it kept. A user order (drag in the inspector) overrides all
// three.

#include "schedule/pipeline.h"

#include <QWidget>

class QComboBox;

namespace stagecraft::views {

class OrderPicker : public QWidget {
    Q_OBJECT
public:
    explicit OrderPicker(QWidget* parent = nullptr);

    schedule::OrderChoice order() const;
    /// Shows \p order without emitting changed() (undo, open).
    void setChoice(schedule::OrderChoice order);
    /// The order the schedule used (\p kind) and both orders' memory
    /// utilization, shown on the "by buffer use" item and as its tooltip.
    void showChosen(schedule::OrderKind kind, double bfsUtilization, double dfsUtilization);

signals:
    /// The user chose another order.
    void changed(stagecraft::schedule::OrderChoice order);

private:
    QComboBox* orders_ = nullptr;
};

} // namespace stagecraft::views
