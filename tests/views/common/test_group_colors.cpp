// Group colors: the same group has the same color everywhere, the first
// twelve are Set3, and large models (ResNet-50 has 15 groups at the GB level,
// BERT dozens) do not see a color come back: group "m" is not group "a".

#include "common/group_colors.h"

#include <QtTest>

#include <algorithm>
#include <set>

using namespace stagecraft;

class TestGroupColors : public QObject {
    Q_OBJECT
private slots:
    void firstTwelveAreSet3() {
        QCOMPARE(views::groupColor(partition::GroupId(0)), QColor(0x8dd3c7));
        QCOMPARE(views::groupColor(partition::GroupId(11)), QColor(0xffed6f));
    }

    void noColorComesBackInTheFirst96Groups() {
        std::set<QRgb> seen;
        for (int g = 0; g < 96; ++g) {
            const QColor color = views::groupColor(partition::GroupId(g));
            QVERIFY2(seen.insert(color.rgb()).second, qPrintable(QString::number(g)));
            // Light enough for the black labels drawn on it.
            QVERIFY2(color.value() >= 130, qPrintable(color.name()));
        }
        QVERIFY(views::groupColor(partition::GroupId(12)) !=
                views::groupColor(partition::GroupId(0)));
    }

    // A step's sub-graphs never wear a final group's swatch: every step
    // colour is more saturated than any group colour.
    void stepColorsAreNotGroupColors() {
        int groupSaturation = 0;
        for (int g = 0; g < 96; ++g)
            groupSaturation =
                std::max(groupSaturation, views::groupColor(partition::GroupId(g)).hsvSaturation());
        std::set<QRgb> seen;
        for (int r = 0; r < 48; ++r) {
            const QColor color = views::stepGroupColor(r);
            QVERIFY2(color.hsvSaturation() > groupSaturation, qPrintable(color.name()));
            QVERIFY2(seen.insert(color.rgb()).second, qPrintable(QString::number(r)));
        }
    }

    void noGroupIsGray() { QCOMPARE(views::groupColor(partition::kNoGroup), QColor(0xe8e8e8)); }
};

QTEST_MAIN(TestGroupColors)
#include "test_group_colors.moc"
