#pragma once
// Picks the strategy (sim::strategies(): the baselines and the Fig. 15
// variants, each item's tooltip its description) and the capacity level
// (auto: both simulated, the faster kept; LB: the cluster's aggregate local
// buffers; GB: the global buffer). Under auto it shows the level chosen.

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
    schedule::LevelChoice level() const;
    /// Shows \p strategy (a name of sim::strategies(); an unknown name is
    /// ignored) and \p level without emitting changed(): for a document
    /// that changed by other means (undo, open).
    void setChoice(const QString& strategy, schedule::LevelChoice level);
    /// Under auto, the level chosen and why ("auto: GB", the reason as its
    /// tooltip); \p chosen empty resets the item to "auto".
    void showAutoChoice(const QString& chosen, const QString& why);

signals:
    /// The user chose another strategy or level.
    void changed(const QString& strategy, stagecraft::schedule::LevelChoice level);

private:
    void emitChanged();

    QComboBox* strategies_ = nullptr;
    QComboBox* levels_ = nullptr;
};

} // namespace stagecraft::views
