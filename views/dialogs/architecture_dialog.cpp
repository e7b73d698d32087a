// The architecture dialog (see architecture_dialog.h).

#include "dialogs/architecture_dialog.h"

#include "dialogs/architecture_editor.h"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace stagecraft::views {

using namespace Qt::StringLiterals;

ArchitectureDialog::ArchitectureDialog(const arch::Arch& arch, QWidget* parent)
    : QDialog(parent) {
    setObjectName(u"archDialog"_s);
    setWindowTitle(tr("Architecture"));
    auto* layout = new QVBoxLayout(this);
    editor_ = new ArchitectureEditor;
    layout->addWidget(editor_, 1);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(editor_, &ArchitectureEditor::validityChanged, buttons_->button(QDialogButtonBox::Ok),
            &QWidget::setEnabled);
    editor_->setArchitecture(arch);
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(editor_->isValid());
    resize(560, 640);
}

const arch::Arch& ArchitectureDialog::architecture() const {
    return editor_->architecture();
}

} // namespace stagecraft::views
