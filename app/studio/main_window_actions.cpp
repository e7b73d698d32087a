// Menus, the tool bar and the status bar of the main window.

#include "dialogs/architecture_dialog.h"
#include "dialogs/batch_picker.h"
#include "dialogs/order_picker.h"
#include "dialogs/precision_picker.h"
#include "dialogs/strategy_picker.h"
#include "studio/help_windows.h"
#include "studio/main_window.h"
#include "studio/session_document.h"

#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

namespace stagecraft::studio {

namespace {

QString orderChoiceText(schedule::OrderChoice order) {
    switch (order) {
    case schedule::OrderChoice::BFS:
        return QStringLiteral("BFS");
    case schedule::OrderChoice::DFS:
        return QStringLiteral("DFS");
    case schedule::OrderChoice::Best:
        break;
    }
    return QStringLiteral("best");
}

/// Opens \p dialog, deleted when closed.
void openOwned(QDialog* dialog) {
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

/// "64, 16 per cluster, seq 128" for an undo entry.
QString batchChoiceText(const schedule::BatchChoice& batch, int64_t seq) {
    QString text = batch.total ? QString::number(*batch.total) : QStringLiteral("clusters × K");
    text += batch.autoPerCluster ? QStringLiteral(", auto per cluster")
            : batch.perCluster   ? QStringLiteral(", %1 per cluster").arg(*batch.perCluster)
                                 : QStringLiteral(", the model's per cluster");
    if (seq > 0)
        text += QStringLiteral(", seq %1").arg(seq);
    return text;
}

} // namespace

void MainWindow::createActions() {
    auto* toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    createFileMenu();
    createEditMenu();
    createViewMenu();
    createToolsMenu();
    toolBar->addAction(openAction_);
    toolBar->addAction(saveAction_);
    toolBar->addSeparator();
    toolBar->addAction(undoAction_);
    toolBar->addAction(redoAction_);
    toolBar->addSeparator();
    strategyPicker_ = new views::StrategyPicker(this);
    toolBar->addWidget(strategyPicker_);
    connect(strategyPicker_, &views::StrategyPicker::changed, this,
            [this](const QString& strategy, schedule::LevelChoice level) {
                io::Session next = document_->session();
                next.strategy = strategy.toStdString();
                next.level = level;
                tryChange(
                    tr("Strategy %1 at %2")
                        .arg(strategy, QString::fromUtf8(schedule::levelChoiceName(level).data())),
                    next);
            });
    orderPicker_ = new views::OrderPicker(this);
    toolBar->addWidget(orderPicker_);
    connect(orderPicker_, &views::OrderPicker::changed, this, [this](schedule::OrderChoice order) {
        io::Session next = document_->session();
        next.order = order;
        tryChange(tr("Order %1").arg(orderChoiceText(order)), next);
    });
    precisionPicker_ = new views::PrecisionPicker(this);
    toolBar->addWidget(precisionPicker_);
    connect(precisionPicker_, &views::PrecisionPicker::changed, this, [this] {
        io::Session next = document_->session();
        next.precision = precisionPicker_->precision();
        tryChange(tr("Precision %1")
                      .arg(next.precision ? QString::fromUtf8(ir::dtypeName(*next.precision))
                                          : tr("as the model")),
                  next);
    });
    createBatchBar();
    createHelpMenu();
}

void MainWindow::createBatchBar() {
    auto* batchBar = addToolBar(tr("Batch"));
    batchBar->setObjectName(QStringLiteral("batchToolBar"));
    batchPicker_ = new views::BatchPicker(this);
    batchBar->addWidget(batchPicker_);
    connect(batchPicker_, &views::BatchPicker::changed, this, [this] {
        io::Session next = document_->session();
        next.batch = batchPicker_->choice();
        next.seq = batchPicker_->seq();
        tryChange(tr("Batch %1").arg(batchChoiceText(next.batch, next.seq)), next);
    });
}

void MainWindow::createHelpMenu() {
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    help->addAction(tr("&Documentation"), this,
                    [this] { openOwned(new DocumentationDialog(this)); })
        ->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Keyboard Shortcuts"), this,
                    [this] { openOwned(new ShortcutsDialog(menuBar(), this)); })
        ->setShortcut(Qt::CTRL | Qt::Key_Slash);
    addToursMenu(help);
    help->addSeparator();
    help->addAction(tr("&About Stagecraft"), this, [this] {
        QMessageBox::about(this, tr("About Stagecraft"),
                           tr("<b>Stagecraft Studio %1</b><p>How a deep-learning model is "
                              "scheduled onto a domain-specific accelerator, after GraphTurbo "
                              "(OSDI '23).</p>")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::createFileMenu() {
    auto* file = menuBar()->addMenu(tr("&File"));
    openAction_ = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
    openAction_->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    updateRecentMenu();
    file->addSeparator();
    saveAction_ = file->addAction(tr("&Save Session"), this, [this] { save(); });
    saveAction_->setShortcut(QKeySequence::Save);
    auto* saveAs = file->addAction(tr("Save Session &As…"), this, &MainWindow::saveAsDialog);
    saveAs->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    createExportMenu(file);
    file->addAction(tr("Open &Profile…"), this, &MainWindow::openProfileDialog)
        ->setShortcut(Qt::CTRL | Qt::ALT | Qt::Key_P);
    file->addAction(tr("Open S&weep…"), this, &MainWindow::openSweepDialog)
        ->setShortcut(Qt::CTRL | Qt::ALT | Qt::Key_W);
    file->addAction(tr("E&mit Kernels…"), this, &MainWindow::emitKernelsDialog)
        ->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_K);
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(Qt::CTRL | Qt::Key_Q); // QKeySequence::Quit is empty on some platforms
}

void MainWindow::createEditMenu() {
    auto* edit = menuBar()->addMenu(tr("&Edit"));
    undoAction_ = document_->undoStack()->createUndoAction(this, tr("&Undo"));
    undoAction_->setShortcut(QKeySequence::Undo);
    redoAction_ = document_->undoStack()->createRedoAction(this, tr("&Redo"));
    redoAction_->setShortcut(QKeySequence::Redo);
    edit->addAction(undoAction_);
    edit->addAction(redoAction_);
    edit->addSeparator();
    edit->addAction(tr("&Architecture…"), this, &MainWindow::editArchitecture)
        ->setShortcut(Qt::CTRL | Qt::Key_R);
    edit->addAction(tr("Bind &Dimensions…"), this, &MainWindow::bindDims)
        ->setShortcut(Qt::CTRL | Qt::Key_D);
}

void MainWindow::createViewMenu() {
    auto* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    const auto docks = findChildren<QDockWidget*>();
    for (QDockWidget* dock : docks)
        view->addAction(dock->toggleViewAction());
}

void MainWindow::createStatusBar() {
    stepLabel_ = new QLabel(this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 100);
    progress_->setMaximumWidth(160);
    cancel_ = new QToolButton(this);
    cancel_->setText(tr("Cancel"));
    connect(cancel_, &QToolButton::clicked, runner_, &PipelineRunner::cancel);
    figures_ = new QLabel(this);
    figures_->setObjectName(QStringLiteral("figures"));
    statusBar()->addWidget(stepLabel_);
    statusBar()->addWidget(progress_);
    statusBar()->addWidget(cancel_);
    statusBar()->addPermanentWidget(figures_);
    hideProgress();
}

void MainWindow::hideProgress() {
    stepLabel_->clear();
    progress_->hide();
    cancel_->hide();
}

void MainWindow::updateTitle() {
    QString name =
        document_->filePath().isEmpty()
            ? QFileInfo(QString::fromStdString(document_->session().modelPath)).fileName()
            : QFileInfo(document_->filePath()).fileName();
    if (name.isEmpty())
        name = tr("No model");
    setWindowTitle(name + (document_->isModified() ? QStringLiteral(" *") : QString()) +
                   QStringLiteral(" — Stagecraft Studio"));
}

void MainWindow::editArchitecture() {
    if (!document_->hasModel())
        return;
    views::ArchitectureDialog dialog(document_->session().arch, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    io::Session next = document_->session();
    next.arch = dialog.architecture();
    tryChange(tr("Architecture %1").arg(QString::fromStdString(next.arch.name)), next);
}

} // namespace stagecraft::studio
