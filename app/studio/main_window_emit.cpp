// "Emit Kernels…": the shown schedule's kernels through LLVM (issue 7,
// docs/codegen.md), off the GUI thread with a progress dialog that can
// cancel; the outcome goes to the status bar.

#include "dialogs/emit_dialog.h"
#include "studio/kernel_emitter.h"
#include "studio/main_window.h"
#include "studio/session_document.h"

#include <QDir>
#include <QFileInfo>
#include <QProgressDialog>
#include <QStatusBar>

namespace stagecraft::studio {

void MainWindow::connectEmitter() {
    emitter_ = new KernelEmitter(this);
    connect(emitter_, &KernelEmitter::progress, this, [this](int done, int total) {
        statusBar()->showMessage(tr("Emitting kernels: %1 of %2 compiled").arg(done).arg(total));
        if (emitProgress_) {
            emitProgress_->setMaximum(total);
            emitProgress_->setValue(done);
        }
    });
    connect(emitter_, &KernelEmitter::finished, this, [this](const QString& summary) {
        if (emitProgress_)
            emitProgress_->deleteLater();
        statusBar()->showMessage(summary);
        emit kernelsEmitted(summary);
    });
    connect(emitter_, &KernelEmitter::failed, this, [this](const QString& message) {
        if (emitProgress_)
            emitProgress_->deleteLater();
        reportError(tr("Emitting kernels failed: %1").arg(message));
    });
}

bool MainWindow::emitKernels(const QString& directory, const QString& target, int optLevel) {
    if (!result_) {
        reportError(tr("nothing to emit: no model is open"));
        return false;
    }
    KernelEmitter::Request request{result_, directory, target, optLevel,
                                   QString::fromStdString(resultSession_.modelPath)};
    if (!emitter_->start(request)) {
        reportError(tr("kernels are being emitted already"));
        return false;
    }
    statusBar()->showMessage(tr("Emitting kernels for %1 into %2…").arg(target, directory));
    if (interactive_ && isVisible()) {
        emitProgress_ = new QProgressDialog(tr("Emitting kernels for %1…").arg(target),
                                            tr("Cancel"), 0, 0, this);
        emitProgress_->setWindowTitle(tr("Emit Kernels"));
        emitProgress_->setMinimumDuration(0);
        connect(emitProgress_, &QProgressDialog::canceled, emitter_, &KernelEmitter::cancel);
        emitProgress_->show();
    }
    return true;
}

void MainWindow::emitKernelsDialog() {
    if (!result_) {
        reportError(tr("nothing to emit: no model is open"));
        return;
    }
    QFileInfo model(QString::fromStdString(resultSession_.modelPath));
    QString suggested =
        model.absoluteDir().filePath(model.completeBaseName() + QStringLiteral("-kernels"));
    views::EmitDialog dialog(suggested, this);
    if (dialog.exec() == QDialog::Accepted)
        emitKernels(dialog.directory(), dialog.target(), dialog.optLevel());
}

} // namespace stagecraft::studio
