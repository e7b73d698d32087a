// Opening models and sessions (session files and `stagecraft report` pages), saving, recent files,
// drag and drop, and the questions asked before anything unsaved could be lost.

#include "arch/presets.h"
#include "dialogs/dims_dialog.h"
#include "driver/workload.h"
#include "onnx/declared_inputs.h"
#include "studio/autosave.h"
#include "studio/main_window.h"
#include "studio/session_document.h"
#include "studio/start_page.h"
#include "zoo/zoo.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>

namespace stagecraft::studio {

namespace {

constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentFiles");

bool isSessionFile(const QString& path) {
    return path.endsWith(QLatin1String(".stagecraft")) || path.endsWith(QLatin1String(".json")) ||
           isReportFile(path);
}

} // namespace

io::Session MainWindow::sessionFor(const QString& modelPath) const {
    io::Session session = document_->hasModel() ? document_->session() : defaults_;
    session.modelPath = QFileInfo(modelPath).absoluteFilePath().toStdString();
    session.modelSha256.clear();
    session.overrides = {};
    session.dims = defaults_.dims;
    session.inputShapes = defaults_.inputShapes;
    session.values = defaults_.values;
    session.batch = defaults_.batch;
    session.seq = defaults_.seq;
    return session;
}

bool MainWindow::openPath(const QString& path) {
    if (path.startsWith(QLatin1String("zoo:"))) {
        const std::string name = path.mid(4).toStdString();
        Expected<std::filesystem::path> file = zoo::cachedZooModel(name, 0, 0);
        if (!file.ok()) {
            reportError(path + QStringLiteral(": ") +
                        QString::fromStdString(file.error().message()));
            return false;
        }
        return openModelIn(QString::fromStdString(file->string()), path);
    }
    if (QFileInfo(path).isDir()) {
        reportError(tr("%1: is a directory, not a model or session").arg(path));
        return false;
    }
    return isSessionFile(path) ? openSession(path) : openModel(path);
}

bool MainWindow::openModel(const QString& path) {
    return openModelIn(path, QString());
}

bool MainWindow::applyZooSetup(const QString& shownAs, io::Session& session, QStringList& notes) {
    const std::string name = shownAs.mid(4).toStdString();
    const zoo::ZooModelInfo* info = zoo::findZooModel(name);
    if (info != nullptr && info->setup && !setupFixed_) {
        const zoo::ZooSetup& setup = *info->setup;
        Expected<arch::Arch> arch = arch::loadPreset(setup.arch);
        std::optional<schedule::LevelChoice> level = schedule::parseLevelChoice(setup.level);
        if (!arch.ok() || !level) {
            reportError(tr("%1: its setup names architecture '%2' and level '%3'")
                            .arg(shownAs, QString::fromStdString(setup.arch),
                                 QString::fromStdString(setup.level)));
            return false;
        }
        session.arch = std::move(*arch);
        session.level = *level;
        notes << tr("the paper's setup, %1 at the %2 level (%3)")
                     .arg(QString::fromStdString(setup.arch),
                          QString::fromStdString(setup.level).toUpper(),
                          QString::fromStdString(setup.why));
    }
    const driver::Table2Row* row = driver::table2Row(name, session.seq);
    if (row != nullptr && !batchFixed_ && session.arch.clusters == 4) {
        session.batch = {row->totalBatch, row->perCluster, false};
        session.seq = row->seq;
        notes << tr("Table 2 row %1: %2 samples, %3 per cluster (GraphTurbo's, §5.1)")
                     .arg(QString::fromUtf8(row->label.data(),
                                            static_cast<qsizetype>(row->label.size())))
                     .arg(row->totalBatch)
                     .arg(row->perCluster);
    }
    return true;
}

bool MainWindow::openModelIn(const QString& path, const QString& shownAs) {
    if (!QFileInfo(path).isFile()) {
        reportError(tr("%1: no such file").arg(path));
        return false;
    }
    if (!confirmDiscard())
        return false;
    io::Session session = sessionFor(path);
    QStringList notes;
    if (!shownAs.isEmpty() && !applyZooSetup(shownAs, session, notes))
        return false;
    QString note = notes.isEmpty()
                       ? QString()
                       : shownAs + QStringLiteral(": ") + notes.join(QStringLiteral("; "));
    if (interactive_) {
        auto declared = onnxio::declaredInputs(session.modelPath);
        if (!declared.ok()) {
            reportError(QString::fromStdString(declared.error().message()));
            return false;
        }
        if (views::DimsDialog::needsBinding(*declared) ||
            views::DimsDialog::offersValues(*declared)) {
            views::DimsDialog dialog(*declared, session.dims, session.inputShapes, session.values,
                                     this);
            if (dialog.exec() != QDialog::Accepted)
                return false;
            session.dims = dialog.dims();
            session.inputShapes = dialog.inputShapes();
            session.values = dialog.values();
        }
    }
    pending_.expectOpen({session, QString(), QString(), false, note});
    run(session);
    return true;
}

bool MainWindow::openSession(const QString& path) {
    if (!confirmDiscard())
        return false;
    Expected<io::Session> session = loadSessionFile(path);
    if (!session.ok()) {
        reportError(QString::fromStdString(session.error().message()));
        return false;
    }
    // A report is not where the session is saved: Save asks for a file.
    QString file = isReportFile(path) ? QString() : QFileInfo(path).absoluteFilePath();
    pending_.expectOpen({*session, file, QString(), false, QString()});
    run(*session);
    return true;
}

bool MainWindow::recoverSession(const QString& autosavePath) {
    Expected<io::Session> session = io::loadSession(autosavePath.toStdString());
    if (!session.ok()) {
        reportError(QString::fromStdString(session.error().message()));
        return false;
    }
    pending_.expectOpen({*session, QString(), autosavePath, false, QString()});
    run(*session);
    return true;
}

bool MainWindow::askUseChangedModel(const QString& message) {
    return QMessageBox::question(this, tr("Model changed"),
                                 message + tr("\n\nOpen the session with the model as it is now? "
                                              "The overrides may no longer apply.")) ==
           QMessageBox::Yes;
}

bool MainWindow::confirmDiscard() {
    if (!document_->isModified())
        return true;
    if (!interactive_) {
        lastError_ = tr("the session has unsaved changes");
        return false;
    }
    auto answer = QMessageBox::question(
        this, tr("Unsaved changes"), tr("The session has unsaved changes. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

bool MainWindow::save() {
    if (document_->filePath().isEmpty()) {
        if (!interactive_)
            return false;
        saveAsDialog();
        return !document_->isModified();
    }
    return saveAs(document_->filePath());
}

bool MainWindow::saveAs(const QString& path) {
    if (!document_->hasModel())
        return false;
    QString error = document_->saveAs(path);
    if (!error.isEmpty()) {
        reportError(error);
        return false;
    }
    autosave_->discard();
    addRecent(document_->filePath());
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

void MainWindow::openDialog() {
    QString path = QFileDialog::getOpenFileName(
        this, tr("Open a model or session"), QString(),
        tr("Models and sessions (*.onnx *.stagecraft *.html);;ONNX models (*.onnx);;Sessions "
           "(*.stagecraft);;Reports of stagecraft report (*.html *.htm)"));
    if (!path.isEmpty())
        openPath(path);
}

void MainWindow::saveAsDialog() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save session"), document_->filePath(),
                                                tr("Sessions (*.stagecraft)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".stagecraft")))
        path += QStringLiteral(".stagecraft");
    saveAs(path);
}

void MainWindow::addRecent(const QString& path) {
    if (path.isEmpty())
        return;
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent)
        recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openPath(path); })
            ->setToolTip(path);
    recentMenu_->setEnabled(!recent.isEmpty());
    startPage_->setRecent(recent);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile()) {
        event->acceptProposedAction();
        openPath(urls.front().toLocalFile());
    }
}

void MainWindow::bindDims() {
    if (!document_->hasModel())
        return;
    io::Session next = document_->session();
    auto declared = onnxio::declaredInputs(next.modelPath);
    if (!declared.ok()) {
        reportError(QString::fromStdString(declared.error().message()));
        return;
    }
    views::DimsDialog dialog(*declared, next.dims, next.inputShapes, next.values, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    next.dims = dialog.dims();
    next.inputShapes = dialog.inputShapes();
    next.values = dialog.values();
    tryChange(tr("Bind dimensions"), next);
}

} // namespace stagecraft::studio
