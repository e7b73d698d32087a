// The timeline view as a user meets it: hovering a bar names its op and
// instance, clicking selects them and pins the task with its dependency
// arrows, a unit lane's label expands it into a lane per core, Shift+drag
// sums a range, clicking empty space clears, a selection made elsewhere
// repaints the emphasized bars, wheel zoom keeps the time under the cursor
// on the shared axis, and two views on one axis follow.

#include "timeline/timeline_view.h"
#include "timeline_fixture.h"

#include <QHelpEvent>
#include <QImage>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include <memory>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace Qt::StringLiterals;

namespace {

/// The widest bar of the view's timeline on a visible lane, and where it is.
struct Target {
    BarRef ref;
    QPoint pos;
};

Target widestBar(const TimelineView& view) {
    const TimelineData& data = *view.timeline();
    const TimeAxis& axis = view.timeAxisModel()->axis();
    Target best;
    double widest = 0;
    for (int32_t lane = 0; lane < data.laneCount(); ++lane) {
        if (view.laneRect(lane).bottom() >= view.viewport()->height())
            continue;
        for (size_t i = 0; i < data.lane(lane).bars.size(); ++i) {
            const TimelineBar& bar = data.lane(lane).bars[i];
            if (bar.instance != schedule::kNoInstance && bar.duration() > widest) {
                widest = bar.duration();
                const double x = axis.toPixel((bar.start + bar.end) / 2);
                best = {{lane, static_cast<int32_t>(i)},
                        QPoint(TimelineGeometry::kLabelWidth + static_cast<int>(x),
                               view.laneRect(lane).center().y())};
            }
        }
    }
    return best;
}

/// A point of a lane with no bar within 10 px, if any.
std::optional<QPoint> emptyPoint(const TimelineView& view) {
    const TimelineData& data = *view.timeline();
    const TimeAxis& axis = view.timeAxisModel()->axis();
    for (int32_t lane = 0; lane < data.laneCount(); ++lane) {
        for (int x = 5; x < view.plotWidth(); x += 5) {
            const double t = axis.toTime(x);
            if (data.intersecting(lane, t - 10 * axis.nsPerPixel, t + 10 * axis.nsPerPixel).empty())
                return QPoint(TimelineGeometry::kLabelWidth + x, view.laneRect(lane).center().y());
        }
    }
    return std::nullopt;
}

void wheel(QWidget* target, const QPoint& pos, int notches) {
    QWheelEvent event(pos, target->mapToGlobal(pos), QPoint(), QPoint(0, 120 * notches),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { result_ = test::timelineResult("fig3-chain", 0, "teaching"); }
    void init() {
        view_ = std::make_unique<TimelineView>();
        view_->resize(1000, 400);
        view_->setSelectionModel(&selection_);
        view_->setResult(result_);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
        selection_.clear();
    }
    void cleanup() { view_.reset(); }

    void fitsTheRunOnShow() {
        const TimeAxis& axis = view_->timeAxisModel()->axis();
        QCOMPARE(axis.startNs, 0.0);
        QVERIFY(qAbs(axis.endNs(view_->plotWidth()) - result_->eval.sim.makespanNs) < 1e-6);
    }

    void hoverNamesOpAndInstance() {
        const Target target = widestBar(*view_);
        const TimelineBar& bar = view_->timeline()->bar(target.ref);
        const kernel::Task& task = result_->eval.tasks.tasks[bar.task];
        const auto& kern = result_->eval.program.kernels[static_cast<size_t>(task.kernel)];
        const auto& instance = result_->eval.schedule.instances[kern.instance];
        const QString text = view_->toolTipAt(target.pos);
        QVERIFY2(text.contains(QString::fromStdString(instance.label)), qPrintable(text));
        if (task.op != ir::kNoOp)
            QVERIFY(text.contains(QString::fromStdString(result_->graph->op(task.op).name)));
        QHelpEvent help(QEvent::ToolTip, target.pos, view_->viewport()->mapToGlobal(target.pos));
        QApplication::sendEvent(view_->viewport(), &help);
        QTRY_COMPARE(QToolTip::text(), text);
    }

    void clickSelectsInstanceAndOp() {
        const Target target = widestBar(*view_);
        const TimelineBar& bar = view_->timeline()->bar(target.ref);
        const kernel::Task& task = result_->eval.tasks.tasks[bar.task];
        const auto instance =
            result_->eval.program.kernels[static_cast<size_t>(task.kernel)].instance;
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, {}, target.pos);
        QCOMPARE(selection_.current(),
                 (Selection{Selection::Kind::Instance, instance.value(), task.op.value()}));
    }

    void clickPinsATaskWithItsDependencyArrows() {
        const Target target = widestBar(*view_);
        const kernel::TaskId task = view_->timeline()->bar(target.ref).task;
        const QImage before = view_->grab().toImage();
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, {}, target.pos);
        QCOMPARE(view_->pinnedTask(), task);
        // The arrows are the task graph's edges at the pinned task, both ways.
        const kernel::TaskGraph& graph = result_->eval.tasks;
        std::vector<kernel::TaskId> deps;
        std::vector<kernel::TaskId> successors;
        for (kernel::TaskId t : graph.tasks.ids())
            for (int32_t d = graph.tasks[t].depBegin; d < graph.tasks[t].depEnd; ++d) {
                if (t == task)
                    deps.push_back(graph.deps[static_cast<size_t>(d)]);
                if (graph.deps[static_cast<size_t>(d)] == task)
                    successors.push_back(t);
            }
        QCOMPARE(view_->pinnedDeps(), deps);
        QCOMPARE(view_->pinnedSuccessors(), successors);
        QVERIFY(!deps.empty() || !successors.empty());
        QVERIFY(view_->grab().toImage() != before);
        QTest::keyClick(view_.get(), Qt::Key_Escape);
        QCOMPARE(view_->pinnedTask(), kernel::kNoTask);
        QVERIFY(view_->pinnedDeps().empty() && view_->pinnedSuccessors().empty());
    }

