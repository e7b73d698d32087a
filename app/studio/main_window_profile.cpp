// File → Open Profile…: a profile measured by `stagecraft run --profile`,
// shown by the timeline beside the simulated kernels (docs/studio.md).

#include "codegen/profile.h"
#include "studio/analysis_docks.h"
#include "studio/main_window.h"
#include "support/file.h"

#include <QFileDialog>
#include <QStatusBar>

namespace stagecraft::studio {

bool MainWindow::openProfile(const QString& path) {
    Expected<std::string> text = readFile(path.toStdString());
    Expected<codegen::Profile> profile = text.ok()
                                             ? codegen::readProfileJson(*text, path.toStdString())
                                             : Expected<codegen::Profile>(text.error());
    if (!profile.ok()) {
        reportError(QString::fromStdString(profile.error().message()));
        return false;
    }
    profile_ = std::make_shared<const codegen::Profile>(std::move(profile).value());
    analysis_->setProfile(profile_);
    statusBar()->showMessage(
        tr("Profile of %1 kernels (%2 on %3): the timeline shows it beside the simulated "
           "kernels while it times the shown schedule")
            .arg(profile_->kernels.size())
            .arg(QString::fromStdString(profile_->strategy),
                 QString::fromStdString(profile_->arch)),
        8000);
    return true;
}

void MainWindow::openProfileDialog() {
    QString path = QFileDialog::getOpenFileName(this, tr("Open Profile"), QString(),
                                                tr("Profiles (*.json);;All files (*)"));
    if (!path.isEmpty())
        openProfile(path);
}

} // namespace stagecraft::studio
