#include "dialogs/emit_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace stagecraft::views {

EmitDialog::EmitDialog(const QString& directory, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Emit Kernels"));
    directory_ = new QLineEdit(directory, this);
    directory_->setObjectName(QStringLiteral("emitDirectory"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* row = new QHBoxLayout;
    row->addWidget(directory_, 1);
    row->addWidget(browse);
    target_ = new QComboBox(this);
    target_->setObjectName(QStringLiteral("emitTarget"));
    target_->addItem(tr("RISC-V 64 with vectors (the DSA's cores)"), QStringLiteral("riscv64"));
    target_->addItem(tr("This host (can run the model)"), QStringLiteral("host"));
    opt_ = new QSpinBox(this);
    opt_->setRange(0, 3);
    opt_->setValue(2);
    opt_->setPrefix(QStringLiteral("O"));
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("Emit"));
    auto* form = new QFormLayout(this);
    form->addRow(tr("Directory"), row);
    form->addRow(tr("Target"), target_);
    form->addRow(tr("Optimization"), opt_);
    form->addRow(buttons_);
    connect(browse, &QPushButton::clicked, this, &EmitDialog::browse);
    connect(directory_, &QLineEdit::textChanged, this, &EmitDialog::updateOk);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateOk();
}

QString EmitDialog::directory() const {
    return directory_->text().trimmed();
}

QString EmitDialog::target() const {
    return target_->currentData().toString();
}

int EmitDialog::optLevel() const {
    return opt_->value();
}

void EmitDialog::browse() {
    QString chosen = QFileDialog::getExistingDirectory(this, tr("Emit Kernels Into"), directory());
    if (!chosen.isEmpty())
        directory_->setText(chosen);
}

void EmitDialog::updateOk() {
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(!directory().isEmpty());
}

} // namespace stagecraft::views
