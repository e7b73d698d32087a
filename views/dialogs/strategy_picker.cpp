// The strategy and level picker (see strategy_picker.h).

#include "dialogs/strategy_picker.h"

#include "sim/compare.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

namespace {

/// The level combo's data for auto (the levels use their enum values).
constexpr int kAuto = -1;
const QString kAutoTip = QStringLiteral("both levels simulated with graphturbo, the faster kept");

} // namespace

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
    levels_->setSizeAdjustPolicy(QComboBox::AdjustToContents); // "auto: GB" after a run
    levels_->addItem(u"auto"_s, kAuto);
    for (schedule::Level level : {schedule::Level::LB, schedule::Level::GB}) {
        std::string_view name = schedule::levelName(level);
        levels_->addItem(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())),
                         static_cast<int>(level));
    }
    levels_->setItemData(0, kAutoTip, Qt::ToolTipRole);
    levels_->setItemData(1,
                         tr("instances sized for the cluster's aggregate local buffers; groups "
                            "with no split that fits them are sized for the global buffer"),
                         Qt::ToolTipRole);
    levels_->setItemData(2, tr("instances sized for the cluster's global buffer"), Qt::ToolTipRole);
    layout->addWidget(new QLabel(tr("Strategy")));
    layout->addWidget(strategies_);
    layout->addWidget(new QLabel(tr("Level")));
    layout->addWidget(levels_);
    setChoice(u"graphturbo"_s, std::nullopt);

    connect(strategies_, &QComboBox::currentIndexChanged, this, &StrategyPicker::emitChanged);
    connect(levels_, &QComboBox::currentIndexChanged, this, &StrategyPicker::emitChanged);
}

QString StrategyPicker::strategy() const {
    return strategies_->currentText();
}

schedule::LevelChoice StrategyPicker::level() const {
    int chosen = levels_->currentData().toInt();
    return chosen == kAuto ? schedule::LevelChoice{} : static_cast<schedule::Level>(chosen);
}

void StrategyPicker::showAutoChoice(const QString& chosen, const QString& why) {
    levels_->setItemText(0, chosen.isEmpty() ? u"auto"_s : u"auto: "_s + chosen);
    levels_->setItemData(0, chosen.isEmpty() || why.isEmpty() ? kAutoTip : why, Qt::ToolTipRole);
    levels_->setToolTip(levels_->currentData(Qt::ToolTipRole).toString());
}

void StrategyPicker::setChoice(const QString& strategy, schedule::LevelChoice level) {
    const QSignalBlocker blockStrategies(strategies_);
    const QSignalBlocker blockLevels(levels_);
    if (int index = strategies_->findText(strategy); index >= 0)
        strategies_->setCurrentIndex(index);
    levels_->setCurrentIndex(levels_->findData(level ? static_cast<int>(*level) : kAuto));
    levels_->setToolTip(levels_->currentData(Qt::ToolTipRole).toString());
    strategies_->setToolTip(strategies_->currentData(Qt::ToolTipRole).toString());
}

void StrategyPicker::emitChanged() {
    strategies_->setToolTip(strategies_->currentData(Qt::ToolTipRole).toString());
    emit changed(strategy(), level());
}

} // namespace stagecraft::views
