// Guided tours in the main window: every step of every built-in tour opens,
// and what its narration names is on screen — the groups, the instances per
// group and the order its `expect` states, the algorithm step it goes to,
// the views it raises; Next and Back move through the steps; a user's tour
// file with a bad field is refused in one line.

#include "kernel/code_pane.h"
#include "kernel/kernel_view.h"
#include "stepper/stepper_view.h"
#include "studio/session_document.h"
#include "studio/tour_panel.h"
#include "studio/tours.h"
#include "studio_fixture.h"

#include <QDockWidget>
#include <QPushButton>
#include <QTemporaryDir>

#include <algorithm>
#include <map>

using namespace stagecraft;

namespace {

const char* dockOf(const std::string& view) {
    static const std::map<std::string, const char*> docks = {
        {"instances", "instancesDock"}, {"steps", "stepsDock"}, {"compare", "compareDock"},
        {"time", "timeDock"},           {"costs", "costsDock"}, {"inspector", "inspectorDock"},
        {"kernel", "kernelDock"}};
    auto it = docks.find(view);
    return it == docks.end() ? nullptr : it->second;
}

/// The step's `expect` against the result shown.
void checkExpect(const io::TourStep& step, const schedule::Schedule& s) {
    if (step.expect.groups)
        QCOMPARE(static_cast<int64_t>(s.groups.size()), *step.expect.groups);
    std::map<std::string, int64_t> perGroup;
    for (const schedule::Instance& instance : s.instances)
        ++perGroup[partition::Partition::label(instance.group)];
    for (const auto& [label, count] : step.expect.instances)
        QCOMPARE(perGroup[label], count);
    if (!step.expect.order.empty())
        QCOMPARE(QString::fromUtf8(schedule::orderKindName(s.orderKind)).toUpper(),
                 QString::fromStdString(step.expect.order));
}

/// The Kernel view shows the selected instance's kernel with the layers
/// the step's `expect` names.
void checkKernel(const io::TourStep& step, studio::MainWindow& window) {
    auto* view = window.findChild<views::KernelView*>();
    QVERIFY(view != nullptr);
    QTRY_VERIFY(view->kernelIndex() >= 0);
    if (!step.select.empty())
        QVERIFY2(view->kernelSymbol().endsWith(QStringLiteral("_") +
                                               QString::fromStdString(step.select)),
                 qPrintable(view->kernelSymbol()));
    if (step.expect.kernelLayers) {
        const QString loops = view->pane(views::KernelView::Pane::Loops)->toPlainText();
        QCOMPARE(static_cast<int64_t>(loops.count(QStringLiteral("\n# layer "))),
                 *step.expect.kernelLayers);
    }
}

} // namespace

class TestStudioTours : public QObject {
    Q_OBJECT

private slots:
    void everyBuiltInTourIsRead() {
        const std::vector<io::Tour> tours = studio::builtInTours();
        QVERIFY(!tours.empty());
        for (const io::Tour& tour : tours) {
            auto loaded = studio::loadTour(QString::fromStdString(tour.name));
            QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message().c_str());
        }
    }

    void everyStepShowsWhatItNames() {
        for (const io::Tour& tour : studio::builtInTours()) {
            studio::MainWindow window;
            window.setInteractive(false);
            window.resize(1400, 900);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.startTour(tour, 0));
            for (size_t i = 0; i < tour.steps.size(); ++i) {
                const io::TourStep& step = tour.steps[i];
                if (i > 0)
                    QVERIFY(window.goToTourStep(static_cast<int>(i)));
                QVERIFY2(test::waitForResult(window), step.title.c_str());
                QCOMPARE(window.tourPanel()->currentStep(), static_cast<int>(i));
                QVERIFY(!window.tourPanel()->narrationText().isEmpty());
                QCOMPARE(QString::fromStdString(window.document()->session().arch.name),
                         QString::fromStdString(step.arch));
                checkExpect(step, window.result()->eval.schedule);
                if (QTest::currentTestFailed())
                    return;
                if (step.algorithmStep > 0)
                    QCOMPARE(window.stepper()->currentStep(),
                             static_cast<int>(step.algorithmStep) - 1);
                for (const std::string& view : step.views) {
                    const char* dock = dockOf(view);
                    if (dock == nullptr)
                        continue;
                    auto* widget = window.findChild<QDockWidget*>(QLatin1String(dock));
                    QVERIFY2(widget && widget->isVisible(), dock);
                }
                const auto& views = step.views;
                if (std::find(views.begin(), views.end(), "kernel") != views.end())
                    checkKernel(step, window);
                if (QTest::currentTestFailed())
                    return;
            }
        }
    }

    void nextAndBackMoveThroughTheSteps() {
        studio::MainWindow window;
        window.setInteractive(false);
        auto tour = studio::loadTour(QStringLiteral("paper-figures"));
        QVERIFY(tour.ok());
        QVERIFY(window.startTour(*tour, 0));
        QVERIFY(test::waitForResult(window));
        auto* next = window.tourPanel()->findChild<QPushButton*>(QStringLiteral("tourNext"));
        auto* back = window.tourPanel()->findChild<QPushButton*>(QStringLiteral("tourBack"));
        QVERIFY(next && back && !back->isEnabled());
        next->click();
        QVERIFY(test::waitForResult(window));
        QCOMPARE(window.tourPanel()->currentStep(), 1);
        QVERIFY2(window.result()->modelPath.find("fig2-blocks") != std::string::npos,
                 window.result()->modelPath.c_str());
        back->click();
        QVERIFY(test::waitForResult(window));
        QCOMPARE(window.tourPanel()->currentStep(), 0);
        QVERIFY(!window.goToTourStep(99));
        QVERIFY(window.lastError().contains(QStringLiteral("there is no step 100")));
    }

    void aBadTourFileIsRefusedInOneLine() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mine.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": "stagecraft-tour", "version": 1, "name": "mine", "title": "M",
                      "steps": [{"title": "s", "model": "zoo:fig3-chain", "narration": "n",
                                 "views": ["graph", "charts"]}]})");
        file.close();
        auto tour = studio::loadTour(path);
        QVERIFY(!tour.ok());
        const QString message = QString::fromStdString(tour.error().message());
        QVERIFY2(message.startsWith(path + QStringLiteral(": steps[0].views[1]: unknown view "
                                                          "'charts'")),
                 qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('\n')));
        auto missing = studio::loadTour(QStringLiteral("no-such-tour"));
        QVERIFY(!missing.ok());
        QVERIFY(QString::fromStdString(missing.error().message())
                    .contains(QStringLiteral("paper-figures")));
    }
};

QTEST_MAIN(TestStudioTours)
#include "test_studio_tours.moc"
