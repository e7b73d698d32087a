// The step-through in the main window: a step of §4.3 (a kernel's liveness,
// a spill) brings the Timeline dock, with its occupancy plots, to the front;
// the other steps leave the docks as they are.

#include "stepper/stepper_view.h"
#include "studio_fixture.h"

#include <QDockWidget>
#include <QTabBar>

using namespace stagecraft;

namespace {

/// Whether \p dock is the tab in front of the docks tabbed with it.
bool inFront(studio::MainWindow& window, QDockWidget* dock) {
    for (QTabBar* bar : window.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == dock->windowTitle())
                return bar->currentIndex() == i;
    return false;
}

} // namespace

class TestStudioSteps : public QObject {
    Q_OBJECT

private slots:
    void memoryStepsBringTheOccupancyForward() {
        QTemporaryDir dir;
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("teaching"));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openModel(test::writeZooModel(dir, "fig3-chain")));
        QVERIFY(test::waitForResult(window));
        window.showView(studio::StudioView::Steps);
        auto* time = window.findChild<QDockWidget*>(QStringLiteral("timeDock"));
        QVERIFY(time && !inFront(window, time)); // the instances are in front
        views::StepperView* stepper = window.stepper();
        int firstMemory = -1;
        for (int i = 0; i < stepper->stepCount() && firstMemory < 0; ++i)
            if (stepper->stepAt(i)->kind == views::StepKind::Liveness)
                firstMemory = i;
        QVERIFY(firstMemory > 0);
        window.showStep(firstMemory - 1); // Algorithm 4: nothing moves
        QVERIFY(!inFront(window, time));
        window.showStep(firstMemory);
        QTRY_VERIFY(inFront(window, time));
    }
};

QTEST_MAIN(TestStudioSteps)
#include "test_studio_steps.moc"
