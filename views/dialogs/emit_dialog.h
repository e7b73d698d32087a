#pragma once
// Asks where and for what to emit the current schedule's kernels: the output
// directory (created if missing), the target (the DSA's RISC-V vector cores,
// or this host) and the LLVM optimization level. OK is enabled once a
// directory is named.

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QSpinBox;

namespace stagecraft::views {

class EmitDialog : public QDialog {
    Q_OBJECT
public:
    explicit EmitDialog(const QString& directory, QWidget* parent = nullptr);

    QString directory() const;
    /// "riscv64" or "host" (codegen::parseTarget's names).
    QString target() const;
    int optLevel() const;

private:
    void browse();
    void updateOk();

    QLineEdit* directory_ = nullptr;
    QComboBox* target_ = nullptr;
    QSpinBox* opt_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
};

} // namespace stagecraft::views
