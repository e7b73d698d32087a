// The architecture editor (see architecture_editor.h). The form and the JSON
// text are two views of one draft: a form edit rewrites the text (toJson of
// the form's values, valid or not), a text edit that parses refills the form.
// A text that does not parse leaves the form as it was, so a form edit then
// replaces the broken text.

#include "dialogs/architecture_editor.h"

#include "arch/arch_json.h"
#include "arch/presets.h"
#include "dialogs/arch_form.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QVBoxLayout>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

Expected<arch::Arch> parseArchText(std::string_view json) {
    Expected<arch::Arch> parsed = arch::parseArch(json, "");
    if (parsed.ok())
        return parsed;
    // Without a source name, parseArch's context is an empty "" + ": ".
    std::string_view message = parsed.error().message();
    if (message.starts_with(": "))
        message.remove_prefix(2);
    return Error(std::string(message));
}

ArchitectureEditor::ArchitectureEditor(QWidget* parent)
    : QWidget(parent) {
    setObjectName(u"archEditor"_s);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* presetRow = new QHBoxLayout;
    presetRow->addWidget(new QLabel(tr("Start from preset:")));
    presets_ = new QComboBox;
    presets_->setObjectName(u"presetCombo"_s);
    for (const std::string& name : arch::presetNames())
        presets_->addItem(QString::fromStdString(name));
    presetRow->addWidget(presets_, 1);
    layout->addLayout(presetRow);

    tabs_ = new QTabWidget;
    tabs_->setObjectName(u"archTabs"_s);
    form_ = new ArchForm;
    form_->setObjectName(u"archForm"_s);
    tabs_->addTab(form_, tr("Form"));
    text_ = new QPlainTextEdit;
    text_->setObjectName(u"archJson"_s);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    tabs_->addTab(text_, tr("JSON"));
    layout->addWidget(tabs_, 1);

    errorLabel_ = new QLabel;
    errorLabel_->setObjectName(u"archError"_s);
    errorLabel_->setStyleSheet(u"color: #c00000;"_s);
    errorLabel_->setWordWrap(true);
    errorLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errorLabel_->hide();
    layout->addWidget(errorLabel_);

    // activated, not currentIndexChanged: choosing the shown preset again
    // reloads it, and setArchitecture's own index change loads nothing.
    connect(presets_, &QComboBox::activated, this, &ArchitectureEditor::loadPreset);
    connect(form_, &ArchForm::edited, this, &ArchitectureEditor::formEdited);
    connect(text_, &QPlainTextEdit::textChanged, this, &ArchitectureEditor::textEdited);

    loadPreset(presets_->findText(
        QString::fromUtf8(arch::kDefaultPreset.data(), arch::kDefaultPreset.size())));
}

void ArchitectureEditor::setArchitecture(const arch::Arch& arch) {
    const std::string text = arch::toJson(arch);
    form_->setArch(arch);
    showText(text);
    presets_->setCurrentIndex(presets_->findText(QString::fromStdString(arch.name)));
    Expected<arch::Arch> valid = parseArchText(text);
    if (valid.ok())
        arch_ = std::move(valid).value();
    showError(valid.ok() ? QString() : QString::fromStdString(valid.error().message()));
}

void ArchitectureEditor::loadPreset(int index) {
    if (index < 0)
        return;
    Expected<arch::Arch> preset = arch::loadPreset(presets_->itemText(index).toStdString());
    if (!preset.ok()) {
        showError(QString::fromStdString(preset.error().message()));
        return;
    }
    setArchitecture(*preset);
}

void ArchitectureEditor::formEdited() {
    Expected<arch::Arch> fromForm = form_->arch();
    if (!fromForm.ok()) {
        showError(QString::fromStdString(fromForm.error().message()));
        return;
    }
    const std::string text = arch::toJson(*fromForm);
    showText(text);
    Expected<arch::Arch> valid = parseArchText(text);
    if (valid.ok())
        arch_ = std::move(valid).value();
    showError(valid.ok() ? QString() : QString::fromStdString(valid.error().message()));
}

void ArchitectureEditor::textEdited() {
    Expected<arch::Arch> valid = parseArchText(text_->toPlainText().toStdString());
    if (!valid.ok()) {
        showError(QString::fromStdString(valid.error().message()));
        return;
    }
    arch_ = std::move(valid).value();
    form_->setArch(arch_);
    showError({});
}

void ArchitectureEditor::showText(const std::string& text) {
    const QString shown = QString::fromStdString(text);
    if (text_->toPlainText() == shown)
        return;
    const QSignalBlocker blocker(text_);
    text_->setPlainText(shown);
}

void ArchitectureEditor::showError(const QString& message) {
    bool wasValid = isValid();
    error_ = message;
    errorLabel_->setText(message);
    errorLabel_->setVisible(!message.isEmpty());
    form_->markError(message);
    if (wasValid != isValid())
        emit validityChanged(isValid());
}

} // namespace stagecraft::views
