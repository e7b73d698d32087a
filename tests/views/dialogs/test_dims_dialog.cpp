// The dimension dialog on a model with symbolic and unknown dims: fixed dims
// read-only, OK disabled until every open dim has a value, a symbolic dim
// shared by its inputs, the bindings returned as import options take them.

#include "dialogs/dims_dialog.h"
#include "onnx/model_builder.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace stagecraft;
using namespace Qt::StringLiterals;
using views::DimsDialog;

namespace {

/// x: f32 [batch, 3, ?, 8] (the third dim has no name), mask: i64 [batch, seq].
std::filesystem::path writeDynamicModel(const QTemporaryDir& dir) {
    onnxio::ModelBuilder m("dynamic", 13);
    m.addInput("x", ir::DType::Float32,
               {std::string("batch"), int64_t{3}, std::string(), int64_t{8}});
    m.addInput("mask", ir::DType::Int64, {std::string("batch"), std::string("seq")});
    m.addNode("Relu", {"x"}, {"y"});
    m.addOutput("y", ir::DType::Float32, {}, false);
    std::filesystem::path path = dir.path().toStdString() + "/dynamic.onnx";
    if (!m.save(path).ok())
        qFatal("cannot write the test model");
    return path;
}

QLineEdit* editor(const DimsDialog& dialog, const QString& name) {
    auto* edit = dialog.findChild<QLineEdit*>(name);
    if (edit == nullptr)
        qFatal("no editor %s", qPrintable(name));
    return edit;
}

QPushButton* okButton(const DimsDialog& dialog) {
    return dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
}

/// Replaces the text as a user would (select all, type).
void retype(QLineEdit* edit, const QString& text) {
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

} // namespace

class TestDimsDialog : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    std::filesystem::path model;

private slots:
    void initTestCase() { model = writeDynamicModel(dir); }

    void listsTheDeclaredInputs() {
        DimsDialog dialog(model);
        QCOMPARE(dialog.objectName(), u"dimsDialog"_s);
        QVERIFY(dialog.loadError().isEmpty());
        QCOMPARE(dialog.inputs().size(), size_t(2));
        QVERIFY(DimsDialog::needsBinding(dialog.inputs()));
        QVERIFY(editor(dialog, u"x[1]"_s)->isReadOnly());
        QCOMPARE(editor(dialog, u"x[1]"_s)->text(), u"3"_s);
        QCOMPARE(editor(dialog, u"x[3]"_s)->text(), u"8"_s);
        for (const QString& open : {u"x[0]"_s, u"x[2]"_s, u"mask[0]"_s, u"mask[1]"_s})
            QVERIFY(!editor(dialog, open)->isReadOnly());
        // The leading dim (the batch) starts at one sample; the others empty,
        // so that no made-up size is taken for the model's.
        QCOMPARE(editor(dialog, u"x[0]"_s)->text(), u"1"_s);
        QCOMPARE(editor(dialog, u"mask[0]"_s)->text(), u"1"_s);
        QCOMPARE(editor(dialog, u"x[2]"_s)->text(), QString());
        QCOMPARE(editor(dialog, u"mask[1]"_s)->text(), QString());
        QCOMPARE(editor(dialog, u"mask[1]"_s)->placeholderText(), u"size"_s);
        QVERIFY(editor(dialog, u"mask[1]"_s)->toolTip().contains(u"'seq'"_s));
    }

