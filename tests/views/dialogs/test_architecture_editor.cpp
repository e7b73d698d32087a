// The architecture editor: a preset fills the form, every edit is validated
// by arch::parseArch as it is typed (its exact message shown, the field
// marked, OK disabled), the JSON tab and the form stay in step.

#include "arch/arch_json.h"
#include "arch/presets.h"
#include "dialogs/architecture_dialog.h"
#include "dialogs/architecture_editor.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace stagecraft;
using namespace Qt::StringLiterals;
using views::ArchitectureEditor;

namespace {

const QString kLbBytes = u"cluster.core_groups[0].local_buffer.bytes"_s;

arch::Arch preset(const char* name) {
    auto arch = arch::loadPreset(name);
    if (!arch.ok())
        qFatal("%s", arch.error().message().c_str());
    return *arch;
}

QLineEdit* field(const QWidget& editor, const QString& path) {
    auto* edit = editor.findChild<QLineEdit*>(path);
    if (edit == nullptr)
        qFatal("no field %s", qPrintable(path));
    return edit;
}

void retype(QLineEdit* edit, const QString& text) {
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

QString shownError(const ArchitectureEditor& editor) {
    return editor.findChild<QLabel*>(u"archError"_s)->text();
}

/// The message of parseArch itself, without its source name.
QString parseArchMessage(const std::string& text) {
    auto parsed = arch::parseArch(text, "x");
    if (parsed.ok())
        return {};
    return QString::fromStdString(parsed.error().message()).mid(3);
}

} // namespace

class TestArchitectureEditor : public QObject {
    Q_OBJECT
private slots:
    void startsWithTheDefaultPreset() {
        ArchitectureEditor editor;
        QCOMPARE(editor.objectName(), u"archEditor"_s);
        QVERIFY(editor.isValid());
        QVERIFY(editor.architecture() == preset("stcp920"));
        QCOMPARE(field(editor, u"clusters"_s)->text(), QString::number(preset("stcp920").clusters));
    }

    void choosingAPresetFillsTheForm() {
        ArchitectureEditor editor;
        auto* presets = editor.findChild<QComboBox*>(u"presetCombo"_s);
        QCOMPARE(presets->itemText(1), u"teaching"_s);
        QTest::keyClick(presets, Qt::Key_Down);
        QCOMPARE(presets->currentText(), u"teaching"_s);
        QVERIFY(editor.architecture() == preset("teaching"));
        QCOMPARE(field(editor, u"clusters"_s)->text(), u"1"_s);
        QCOMPARE(field(editor, u"cluster.core_groups[0].count"_s)->text(), u"4"_s);
        QCOMPARE(field(editor, kLbBytes)->text(), u"8192"_s);
        QCOMPARE(
            field(editor, u"cluster.core_groups[0].local_buffer.weight_reserve_bytes"_s)->text(),
            u"1024"_s);
        QCOMPARE(field(editor, u"cluster.global_buffer.bytes"_s)->text(), u"1048576"_s);
        QCOMPARE(field(editor, u"ddr.bytes"_s)->text(), u"1073741824"_s);
        QCOMPARE(field(editor, u"paths[1].bandwidth_gbps"_s)->text(), u"64"_s);
        QCOMPARE(field(editor, u"paths[1].channels"_s)->text(), u"2"_s);
        QCOMPARE(editor.findChild<QPlainTextEdit*>(u"archJson"_s)->toPlainText(),
                 QString::fromStdString(arch::toJson(preset("teaching"))));
    }

    void invalidValuesShowParseArchsMessage_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("lb bytes 0")
            << kLbBytes << u"0"_s << kLbBytes + u": must be a positive integer (got 0)"_s;
        QTest::newRow("clusters -1")
            << u"clusters"_s << u"-1"_s << u"clusters: must be a positive integer (got -1)"_s;
        QTest::newRow("reserve over lb")
            << u"cluster.core_groups[0].local_buffer.weight_reserve_bytes"_s << u"9000"_s
            << u"cluster.core_groups[0].local_buffer.weight_reserve_bytes: must be less than "
               "bytes (8192) (got 9000)"_s;
        QTest::newRow("not a number") << u"paths[0].latency_ns"_s << u"fast"_s
                                      << u"paths[0].latency_ns: must be a number (got 'fast')"_s;
        QTest::newRow("ops without a fallback CPU")
            << u"supported_ops"_s << u"Conv"_s
            << u"supported_ops: the ops outside the list need a fallback_cpu to run on"_s;
        QTest::newRow("unknown op type") << u"supported_ops"_s << u"Conv, Cnov"_s
                                         << u"supported_ops: unknown op type 'Cnov' (expected an "
                                            "ONNX op type such as Conv or Relu)"_s;
    }
    void invalidValuesShowParseArchsMessage() {
        QFETCH(QString, path);
        QFETCH(QString, value);
        QFETCH(QString, message);
        views::ArchitectureDialog dialog(preset("teaching"));
        ArchitectureEditor& editor = *dialog.editor();
        QPushButton* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QSignalSpy validity(&editor, &ArchitectureEditor::validityChanged);
        QVERIFY(ok->isEnabled());
        const QString before = field(editor, path)->text();
        retype(field(editor, path), value.chopped(1));
        const arch::Arch lastValid = editor.architecture();
        QTest::keyClicks(field(editor, path), value.right(1));
        QCOMPARE(shownError(editor), message);
        QCOMPARE(editor.errorMessage(), shownError(editor));
        QVERIFY(!editor.isValid() && !ok->isEnabled());
        QVERIFY(!field(editor, path)->styleSheet().isEmpty());
        // Typed key by key, the text may pass through valid values on the way.
        QVERIFY(!validity.isEmpty());
        QCOMPARE(validity.last().at(0).toBool(), false);
        // architecture() stays the last valid one.
        QVERIFY(editor.architecture() == lastValid);

        retype(field(editor, path), before);
        QVERIFY(editor.isValid() && ok->isEnabled());
        QVERIFY(shownError(editor).isEmpty());
        QVERIFY(field(editor, path)->styleSheet().isEmpty());
        QCOMPARE(validity.last().at(0).toBool(), true);
        QVERIFY(editor.architecture() == preset("teaching"));
    }

