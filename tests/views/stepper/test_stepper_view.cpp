// The step-through panel as a student meets it on fig3-chain (teaching):
// stepping through Algorithm 3 shows the visit/ready/order lists of the
// paper's Fig. 7b-e in the three rows and ends with the order of Fig. 7f,
// back-stepping restores them, play advances on a timer, the keys work, and
// the highlights follow the current step and go away with the panel.

#include "result_fixture.h"
#include "stepper/stepper_view.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QToolButton>
#include <QtTest>

using namespace stagecraft;
using namespace stagecraft::views;

namespace {

struct Lists {
    const char* visit;
    const char* ready;
    const char* order;
};

// Fig. 7b-e of the paper, written from its text. The figure draws b4 and c2
// apart from the rest of ready, and the order list growing to the left;
// §3.3 reads order left to right ("order is inspected from left to right").
const Lists kFigure7[] = {
    {"b1 b2 b3 b4 c1 c2 d1", "a1 a2 a3 a4 a5 a6 a7 a8", ""}, // (b) the first step
    {"b1 b2 b3 c1 c2 d1", "a1 a2 a3 a4 a5 a6 a7 b4", "a8"},  // (c) the second step
    {"b1 b2 b3 c1 c2 d1", "a1 a2 a3 a4 a5 a6 b4", "a8 a7"},  // (d) the third step
    {"b1 b2 b3 c1 d1", "a1 a2 a3 a4 a5 a6 c2", "a8 a7 b4"},  // (e) the fourth step
};
// (f) the schedule order of DFS.
const char* kFigure7f = "a8 a7 b4 a6 a5 b3 c2 a4 a3 b2 a2 a1 b1 c1 d1";

QStringList words(const char* text) {
    return QString::fromUtf8(text).split(u' ', Qt::SkipEmptyParts);
}

QStringList row(const StepperView& view, const char* name) {
    auto* label = view.findChild<QLabel*>(QString::fromLatin1(name));
    if (!label)
        qFatal("no label %s", name);
    return label->text().split(u' ', Qt::SkipEmptyParts);
}

void compareRows(const StepperView& view, const Lists& expected) {
    QCOMPARE(row(view, "visitList"), words(expected.visit));
    QCOMPARE(row(view, "readyList"), words(expected.ready));
    QCOMPARE(row(view, "orderList"), words(expected.order));
}

void click(const StepperView& view, const char* button) {
    auto* b = view.findChild<QToolButton*>(QString::fromLatin1(button));
    QVERIFY(b);
    QTest::mouseClick(b, Qt::LeftButton);
}

void chooseFilter(const StepperView& view, StepFilter filter) {
    auto* combo = view.findChild<QComboBox*>(QStringLiteral("filterCombo"));
    QVERIFY(combo);
    combo->setCurrentIndex(combo->findData(int(filter)));
}

ResultPtr fig3Chain() {
    test::ResultSpec spec;
    spec.zoo = "fig3-chain";
    spec.arch = "teaching";
    return test::resultFor(spec);
}

} // namespace

class TestStepperView : public QObject {
    Q_OBJECT
    ResultPtr result;

private slots:
    void initTestCase() { result = fig3Chain(); }

    void algorithm3ShowsFigure7ListsStepByStep() {
        StepperView view;
        view.setResult(result);
        chooseFilter(view, StepFilter::Ordering);
        QCOMPARE(view.currentStep(), 0);
        // The first ready instances, one step per instance ordered, the order kept.
        QCOMPARE(view.stepCount(), int(result->eval.schedule.instances.size()) + 2);
        QVERIFY(view.findChild<QWidget*>(QStringLiteral("orderLists"))->isVisibleTo(&view));
        for (int i = 0; i < 4; ++i) {
            compareRows(view, kFigure7[i]);
            click(view, "forwardButton");
            QCOMPARE(view.currentStep(), i + 1);
        }
        click(view, "lastButton");
        QCOMPARE(row(view, "orderList"), words(kFigure7f));
        QCOMPARE(row(view, "visitList"), QStringList());
        QCOMPARE(row(view, "readyList"), QStringList());
        QCOMPARE(view.findChild<QLabel*>(QStringLiteral("stepCounter"))->text(),
                 QStringLiteral("Step %1 of %1").arg(view.stepCount()));
    }

    void steppingBackRestoresTheLists() {
        StepperView view;
        view.setResult(result);
        view.setFilter(StepFilter::Ordering);
        view.goToStep(3);
        compareRows(view, kFigure7[3]);
        for (int i = 2; i >= 0; --i) {
            click(view, "backButton");
            compareRows(view, kFigure7[i]);
        }
        view.stepBack(); // stays on the first step
        QCOMPARE(view.currentStep(), 0);
        compareRows(view, kFigure7[0]);
    }

