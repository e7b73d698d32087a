// The order picker: best, DFS and BFS, changed() on a user choice only.

#include "dialogs/order_picker.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QtTest>

using namespace stagecraft;

class TestOrderPicker : public QObject {
    Q_OBJECT

private slots:
    void offersTheThreeOrders() {
        views::OrderPicker picker;
        auto* combo = picker.findChild<QComboBox*>(QStringLiteral("orderCombo"));
        QVERIFY(combo);
        QCOMPARE(combo->count(), 3);
        QVERIFY(picker.order() == schedule::OrderChoice::Best);
        QVERIFY(
            combo->itemData(1, Qt::ToolTipRole).toString().contains(QStringLiteral("Algorithm 3")));
    }

    void userChoiceEmits() {
        views::OrderPicker picker;
        QSignalSpy changed(&picker, &views::OrderPicker::changed);
        auto* combo = picker.findChild<QComboBox*>(QStringLiteral("orderCombo"));
        combo->setCurrentIndex(2);
        QCOMPARE(changed.size(), 1);
        QVERIFY(changed.front().front().value<schedule::OrderChoice>() ==
                schedule::OrderChoice::BFS);
        QVERIFY(picker.order() == schedule::OrderChoice::BFS);
    }

    void setChoiceIsSilent() {
        views::OrderPicker picker;
        QSignalSpy changed(&picker, &views::OrderPicker::changed);
        picker.setChoice(schedule::OrderChoice::DFS);
        QVERIFY(picker.order() == schedule::OrderChoice::DFS);
        QCOMPARE(changed.size(), 0);
    }
};

QTEST_MAIN(TestOrderPicker)
#include "test_order_picker.moc"
