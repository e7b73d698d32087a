// File → Open Sweep: a sweep's results in their own window; a point opened
// from it becomes the document, as a session would.

#include "studio/main_window.h"
#include "sweeps/sweep_window.h"

#include <QFileDialog>

namespace stagecraft::studio {

bool MainWindow::openSweep(const QString& directory) {
    Expected<std::shared_ptr<const views::SweepTable>> table = views::loadSweepTable(directory);
    if (!table.ok()) {
        reportError(QString::fromStdString(table.error().message()));
        return false;
    }
    if (sweepWindow_)
        sweepWindow_->close();
    sweepWindow_ = new views::SweepWindow(*table, this);
    sweepWindow_->setAttribute(Qt::WA_DeleteOnClose);
    sweepWindow_->resize(size());
    connect(sweepWindow_, &views::SweepWindow::openRequested, this, &MainWindow::openSweepPoint);
    connect(sweepWindow_, &views::SweepWindow::openFailed, this, &MainWindow::reportError);
    sweepWindow_->show();
    sweepWindow_->raise();
    return true;
}

views::SweepWindow* MainWindow::sweepWindow() const {
    return sweepWindow_.data();
}

void MainWindow::openSweepDialog() {
    QString directory = QFileDialog::getExistingDirectory(
        this, tr("Open Sweep (the --out directory of stagecraft sweep)"));
    if (!directory.isEmpty())
        openSweep(directory);
}

void MainWindow::openSweepPoint(const io::Session& session) {
    if (!confirmDiscard())
        return;
    pending_.expectOpen({session, QString(), QString(), false, QString()});
    run(session);
    raise();
    activateWindow();
}

} // namespace stagecraft::studio
