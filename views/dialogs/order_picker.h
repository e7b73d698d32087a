#pragma once
// Picks the instance order of §3.3: the better of BFS and DFS by memory
// utilization (best), Algorithm 3's DFS, or BFS. A user order (drag in the
// inspector) overrides all three.

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

signals:
    /// The user chose another order.
    void changed(stagecraft::schedule::OrderChoice order);

private:
    QComboBox* orders_ = nullptr;
};

} // namespace stagecraft::views