    void formEditsReachTheArchitectureAndTheText() {
        ArchitectureEditor editor;
        editor.setArchitecture(preset("teaching"));
        retype(field(editor, kLbBytes), u"16384"_s);
        retype(field(editor, u"paths[0].bandwidth_gbps"_s), u"12.5"_s);
        arch::Arch expected = preset("teaching");
        expected.cluster.coreGroups[0].localBuffer->bytes = 16384;
        expected.paths[0].bandwidthGBps = 12.5;
        QVERIFY(editor.isValid());
        QVERIFY(editor.architecture() == expected);
        QCOMPARE(editor.findChild<QPlainTextEdit*>(u"archJson"_s)->toPlainText(),
                 QString::fromStdString(arch::toJson(expected)));
    }

    /// The accelerator's op types (DLA §3): a list typed in the form reaches
    /// the architecture sorted; blank is no list.
    void supportedOpsAreEditedInTheForm() {
        ArchitectureEditor editor;
        editor.setArchitecture(preset("stcp920"));
        QCOMPARE(field(editor, u"supported_ops"_s)->text(), QString());
        retype(field(editor, u"supported_ops"_s), u"Relu, Conv MatMul"_s);
        QVERIFY2(editor.isValid(), qPrintable(editor.errorMessage()));
        QVERIFY(editor.architecture().supportedOps ==
                (std::vector<ir::OpKind>{ir::OpKind::Conv, ir::OpKind::MatMul, ir::OpKind::Relu}));
        editor.setArchitecture(editor.architecture());
        QCOMPARE(field(editor, u"supported_ops"_s)->text(), u"Conv, MatMul, Relu"_s);
        retype(field(editor, u"supported_ops"_s), u" "_s);
        QVERIFY(editor.isValid());
        QVERIFY(!editor.architecture().supportedOps);
    }

    void brokenJsonShowsTheParseError() {
        views::ArchitectureDialog dialog(preset("teaching"));
        ArchitectureEditor& editor = *dialog.editor();
        QPushButton* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        auto* text = editor.findChild<QPlainTextEdit*>(u"archJson"_s);
        const std::string broken = "{\n  \"format\": \"stagecraft-arch\",\n  \"version\": 1,\n";
        text->setPlainText(QString::fromStdString(broken));
        QVERIFY(shownError(editor).startsWith(u"not valid JSON: "_s));
        QCOMPARE(shownError(editor), parseArchMessage(broken));
        QVERIFY(!ok->isEnabled());
        QVERIFY(editor.architecture() == preset("teaching"));

        arch::Arch threeClusters = preset("teaching");
        threeClusters.clusters = 3;
        text->setPlainText(QString::fromStdString(arch::toJson(threeClusters)));
        QVERIFY(editor.isValid() && ok->isEnabled());
        QCOMPARE(field(editor, u"clusters"_s)->text(), u"3"_s);
        QVERIFY(dialog.architecture() == threeClusters);
    }

    void jsonThatParsesButFailsValidation() {
        ArchitectureEditor editor;
        editor.setArchitecture(preset("teaching"));
        std::string text = arch::toJson(preset("teaching"));
        text.replace(text.find("\"clusters\": 1"), 13, "\"clusters\": 0");
        editor.findChild<QPlainTextEdit*>(u"archJson"_s)
            ->setPlainText(QString::fromStdString(text));
        QCOMPARE(shownError(editor), u"clusters: must be a positive integer (got 0)"_s);
        QCOMPARE(shownError(editor), parseArchMessage(text));
    }

    // Another structure (two core groups, GEMM without LB) rebuilds the form.
    void structureFollowsTheArchitecture() {
        ArchitectureEditor editor;
        editor.setArchitecture(preset("habana-goya"));
        QCOMPARE(field(editor, u"cluster.core_groups[1].count"_s)->text(), u"1"_s);
        QVERIFY(!editor.findChild<QLineEdit*>(u"cluster.core_groups[1].local_buffer.bytes"_s));
        arch::Arch custom = preset("teaching");
        custom.name = "my chip";
        editor.setArchitecture(custom);
        QVERIFY(!editor.findChild<QLineEdit*>(u"cluster.core_groups[1].count"_s));
        QCOMPARE(field(editor, u"name"_s)->text(), u"my chip"_s);
        QCOMPARE(editor.findChild<QComboBox*>(u"presetCombo"_s)->currentIndex(), -1);
        QVERIFY(editor.architecture() == custom);
    }
};

QTEST_MAIN(TestArchitectureEditor)
#include "test_architecture_editor.moc"
