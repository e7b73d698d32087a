// The emit dialog: a suggested directory, the two targets under the names
// codegen::parseTarget reads, O2 by default, and Emit enabled only while a
// directory is named.

#include "dialogs/emit_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QtTest>

using namespace stagecraft;

class TestEmitDialog : public QObject {
    Q_OBJECT

private slots:
    void defaults() {
        views::EmitDialog dialog(QStringLiteral("/tmp/model-kernels"));
        QCOMPARE(dialog.directory(), QStringLiteral("/tmp/model-kernels"));
        QCOMPARE(dialog.target(), QStringLiteral("riscv64"));
        QCOMPARE(dialog.optLevel(), 2);
        auto* target = dialog.findChild<QComboBox*>(QStringLiteral("emitTarget"));
        QVERIFY(target);
        QCOMPARE(target->count(), 2);
        target->setCurrentIndex(1);
        QCOMPARE(dialog.target(), QStringLiteral("host"));
    }

    void emitNeedsADirectory() {
        views::EmitDialog dialog(QStringLiteral("out"));
        auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(ok->isEnabled());
        auto* directory = dialog.findChild<QLineEdit*>(QStringLiteral("emitDirectory"));
        directory->setText(QStringLiteral("   "));
        QVERIFY(!ok->isEnabled());
        directory->setText(QStringLiteral(" kernels "));
        QVERIFY(ok->isEnabled());
        QCOMPARE(dialog.directory(), QStringLiteral("kernels"));
    }
};

QTEST_MAIN(TestEmitDialog)
#include "test_emit_dialog.moc"
