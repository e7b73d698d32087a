// The strategy picker: the strategies of sim::strategies() with their
// descriptions, auto and the two levels, changed() on a user's choice only,
// the level auto chose shown in its item.

#include "dialogs/strategy_picker.h"
#include "sim/compare.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QtTest>

using namespace stagecraft;
using namespace Qt::StringLiterals;
using schedule::Level;
using views::StrategyPicker;

class TestStrategyPicker : public QObject {
    Q_OBJECT
private slots:
    void listsTheStrategies() {
        StrategyPicker picker;
        QCOMPARE(picker.objectName(), u"strategyPicker"_s);
        auto* combo = picker.findChild<QComboBox*>(u"strategyCombo"_s);
        const auto& strategies = sim::strategies();
        QCOMPARE(combo->count(), 11);
        QCOMPARE(size_t(combo->count()), strategies.size());
        for (int i = 0; i < combo->count(); ++i) {
            const sim::Strategy& strategy = strategies[static_cast<size_t>(i)];
            QCOMPARE(combo->itemText(i), QString::fromStdString(strategy.name));
            QCOMPARE(combo->itemData(i, Qt::ToolTipRole).toString(),
                     QString::fromStdString(strategy.description));
        }
        auto* levels = picker.findChild<QComboBox*>(u"levelCombo"_s);
        QCOMPARE(levels->count(), 3);
        QCOMPARE(levels->itemText(0), u"auto"_s);
        QCOMPARE(levels->itemText(1), u"LB"_s);
        QCOMPARE(levels->itemText(2), u"GB"_s);
        QCOMPARE(picker.strategy(), u"graphturbo"_s);
        QVERIFY(picker.level() == schedule::LevelChoice{});
    }

    void emitsChanged() {
        StrategyPicker picker;
        QSignalSpy spy(&picker, &StrategyPicker::changed);
        auto* combo = picker.findChild<QComboBox*>(u"strategyCombo"_s);
        combo->setCurrentIndex(combo->findText(u"astitch"_s));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), u"astitch"_s);
        QVERIFY(spy.at(0).at(1).value<schedule::LevelChoice>() == schedule::LevelChoice{});
        QCOMPARE(combo->toolTip(),
                 QString::fromStdString(sim::findStrategy("astitch")->description));
        picker.findChild<QComboBox*>(u"levelCombo"_s)->setCurrentIndex(2);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toString(), u"astitch"_s);
        QVERIFY(spy.at(1).at(1).value<schedule::LevelChoice>() == Level::GB);
        QVERIFY(picker.level() == Level::GB);
    }

    void setChoiceIsSilent() {
        StrategyPicker picker;
        QSignalSpy spy(&picker, &StrategyPicker::changed);
        picker.setChoice(u"gt-lb"_s, Level::GB);
        QCOMPARE(picker.strategy(), u"gt-lb"_s);
        QVERIFY(picker.level() == Level::GB);
        picker.setChoice(u"no-such-strategy"_s, Level::LB);
        QCOMPARE(picker.strategy(), u"gt-lb"_s);
        QVERIFY(picker.level() == Level::LB);
        QCOMPARE(spy.count(), 0);
    }

    void autoShowsTheLevelItChose() {
        StrategyPicker picker;
        auto* levels = picker.findChild<QComboBox*>(u"levelCombo"_s);
        picker.showAutoChoice(u"GB"_s, u"GB: graphturbo simulates 54 ms at GB, 75 ms at LB"_s);
        QCOMPARE(levels->itemText(0), u"auto: GB"_s);
        QCOMPARE(levels->toolTip(), u"GB: graphturbo simulates 54 ms at GB, 75 ms at LB"_s);
        picker.showAutoChoice(QString(), QString());
        QCOMPARE(levels->itemText(0), u"auto"_s);
    }
};

QTEST_MAIN(TestStrategyPicker)
#include "test_strategy_picker.moc"