    void playAdvancesOnATimer() {
        StepperView view;
        view.setResult(result);
        view.setFilter(StepFilter::Ordering);
        view.setInterval(5);
        QSignalSpy steps(&view, &StepperView::stepChanged);
        click(view, "playButton");
        QVERIFY(view.isPlaying());
        QTRY_COMPARE(view.currentStep(), view.stepCount() - 1);
        QTRY_VERIFY(!view.isPlaying()); // stops at the last step
        QCOMPARE(steps.size(), view.stepCount() - 1);
        QCOMPARE(row(view, "orderList"), words(kFigure7f));
    }

    void keysStepAndPlay() {
        StepperView view;
        view.setResult(result);
        QTest::keyClick(&view, Qt::Key_Right);
        QTest::keyClick(&view, Qt::Key_Right);
        QCOMPARE(view.currentStep(), 2);
        QTest::keyClick(&view, Qt::Key_Left);
        QCOMPARE(view.currentStep(), 1);
        view.setInterval(60000);
        QTest::keyClick(&view, Qt::Key_Space);
        QVERIFY(view.isPlaying());
        QTest::keyClick(&view, Qt::Key_Space);
        QVERIFY(!view.isPlaying());
    }

    void sliderAndCounterFollowTheStep() {
        StepperView view;
        view.setResult(result);
        auto* slider = view.findChild<QSlider*>(QStringLiteral("stepSlider"));
        QCOMPARE(slider->maximum(), int(view.allSteps().size()) - 1);
        slider->setValue(5);
        QCOMPARE(view.currentStep(), 5);
        QCOMPARE(view.findChild<QLabel*>(QStringLiteral("stepCounter"))->text(),
                 QStringLiteral("Step 6 of %1").arg(view.allSteps().size()));
    }

    void filterKeepsOneAlgorithmAndTheCurrentStep() {
        StepperView view;
        view.setResult(result);
        chooseFilter(view, StepFilter::Memory);
        int memory = 0;
        for (const AlgorithmStep& step : view.allSteps())
            memory += step.kind == StepKind::Liveness || step.kind == StepKind::Spill;
        QCOMPARE(view.stepCount(), memory);
        QCOMPARE(memory, int(result->eval.program.kernels.size()) + 14); // 14 spills at LB
        view.goToStep(1);
        const AlgorithmStep* shown = view.stepAt(1);
        QCOMPARE(shown->kind, StepKind::Spill);
        auto* explanation = view.findChild<QLabel*>(QStringLiteral("explanation"));
        QCOMPARE(explanation->text(), shown->explanation);
        QVERIFY(explanation->text().startsWith(QStringLiteral("§4.3")));
        QVERIFY(!view.findChild<QWidget*>(QStringLiteral("orderLists"))->isVisibleTo(&view));
        chooseFilter(view, StepFilter::All); // the same step, now among all of them
        QCOMPARE(view.stepAt(view.currentStep()), shown);
    }

    void highlightsFollowTheStepAndLeaveWithThePanel() {
        HighlightModel model;
        StepperView view;
        view.setHighlightModel(&model);
        view.setResult(result);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.goToStep(2);
        const AlgorithmStep* step = view.stepAt(2);
        QCOMPARE(model.current().ops, step->highlights.ops);
        QCOMPARE(model.current().caption,
                 QStringLiteral("Step 3/%1: ").arg(view.stepCount()) + step->title);
        view.hide();
        QVERIFY(model.current().empty());
        view.show();
        QCOMPARE(model.current().ops, step->highlights.ops);
        view.setResult(nullptr);
        QVERIFY(model.current().empty());
        QCOMPARE(view.currentStep(), -1);
    }

    void anotherToolsHighlightsAreLeftAlone() {
        HighlightModel model;
        StepperView view;
        view.setHighlightModel(&model);
        view.setResult(result);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        Highlights diff;
        diff.groups = {1};
        diff.caption = QStringLiteral("diff");
        model.set(diff);
        view.hide();
        QCOMPARE(model.current(), diff);
    }

    void orderStepsHighlightTheInstanceJustOrdered() {
        HighlightModel model;
        StepperView view;
        view.setHighlightModel(&model);
        view.setResult(result);
        view.setFilter(StepFilter::Ordering);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const schedule::Schedule& s = result->eval.schedule;
        // Each step but the first (the first ready) and the last (the order kept).
        for (int i = 1; i + 1 < view.stepCount(); ++i) {
            view.goToStep(i);
            QVERIFY(!model.current().instances.empty());
            // The first highlighted instance is the one step i put in order.
            schedule::InstanceId ordered = s.order[static_cast<size_t>(i - 1)];
            QCOMPARE(model.current().instances.front(), ordered.value());
        }
    }
};

QTEST_MAIN(TestStepperView)
#include "test_stepper_view.moc"
