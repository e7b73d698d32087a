#pragma once
// The architecture editor in a dialog whose OK is enabled only while the
// edited description is valid.

#include "arch/arch.h"

#include <QDialog>

class QDialogButtonBox;

namespace stagecraft::views {

class ArchitectureEditor;

class ArchitectureDialog : public QDialog {
    Q_OBJECT
public:
    /// Starts from \p arch.
    explicit ArchitectureDialog(const arch::Arch& arch, QWidget* parent = nullptr);

    ArchitectureEditor* editor() const { return editor_; }
    /// The last valid architecture (what OK accepts).
    const arch::Arch& architecture() const;

private:
    ArchitectureEditor* editor_ = nullptr;
    QDialogButtonBox* buttons_ = nullptr;
};

} // namespace stagecraft::views
