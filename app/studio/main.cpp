// stagecraft-studio: the desktop application. Parses the command line, offers
// the recovery of sessions lost to a crash, opens what the user named.

#include "graph/graph_view.h"
#include "studio/autosave.h"
#include "studio/main_window.h"
#include "studio/recovery_dialog.h"
#include "studio/screenshot.h"
#include "studio/studio_options.h"
#include "studio/tours.h"
#include "support/limits.h"
#include "sweeps/sweep_window.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

namespace {

using stagecraft::studio::MainWindow;

/// Without a display a screenshot renders offscreen.
void chooseOffscreenForScreenshots(int argc, char** argv) {
    bool screenshot = false;
    for (int i = 1; i < argc; ++i)
        screenshot = screenshot || std::string_view(argv[i]).starts_with("--screenshot");
    if (screenshot && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

/// --diff-with and --step, and --select in a window (a screenshot selects
/// before it shows its views), applied once the first result is shown.
void applyToolOptions(MainWindow& window, const stagecraft::studio::StudioOptions& options) {
    const bool select = !options.select.isEmpty() && options.screenshot.isEmpty();
    const bool kernelPane = options.kernelPane != QStringLiteral("loops");
    if (options.diffWith.isEmpty() && options.step == 0 && !select && !kernelPane)
        return;
    auto* once = new QObject(&window);
    QObject::connect(&window, &MainWindow::resultShown, once,
                     [&window, options, select, kernelPane, once] {
                         if (select)
                             window.selectNamed(options.select);
                         if (!options.diffWith.isEmpty())
                             window.diffWith(options.diffWith);
                         if (options.step > 0) {
                             window.showStep(options.step - 1);
                         }
                         if (kernelPane)
                             window.showKernelPane(options.kernelPane);
                         once->deleteLater();
                     });
}

/// One dialog for every session lost to a crash: recover one, discard
/// them all, or keep them for the next start.
void offerRecovery(MainWindow& window) {
    const QStringList orphans = stagecraft::studio::Autosave::orphans();
    if (orphans.isEmpty())
        return;
    stagecraft::studio::RecoveryDialog dialog(orphans, &window);
    if (dialog.exec() == QDialog::Accepted && !dialog.chosen().isEmpty())
        window.recoverSession(dialog.chosen());
}

/// --screenshot FILE without a model: the sweep window of --sweep DIR, or the
/// start page, once laid out at --size.
int shootWithoutModel(QWidget* widget, const stagecraft::studio::StudioOptions& options) {
    widget->resize(options.size);
    QTimer::singleShot(200, widget, [widget, &options] {
        if (!widget->grab().save(options.screenshot, "PNG")) {
            std::fprintf(stderr, "stagecraft-studio: %s: cannot write the screenshot\n",
                         qPrintable(options.screenshot));
            QCoreApplication::exit(1);
            return;
        }
        QCoreApplication::exit(0);
    });
    return QApplication::exec();
}

/// --sweep-axes on the sweep window; false, said on stderr, for a name that
/// is not one of its columns.
bool chooseSweepAxes(MainWindow& window, const QStringList& axes) {
    stagecraft::views::SweepWindow* sweep = window.sweepWindow();
    if (!sweep || sweep->setColumns(axes[0], axes[1], axes.value(2)))
        return true;
    std::fprintf(stderr,
                 "stagecraft-studio: --sweep-axes: '%s' are not columns of the sweep (x and y "
                 "take %s)\n",
                 qPrintable(axes.join(QLatin1Char(','))),
                 qPrintable(sweep->axisColumns().join(QStringLiteral(", "))));
    return false;
}

} // namespace

int main(int argc, char** argv) {
    // The command line is read before the application exists, so that
    // --help, --version and usage errors work without a display.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    QCoreApplication::setApplicationName(QStringLiteral("stagecraft-studio"));
    QCoreApplication::setOrganizationName(QStringLiteral("stagecraft"));
    QCoreApplication::setApplicationVersion(QStringLiteral(STAGECRAFT_VERSION));
    auto parsed = stagecraft::studio::parseStudioOptions(arguments);
    if (parsed.exitNow) {
        std::fputs(parsed.error.isEmpty() ? "stagecraft-studio " STAGECRAFT_VERSION "\n"
                                          : qPrintable(parsed.error),
                   stdout);
        return 0;
    }
    if (!parsed.options) {
        std::fprintf(stderr, "stagecraft-studio: %s\n", qPrintable(parsed.error));
        return 2;
    }
    if (stagecraft::Status cap = stagecraft::memoryCapSetting(); !cap.ok()) {
        std::fprintf(stderr, "stagecraft-studio: %s\n", cap.error().message().c_str());
        return 2;
    }
    chooseOffscreenForScreenshots(argc, argv);
    QApplication app(argc, argv);
    const auto& options = *parsed.options;
    MainWindow window;
    window.setDefaults(options.defaults);
    window.setSetupFixed(options.setupFixed);
    window.setBatchFixed(options.batchFixed);
    window.resize(options.size);
    bool screenshot = !options.screenshot.isEmpty();
    if (screenshot) {
        window.setInteractive(false);
        new stagecraft::studio::Screenshot(&window, options);
    }
    window.show();
    if (auto* graph = qobject_cast<stagecraft::views::GraphView*>(
            window.view(stagecraft::studio::StudioView::Graph))) {
        graph->setOverlay(*stagecraft::views::parseGroupOverlay(options.colorBy));
        graph->setFindText(options.find);
        graph->setFoldByName(options.drawByName);
    }
    if (options.sideBySide)
        window.showView(stagecraft::studio::StudioView::SideBySide);
    applyToolOptions(window, options);
    if (!screenshot)
        offerRecovery(window);
    // A screenshot's failure was printed by the Screenshot object. The
    // profile is checked against the model once it is open.
    if (!options.open.isEmpty() && !window.openPath(options.open) && screenshot)
        return 1;
    if (!options.tour.isEmpty()) {
        stagecraft::Expected<stagecraft::io::Tour> tour =
            stagecraft::studio::loadTour(options.tour);
        if (!tour.ok()) {
            std::fprintf(stderr, "stagecraft-studio: %s\n", tour.error().message().c_str());
            return 1;
        }
        if (!window.startTour(std::move(tour).value(), options.tourStep - 1) && screenshot)
            return 1;
    }
    if (!options.profile.isEmpty() && !window.openProfile(options.profile) && screenshot)
        return 1;
    if (!options.sweep.isEmpty() && !window.openSweep(options.sweep) && screenshot)
        return 1;
    if (!options.sweepAxes.isEmpty() && !chooseSweepAxes(window, options.sweepAxes) && screenshot)
        return 1;
    if (screenshot && options.open.isEmpty() && options.tour.isEmpty())
        return shootWithoutModel(
            window.sweepWindow() ? static_cast<QWidget*>(window.sweepWindow()) : &window, options);
    return QApplication::exec();
}
