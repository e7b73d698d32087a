// The Analyze menu and the keyboard shortcuts of the main window's common
// actions (docs/studio.md lists them): views, fit and find, the roofline, the comparison,
// diffs with another strategy or a saved session, and the step-through.

#include "graph/graph_view.h"
#include "instances/instance_view.h"
#include "stepper/stepper_view.h"
#include "studio/analysis_docks.h"
#include "studio/main_window.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QStatusBar>

namespace stagecraft::studio {

void MainWindow::createToolsMenu() {
    auto* view = menuBar()->findChild<QMenu*>(QStringLiteral("viewMenu"));
    view->addSeparator();
    view->addAction(tr("&Fit All Views"), this,
                    [this] {
                        graphView_->fitToView();
                        instanceView_->fitToView();
                        analysis_->fitTimeline();
                    })
        ->setShortcut(Qt::CTRL | Qt::Key_0);
    view->addAction(tr("&Find Op…"), this, [this] { graphView_->focusFind(); })
        ->setShortcut(QKeySequence::Find);
    view->addAction(tr("&Expand All Groups"), graphView_, &views::GraphView::expandAll)
        ->setShortcut(Qt::CTRL | Qt::Key_E);
    view->addAction(tr("&Collapse All Groups"), graphView_, &views::GraphView::collapseAll)
        ->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_E);

    auto* analyze = menuBar()->addMenu(tr("&Analyze"));
    analyze->setObjectName(QStringLiteral("analyzeMenu"));
    analyze->addAction(tr("&Timeline"), this, [this] { showView(StudioView::Timeline); })
        ->setShortcut(Qt::CTRL | Qt::Key_L);
    analyze
        ->addAction(tr("C&osts of Groups and Kernels"), this,
                    [this] { showView(StudioView::Costs); })
        ->setShortcut(Qt::CTRL | Qt::Key_J);
    analyze->addAction(tr("&Compare Strategies"), this, [this] { showView(StudioView::Compare); })
        ->setShortcut(Qt::CTRL | Qt::Key_K);
    // Ctrl+R is the architecture's; Shift takes a view whose letter is
    // taken, as Ctrl+Shift+K does for Emit Kernels.
    analyze->addAction(tr("&Roofline"), this, [this] { showView(StudioView::Roofline); })
        ->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_R);
    auto* diffMenu = analyze->addMenu(tr("&Diff With Strategy"));
    for (const sim::Strategy& strategy : sim::strategies()) {
        const QString name = QString::fromStdString(strategy.name);
        diffMenu->addAction(name, this, [this, name] { diffWith(name); });
    }
    analyze->addAction(tr("Diff With &Session…"), this, &MainWindow::diffWithSessionDialog)
        ->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_D);
    analyze->addSeparator();
    analyze
        ->addAction(tr("&Step Through the Algorithms"), this,
                    [this] { showView(StudioView::Steps); })
        ->setShortcut(Qt::CTRL | Qt::Key_T);
    analyze->addAction(tr("Step &Forward"), stepper(), &views::StepperView::stepForward)
        ->setShortcut(Qt::Key_F8);
    analyze->addAction(tr("Step &Back"), stepper(), &views::StepperView::stepBack)
        ->setShortcut(Qt::SHIFT | Qt::Key_F8);
    analyze->addAction(tr("&Play / Pause Steps"), stepper(), &views::StepperView::togglePlay)
        ->setShortcut(Qt::Key_F5);

    // Each dock on Ctrl+1…: the dock toggles of the View menu.
    int key = Qt::Key_1;
    for (QAction* action : view->actions()) {
        if (action->isSeparator() || !action->shortcut().isEmpty() || key > Qt::Key_9)
            continue;
        action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(key++)));
    }
}

void MainWindow::diffWithSessionDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Diff With Session"), QString(),
                                                      tr("Stagecraft sessions (*.stagecraft)"));
    if (!path.isEmpty())
        diffWithSession(path);
}

bool MainWindow::diffWithSession(const QString& path) {
    if (!result_) {
        reportError(tr("Open a model before diffing with a session"));
        return false;
    }
    Expected<io::Session> other = io::loadSession(path.toStdString());
    if (!other.ok()) {
        reportError(QString::fromStdString(other.error().message()));
        return false;
    }
    analysis_->diffWithSession(*other, QFileInfo(path).fileName());
    return true;
}

} // namespace stagecraft::studio