    void okOnlyWhenEveryDimIsBound() {
        DimsDialog dialog(model);
        QVERIFY(!dialog.isComplete());
        QVERIFY(!okButton(dialog)->isEnabled());
        auto* status = dialog.findChild<QLabel*>(u"dimsStatus"_s);
        QCOMPARE(status->text(), u"Still open: x[2], seq"_s);
        retype(editor(dialog, u"mask[1]"_s), u"16"_s);
        QVERIFY(!okButton(dialog)->isEnabled());
        // Zero is refused as it is typed.
        retype(editor(dialog, u"x[2]"_s), u"0"_s);
        QVERIFY(!okButton(dialog)->isEnabled());
        retype(editor(dialog, u"x[2]"_s), u"5"_s);
        QVERIFY(okButton(dialog)->isEnabled());
        retype(editor(dialog, u"x[0]"_s), QString());
        QVERIFY(!okButton(dialog)->isEnabled());
        QCOMPARE(status->text(), u"Still open: batch"_s);
        retype(editor(dialog, u"x[0]"_s), u"2"_s);
        QVERIFY(okButton(dialog)->isEnabled());
        QTest::mouseClick(okButton(dialog), Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    void returnsTheBindings() {
        DimsDialog dialog(model);
        retype(editor(dialog, u"x[0]"_s), u"4"_s);
        // One value per symbolic name: the other input follows.
        QCOMPARE(editor(dialog, u"mask[0]"_s)->text(), u"4"_s);
        retype(editor(dialog, u"mask[1]"_s), u"128"_s);
        retype(editor(dialog, u"x[2]"_s), u"7"_s);
        const std::map<std::string, int64_t> dims{{"batch", 4}, {"seq", 128}};
        QVERIFY(dialog.dims() == dims);
        // x has an unnamed dim, so it is bound as a whole shape.
        const std::map<std::string, ir::Shape> shapes{{"x", {4, 3, 7, 8}}};
        QVERIFY(dialog.inputShapes() == shapes);
    }

    void prefillsFromGivenBindings() {
        DimsDialog dialog(model, {{"batch", 2}, {"seq", 9}}, {{"x", {2, 3, 11, 8}}});
        QCOMPARE(editor(dialog, u"x[0]"_s)->text(), u"2"_s);
        QCOMPARE(editor(dialog, u"mask[0]"_s)->text(), u"2"_s);
        QCOMPARE(editor(dialog, u"mask[1]"_s)->text(), u"9"_s);
        QCOMPARE(editor(dialog, u"x[2]"_s)->text(), u"11"_s);
        QVERIFY(okButton(dialog)->isEnabled());
        // A symbolic dim takes its value from a given whole shape, for every
        // input that names it.
        DimsDialog fromShape(model, {}, {{"x", {6, 3, 2, 8}}});
        QCOMPARE(editor(fromShape, u"mask[0]"_s)->text(), u"6"_s);
        QCOMPARE(editor(fromShape, u"x[2]"_s)->text(), u"2"_s);
    }

    void inputWithoutShapeTakesAWholeShape() {
        onnxio::DeclaredInput shapeless{"y", "f32", false, {}};
        DimsDialog dialog(std::vector{shapeless}, {});
        QVERIFY(DimsDialog::needsBinding(dialog.inputs()));
        QVERIFY(!okButton(dialog)->isEnabled());
        QLineEdit* shape = editor(dialog, u"y.shape"_s);
        QTest::keyClicks(shape, u"2x"_s);
        QVERIFY(!okButton(dialog)->isEnabled());
        QTest::keyClicks(shape, u"16"_s);
        QVERIFY(okButton(dialog)->isEnabled());
        const std::map<std::string, ir::Shape> shapes{{"y", {2, 16}}};
        QVERIFY(dialog.inputShapes() == shapes);
        QVERIFY(dialog.dims().empty());
    }

    void scalarAndVectorInputsTakeValues() {
        onnxio::DeclaredInput rate{"sr", "i64", true, {}};
        onnxio::DeclaredInput audio{"input", "f32", true, {{std::nullopt, "batch"}, {512, ""}}};
        QVERIFY(DimsDialog::offersValues({rate, audio}));
        QVERIFY(!DimsDialog::offersValues({audio}));
        DimsDialog dialog(std::vector{audio, rate}, {}, {}, {{"sr", "8000"}});
        QVERIFY(dialog.findChild<QLineEdit*>(u"input.value"_s) == nullptr); // rank 2: no value
        QLineEdit* value = editor(dialog, u"sr.value"_s);
        QCOMPARE(value->text(), u"8000"_s);
        retype(value, u"16000"_s);
        const std::map<std::string, std::string> values{{"sr", "16000"}};
        QVERIFY(dialog.values() == values);
        retype(value, QString());
        QVERIFY(dialog.values().empty()); // empty: the input is given at run time
        QVERIFY(okButton(dialog)->isEnabled());
    }

    void staticModelNeedsNothing() {
        onnxio::DeclaredInput fixed{"x", "f32", true, {{int64_t{1}, ""}, {int64_t{3}, ""}}};
        QVERIFY(!DimsDialog::needsBinding({fixed}));
        DimsDialog dialog(std::vector{fixed}, {});
        QVERIFY(okButton(dialog)->isEnabled());
        QVERIFY(dialog.dims().empty() && dialog.inputShapes().empty());
    }

    void unreadableModel() {
        const std::string missing = dir.path().toStdString() + "/absent.onnx";
        DimsDialog dialog(std::filesystem::path{missing});
        QCOMPARE(dialog.loadError(),
                 QString::fromStdString(missing + ": cannot open: No such file or directory"));
        QCOMPARE(dialog.findChild<QLabel*>(u"dimsStatus"_s)->text(), dialog.loadError());
        QVERIFY(!okButton(dialog)->isEnabled());
    }
};

QTEST_MAIN(TestDimsDialog)
#include "test_dims_dialog.moc"
