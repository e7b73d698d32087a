// File → Open Profile…: a profile measured by `stagecraft run --profile`,
// shown by the timeline beside the simulated kernels (docs/studio.md). It is
// attached only to the model, strategy and kernels it was measured for
// (codegen::checkProfileTarget); opened while a model is being opened (the
// --profile option), it is checked once that model is shown.

#include "codegen/profile.h"
#include "studio/analysis_docks.h"
#include "studio/main_window.h"
#include "support/file.h"
#include "zoo/zoo.h"

#include <QFileDialog>
#include <QStatusBar>

namespace stagecraft::studio {

namespace {

/// The shown model and schedule, as a profile names them.
codegen::ProfileTarget profileTarget(const views::PipelineResult& result) {
    codegen::ProfileTarget target;
    target.models.push_back(result.modelPath);
    if (std::optional<std::string> zooName = zoo::cachedZooName(result.modelPath))
        target.models.push_back("zoo:" + *zooName);
    target.strategy = result.strategy;
    target.symbols = codegen::kernelSymbols(result.eval.program);
    return target;
}

} // namespace

bool MainWindow::openProfile(const QString& path) {
    Expected<std::string> text = readFile(path.toStdString());
    Expected<codegen::Profile> profile = text.ok()
                                             ? codegen::readProfileJson(*text, path.toStdString())
                                             : Expected<codegen::Profile>(text.error());
    if (!profile.ok()) {
        reportError(QString::fromStdString(profile.error().message()));
        return false;
    }
    auto read = std::make_shared<const codegen::Profile>(std::move(profile).value());
    if (pending_.open() != nullptr) {
        pendingProfile_ = {path, std::move(read)};
        statusBar()->showMessage(tr("%1: shown once the model is open").arg(path), 8000);
        return true;
    }
    return attachProfile(path, std::move(read));
}

bool MainWindow::attachProfile(const QString& path,
                               std::shared_ptr<const codegen::Profile> profile) {
    if (!result_) {
        reportError(tr("%1: open the model it was measured for first").arg(path));
        return false;
    }
    if (Status fits =
            codegen::checkProfileTarget(*profile, profileTarget(*result_), path.toStdString());
        !fits.ok()) {
        reportError(QString::fromStdString(fits.error().message()));
        return false;
    }
    profile_ = std::move(profile);
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
