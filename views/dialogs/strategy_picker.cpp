// The strategy and level picker (see strategy_picker.h).

#include "dialogs/strategy_picker.h"

#include "sim/compare.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

StrategyPicker::StrategyPicker(QWidget* parent)
    : QWidget(parent) {
    setObjectName(u"strategyPicker"_s);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    strategies_ = new QComboBox;
    strategies_->setObjectName(u"strategyCombo"_s);
    for (const sim::Strategy& strategy : sim::strategies()) {
        strategies_->addItem(QString::fromStdString(strategy.name));
        strategies_->setItemData(strategies_->count() - 1,
                                 QString::fromStdString(strategy.description), Qt::ToolTipRole);
    }
    levels_ = new QComboBox;
    levels_->setObjectName(u"levelCombo"_s);
    for (schedule::Level level : {schedule::Level::LB, schedule::Level::GB}) {
        std::string_view name = schedule::levelName(level);
        levels_->addItem(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())),
                         static_cast<int>(level));
    }
    levels_->setItemData(0, tr("instances sized for the cluster's aggregate local buffers"),
                         Qt::ToolTipRole);
    levels_->setItemData(1, tr("instances sized for the cluster's global buffer"), Qt::ToolTipRole);
    layout->addWidget(new QLabel(tr("Strategy")));
    layout->addWidget(strategies_);
    layout->addWidget(new QLabel(tr("Level")));
    layout->addWidget(levels_);
    setChoice(u"graphturbo"_s, schedule::Level::LB);

    connect(strategies_, &QComboBox::currentIndexChanged, this, &StrategyPicker::emitChanged);
    connect(levels_, &QComboBox::currentIndexChanged, this, &StrategyPicker::emitChanged);
}

QString StrategyPicker::strategy() const {
    return strategies_->currentText();
}

schedule::Level StrategyPicker::level() const {
    return static_cast<schedule::Level>(levels_->currentData().toInt());
}

void StrategyPicker::setChoice(const QString& strategy, schedule::Level level) {
    const QSignalBlocker blockStrategies(strategies_);
    const QSignalBlocker blockLevels(levels_);
    if (int index = strategies_->findText(strategy); index >= 0)
        strategies_->setCurrentIndex(index);
    levels_->setCurrentIndex(levels_->findData(static_cast<int>(level)));
    strategies_->setToolTip(strategies_->currentData(Qt::ToolTipRole).toString());
}

void StrategyPicker::emitChanged() {
    strategies_->setToolTip(strategies_->currentData(Qt::ToolTipRole).toString());
    emit changed(strategy(), level());
}

} // namespace stagecraft::views
