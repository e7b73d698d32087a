#pragma once
// Edits the session's architecture: start from a preset, change the main
// numbers in a form or anything in the JSON text. Every edit is validated at
// once by arch::parseArch, the one validation of architectures: its message
// shows under the tabs (the field at fault marked in the form), and
// validityChanged() lets the dialog around it disable OK until the
// description is valid again (ArchitectureDialog does that). architecture()
// is always the last valid description.

#include "arch/arch.h"
#include "support/expected.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace stagecraft::views {

class ArchForm;

class ArchitectureEditor : public QWidget {
    Q_OBJECT
public:
    /// Starts with the default preset (arch::kDefaultPreset).
    explicit ArchitectureEditor(QWidget* parent = nullptr);

    /// The last valid architecture.
    const arch::Arch& architecture() const { return arch_; }
    /// Shows \p arch in the form and the JSON text, and selects its preset
    /// when it has a preset's name.
    void setArchitecture(const arch::Arch& arch);

    /// False while the form or the text does not describe a valid architecture.
    bool isValid() const { return error_.isEmpty(); }
    /// parseArch's message (or the form's, for a field that is not a number);
    /// empty when valid.
    const QString& errorMessage() const { return error_; }

signals:
    void validityChanged(bool valid);

private:
    void loadPreset(int index);
    void formEdited();
    void textEdited();
    /// Shows \p text in the JSON tab without reacting to the change.
    void showText(const std::string& text);
    void showError(const QString& message);

    arch::Arch arch_;
    QString error_;
    QComboBox* presets_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    ArchForm* form_ = nullptr;
    QPlainTextEdit* text_ = nullptr;
    QLabel* errorLabel_ = nullptr;
};

/// parseArch on \p json with the messages as they name the field, without a
/// source name ("clusters: must be a positive integer (got -1)").
Expected<arch::Arch> parseArchText(std::string_view json);

} // namespace stagecraft::views
