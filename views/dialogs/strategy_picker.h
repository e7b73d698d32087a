#pragma once
// Picks the strategy (sim::strategies(): the baselines and the Fig. 15
// variants, each item's tooltip its description) and the capacity level
// (LB: the cluster's aggregate local buffers; GB: the global buffer).

#include "schedule/schedule.h"

#include <QString>
#include <QWidget>

class QComboBox;

namespace stagecraft::views {

class StrategyPicker : public QWidget {
    Q_OBJECT
public:
    explicit StrategyPicker(QWidget* parent = nullptr);

    QString strategy() const;
    schedule::Level level() const;
    /// Shows \p strategy (a name of sim::strategies(); an unknown name is
    /// ignored) and \p level without emitting changed(): for a document
    /// that changed by other means (undo, open).
    void setChoice(const QString& strategy, schedule::Level level);

signals:
    /// The user chose another strategy or level.
    void changed(const QString& strategy, stagecraft::schedule::Level level);

private:
    void emitChanged();

    QComboBox* strategies_ = nullptr;
    QComboBox* levels_ = nullptr;
};

} // namespace stagecraft::views