    void aUnitLaneExpandsIntoALanePerCore() {
        const TimelineData& before = *view_->timeline();
        int32_t unit = -1;
        for (int32_t l = 0; l < before.laneCount() && unit < 0; ++l)
            if (before.lane(l).expandable && !before.lane(l).bars.empty())
                unit = l;
        QVERIFY(unit >= 0);
        const TimelineLane lane = before.lane(unit);
        const int32_t lanes = before.laneCount();
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, {},
                          QPoint(20, view_->laneRect(unit).center().y()));
        QVERIFY(view_->isLaneExpanded(lane.resource));
        const TimelineData& after = *view_->timeline();
        const int32_t cores = static_cast<int32_t>(result_->arch.cluster.coreGroups[0].count);
        QCOMPARE(after.laneCount(), lanes + cores);
        // Core c's lane holds the unit's bars whose task runs on core c;
        // together they hold every bar of the unit.
        size_t placed = 0;
        for (int32_t c = 0; c < cores; ++c) {
            const TimelineLane& core = after.lane(unit + 1 + c);
            QCOMPARE(core.core, c);
            QVERIFY(QString::fromStdString(core.name).contains(u"core %1 "_s.arg(c)));
            size_t expected = 0;
            for (const TimelineBar& bar : lane.bars) {
                const kernel::Task& task = result_->eval.tasks.tasks[bar.task];
                expected += task.firstCore <= c && c < task.firstCore + task.cores ? 1 : 0;
            }
            QCOMPARE(core.bars.size(), expected);
            placed += core.bars.size();
        }
        QVERIFY(placed >= lane.bars.size());
        view_->setLaneExpanded(lane.resource, false);
        QCOMPARE(view_->timeline()->laneCount(), lanes);
    }

    void shiftDragSumsARange() {
        const int left = TimelineGeometry::kLabelWidth + static_cast<int>(view_->plotWidth() / 4);
        const int right =
            TimelineGeometry::kLabelWidth + static_cast<int>(view_->plotWidth() * 3 / 4);
        const int y = view_->laneRect(0).center().y();
        QTest::mousePress(view_->viewport(), Qt::LeftButton, Qt::ShiftModifier, QPoint(left, y));
        QMouseEvent move(QEvent::MouseMove, QPointF(right, y),
                         view_->viewport()->mapToGlobal(QPointF(right, y)), Qt::NoButton,
                         Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(view_->viewport(), &move);
        QTest::mouseRelease(view_->viewport(), Qt::LeftButton, Qt::ShiftModifier, QPoint(right, y));
        QVERIFY(view_->range().has_value());
        const RangeSummary& range = *view_->range();
        const TimeAxis& axis = view_->timeAxisModel()->axis();
        QVERIFY(qAbs(range.startNs - axis.toTime(left - TimelineGeometry::kLabelWidth)) < 1e-6);
        QVERIFY(qAbs(range.endNs - axis.toTime(right - TimelineGeometry::kLabelWidth)) < 1e-6);
        // Compute time in the range, summed by brute force over the unit lanes.
        double compute = 0;
        for (const TimelineLane& lane : view_->timeline()->lanes())
            if (lane.kind == LaneKind::Unit)
                for (const TimelineBar& bar : lane.bars)
                    compute += std::max(0.0, std::min(bar.end, range.endNs) -
                                                 std::max(bar.start, range.startNs));
        QVERIFY(compute > 0);
        QVERIFY(qAbs(range.computeNs - compute) < 1e-6 * compute);
        QVERIFY(range.tasks > 0);
        QTest::keyClick(view_.get(), Qt::Key_Escape);
        QVERIFY(!view_->range().has_value());
    }

    void clickOnEmptySpaceClears() {
        selection_.select({Selection::Kind::Group, 0, -1});
        const std::optional<QPoint> empty = emptyPoint(*view_);
        QVERIFY(empty.has_value());
        QVERIFY(!view_->barAt(*empty).has_value());
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, {}, *empty);
        QCOMPARE(selection_.current().kind, Selection::Kind::None);
    }

    void externalSelectionRepaints() {
        const QImage before = view_->grab().toImage();
        QCOMPARE(view_->lastPaintStats().emphasized, 0);
        const schedule::InstanceId instance = result_->eval.schedule.order.back();
        selection_.select({Selection::Kind::Instance, instance.value(), -1});
        size_t expected = 0;
        for (const TimelineLane& lane : view_->timeline()->lanes())
            for (const TimelineBar& bar : lane.bars)
                expected += bar.instance == instance ? 1 : 0;
        QVERIFY(expected > 0);
        QCOMPARE(view_->emphasizedBarCount(), expected);
        const QImage after = view_->grab().toImage();
        QVERIFY(after != before);
        QVERIFY(view_->lastPaintStats().emphasized > 0);
        selection_.clear();
        QCOMPARE(view_->emphasizedBarCount(), size_t(0));
    }

    void groupSelectionEmphasizesItsInstances() {
        const schedule::GroupId group = result_->eval.schedule.instances.front().group;
        selection_.select({Selection::Kind::Group, group.value(), -1});
        size_t expected = 0;
        for (const sim::Event& event : result_->eval.sim.events) {
            const auto& task = result_->eval.tasks.tasks[event.task];
            const auto instance =
                result_->eval.program.kernels[static_cast<size_t>(task.kernel)].instance;
            expected += result_->eval.schedule.instances[instance].group == group ? 1 : 0;
        }
        QCOMPARE(view_->emphasizedBarCount(), expected);
    }

    void wheelZoomKeepsTheTimeUnderTheCursor() {
        TimeAxisModel shared;
        view_->setTimeAxisModel(&shared);
        const TimeAxis before = shared.axis();
        const QPoint pos(TimelineGeometry::kLabelWidth + 300, view_->laneRect(1).center().y());
        const double anchor = before.toTime(300);
        wheel(view_->viewport(), pos, 2);
        const TimeAxis after = shared.axis();
        QVERIFY(qAbs(after.nsPerPixel - before.nsPerPixel / 1.5625) < 1e-9 * before.nsPerPixel);
        QVERIFY(qAbs(after.toTime(300) - anchor) < 1e-6 * before.nsPerPixel);
        wheel(view_->viewport(), pos, -10); // back out: clamped to the whole run
        QCOMPARE(shared.axis().startNs, 0.0);
        QVERIFY(qAbs(shared.axis().nsPerPixel - before.nsPerPixel) < 1e-9 * before.nsPerPixel);
    }

    void twoViewsShareOneAxis() {
        TimeAxisModel shared;
        view_->setTimeAxisModel(&shared);
        TimelineView other;
        other.resize(view_->size());
        other.setTimeAxisModel(&shared);
        other.setResult(result_);
        other.show();
        QVERIFY(QTest::qWaitForWindowExposed(&other));
        const QImage otherBefore = other.grab().toImage();
        const QPoint pos(TimelineGeometry::kLabelWidth + 100, view_->laneRect(0).center().y());
        wheel(view_->viewport(), pos, 4);
        const TimeAxis zoomed = shared.axis();
        QVERIFY(other.grab().toImage() != otherBefore);
        // Drag the first view left by 80 px: the content moves, both views follow.
        QTest::mousePress(view_->viewport(), Qt::LeftButton, {}, pos);
        QMouseEvent move(QEvent::MouseMove, pos - QPoint(80, 0),
                         view_->viewport()->mapToGlobal(pos - QPoint(80, 0)), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view_->viewport(), &move);
        QTest::mouseRelease(view_->viewport(), Qt::LeftButton, {}, pos - QPoint(80, 0));
        QVERIFY(qAbs(shared.axis().startNs - (zoomed.startNs + 80 * zoomed.nsPerPixel)) <
                1e-6 * zoomed.nsPerPixel);
        QCOMPARE(selection_.current().kind, Selection::Kind::None); // a drag is no click
        QCOMPARE(other.timeAxisModel(), &shared);
    }

    void exportsPng() {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"timeline.png"_s);
        QString error;
        QVERIFY2(view_->exportPng(path, &error), qPrintable(error));
        const QImage image(path);
        QCOMPARE(image.width(), view_->viewport()->width());
        QCOMPARE(image.height(),
                 TimelineGeometry::kRulerHeight +
                     view_->timeline()->laneCount() * TimelineGeometry::kLaneHeight);
        TimelineView empty;
        QVERIFY(!empty.exportPng(path, &error));
        QVERIFY(!error.isEmpty());
    }

private:
    ResultPtr result_;
    SelectionModel selection_;
    std::unique_ptr<TimelineView> view_;
};

QTEST_MAIN(TestTimelineView)
#include "test_timeline_view.moc"
