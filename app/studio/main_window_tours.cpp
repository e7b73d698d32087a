// Guided tours in the main window: the Tour dock, Help → Tours, and what a
// step sets up (its model and session choices, then, once its result is
// shown, its selection, algorithm step and views).

#include "arch/presets.h"
#include "studio/main_window.h"
#include "studio/tour_panel.h"
#include "studio/tours.h"
#include "zoo/zoo.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>

namespace stagecraft::studio {

void MainWindow::createTourDock() {
    tourPanel_ = new TourPanel(this);
    auto* dock = new QDockWidget(tr("Tour"), this);
    dock->setObjectName(QStringLiteral("tourDock"));
    dock->setWidget(tourPanel_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    dock->hide();
    connect(tourPanel_, &TourPanel::stepRequested, this, &MainWindow::goToTourStep);
    connect(tourPanel_, &TourPanel::leaveRequested, this, [this, dock] {
        pendingTourStep_.reset();
        dock->hide();
    });
}

void MainWindow::addToursMenu(QMenu* help) {
    QMenu* tours = help->addMenu(tr("&Tours"));
    tours->setObjectName(QStringLiteral("toursMenu"));
    for (io::Tour& tour : builtInTours()) {
        const QString title = QString::fromStdString(tour.title);
        tours->addAction(title, this, [this, tour] { startTour(tour, 0); })
            ->setToolTip(QString::fromStdString(tour.description));
    }
    tours->addSeparator();
    tours->addAction(tr("Open a Tour File…"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open a tour"), QString(), tr("Tours (*.json)"));
        if (path.isEmpty())
            return;
        Expected<io::Tour> tour = loadTour(path);
        if (!tour.ok())
            reportError(QString::fromStdString(tour.error().message()));
        else
            startTour(std::move(tour).value(), 0);
    });
}

bool MainWindow::startTour(io::Tour tour, int step) {
    tourPanel_->setTour(std::move(tour));
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("tourDock"))) {
        dock->show();
        dock->raise();
    }
    return goToTourStep(step);
}

bool MainWindow::goToTourStep(int index) {
    const io::Tour& tour = tourPanel_->tour();
    if (index < 0 || static_cast<size_t>(index) >= tour.steps.size()) {
        reportError(tr("the tour '%1' has %2 steps; there is no step %3")
                        .arg(QString::fromStdString(tour.name))
                        .arg(tour.steps.size())
                        .arg(index + 1));
        return false;
    }
    const io::TourStep& step = tour.steps[static_cast<size_t>(index)];
    QString path = QString::fromStdString(step.model);
    if (path.startsWith(QLatin1String("zoo:"))) {
        Expected<std::filesystem::path> file = zoo::cachedZooModel(path.mid(4).toStdString(), 0, 0);
        if (!file.ok()) {
            reportError(path + QStringLiteral(": ") +
                        QString::fromStdString(file.error().message()));
            return false;
        }
        path = QString::fromStdString(file->string());
    }
    Expected<arch::Arch> arch = arch::loadPreset(step.arch);
    if (!arch.ok()) {
        reportError(QString::fromStdString(arch.error().message()));
        return false;
    }
    if (!confirmDiscard())
        return false;
    io::Session session = sessionFor(path);
    session.arch = std::move(arch).value();
    session.strategy = step.strategy;
    session.level = step.level;
    session.order = step.order;
    session.batch = step.batch;
    session.seq = step.seq;
    session.overrides = step.overrides;
    tourPanel_->showStep(index);
    pendingTourStep_ = index;
    pending_.expectOpen(
        {session, QString(), QString(), false,
         tr("Tour step %1: %2").arg(index + 1).arg(QString::fromStdString(step.title))});
    run(session);
    return true;
}

void MainWindow::applyTourStep(int index) {
    const io::Tour& tour = tourPanel_->tour();
    if (index < 0 || static_cast<size_t>(index) >= tour.steps.size())
        return;
    const io::TourStep& step = tour.steps[static_cast<size_t>(index)];
    if (!step.select.empty())
        selectNamed(QString::fromStdString(step.select));
    if (step.algorithmStep > 0) {
        showView(StudioView::Steps);
        showStep(static_cast<int>(step.algorithmStep) - 1);
    }
    for (const std::string& name : step.views)
        if (std::optional<StudioView> view = parseStudioView(QString::fromStdString(name)))
            showView(*view);
}

TourPanel* MainWindow::tourPanel() const {
    return tourPanel_;
}

} // namespace stagecraft::studio
