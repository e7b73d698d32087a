// The analysis docks inside the real main window: a timeline click selects
// the instance and op in every view, a compared strategy is shown at once as
// one undoable change, the diff with tvm marks the regrouped ops in the graph
// and instance views, the step-through's highlights reach the graph, and
// every common action has its own shortcut.

#include "codegen/profile.h"
#include "common/highlight.h"
#include "common/selection.h"
#include "compare/comparison_model.h"
#include "compare/comparison_runner.h"
#include "compare/comparison_view.h"
#include "compare/diff_view.h"
#include "costs/cost_table_model.h"
#include "costs/cost_table_view.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/overlay_legend.h"
#include "inspector/schedule_queries.h"
#include "instances/instance_canvas.h"
#include "instances/instance_view.h"
#include "stepper/algorithm_steps.h"
#include "stepper/stepper_view.h"
#include "studio/session_document.h"
#include "studio_fixture.h"
#include "timeline/timeline_data.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_view.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>

#include <set>

using namespace stagecraft;
using namespace stagecraft::views;

namespace {

template <typename View>
View* viewOf(studio::MainWindow& window, studio::StudioView view) {
    return qobject_cast<View*>(window.view(view));
}

/// Where the longest bar of an instance sits in \p view, if one is on screen.
std::optional<std::pair<QPoint, TimelineBar>> someBar(const TimelineView& view) {
    const TimelineData& data = *view.timeline();
    const TimeAxis& axis = view.timeAxisModel()->axis();
    std::optional<std::pair<QPoint, TimelineBar>> best;
    for (int32_t lane = 0; lane < data.laneCount(); ++lane) {
        if (view.laneRect(lane).bottom() >= view.viewport()->height())
            continue;
        for (const TimelineBar& bar : data.lane(lane).bars) {
            if (bar.instance == schedule::kNoInstance || bar.op < 0 ||
                (best && best->second.duration() >= bar.duration()))
                continue;
            const double x = axis.toPixel((bar.start + bar.end) / 2);
            best = {{QPoint(TimelineGeometry::kLabelWidth + static_cast<int>(x),
                            view.laneRect(lane).center().y()),
                     bar}};
        }
    }
    return best;
}

std::vector<schedule::InstanceId> flagged(const IdVector<schedule::InstanceId, char>& flags) {
    std::vector<schedule::InstanceId> ids;
    for (schedule::InstanceId i : flags.ids())
        if (flags[i])
            ids.push_back(i);
    return ids;
}

} // namespace

class TestStudioTools : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        fig3_ = test::writeZooModel(dir_, "fig3-chain");
        resnet_ = test::writeZooModel(dir_, "resnet50", 1);
    }

    void init() {
        window_ = std::make_unique<studio::MainWindow>();
        window_->setInteractive(false);
        window_->resize(1400, 1000);
        window_->show();
    }
    void cleanup() { window_.reset(); }

    void everyViewIsFoundByItsName() {
        QStringList names;
        for (studio::StudioView view : studio::studioViews()) {
            const QString name = studio::studioViewName(view);
            QCOMPARE(studio::parseStudioView(name), std::optional(view));
            // The side-by-side window is made when first shown.
            if (view == studio::StudioView::SideBySide) {
                QVERIFY(!window_->view(view));
                window_->showView(view);
                QVERIFY(window_->view(view) && window_->view(view)->isWindow());
                window_->view(view)->close();
            }
            QVERIFY2(window_->view(view) != nullptr, qPrintable(name));
            names << name;
        }
        QCOMPARE(names, studio::studioViewNames());
        QCOMPARE(names.size(), 15);
        QCOMPARE(window_->view(studio::StudioView::Window), window_.get());
        QVERIFY(!studio::parseStudioView(QStringLiteral("Graph")));
        QVERIFY(!studio::parseStudioView(QString()));
    }

    void timelineClickSelectsInstanceAndOpEverywhere() {
        open(fig3_, "teaching");
        window_->showView(studio::StudioView::Timeline);
        auto* timeline = viewOf<TimelineView>(*window_, studio::StudioView::Timeline);
        QVERIFY(timeline);
        QTRY_VERIFY(timeline->isVisible() && timeline->timeline());
        auto target = someBar(*timeline);
        QVERIFY(target);
        QTest::mouseClick(timeline->viewport(), Qt::LeftButton, {}, target->first);
        const Selection& selected = window_->selection()->current();
        QCOMPARE(selected.kind, Selection::Kind::Instance);
        QCOMPARE(selected.id, target->second.instance.value());
        QCOMPARE(selected.op, static_cast<int32_t>(target->second.op));
        // The graph marks the op itself, the instance view the instance.
        auto* graph = viewOf<GraphView>(*window_, studio::StudioView::Graph);
        QTRY_VERIFY(!graph->isLayingOut());
        QVERIFY(graph->scene()->opItem(ir::OpId(target->second.op))->isHighlighted());
        auto* instances = viewOf<InstanceView>(*window_, studio::StudioView::Instances);
        QCOMPARE(flagged(instances->canvas()->paintOptions().highlighted),
                 std::vector<schedule::InstanceId>{target->second.instance});
    }

    void selectNamedFindsAnOpOrAnInstanceAndNamesAMiss() {
        open(fig3_, "teaching");
        QVERIFY(window_->selectNamed(QStringLiteral("a3")));
        const Selection& instance = window_->selection()->current();
        QCOMPARE(instance.kind, Selection::Kind::Instance);
        QCOMPARE(
            window_->result()->eval.schedule.instances[schedule::InstanceId(instance.id)].label,
            std::string("a3"));
        const ir::Graph& graph = *window_->result()->graph;
        const std::string& opName = graph.op(ir::OpId(0)).name;
        QVERIFY(window_->selectNamed(QString::fromStdString(opName)));
        QCOMPARE(window_->selection()->current().kind, Selection::Kind::Op);
        QCOMPARE(window_->selection()->current().id, 0);
        QSignalSpy failed(window_.get(), &studio::MainWindow::failed);
        QVERIFY(!window_->selectNamed(QStringLiteral("nosuch")));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(window_->lastError(),
                 QStringLiteral("--select: no op or instance named 'nosuch'"));
        // A miss leaves the selection as it was.
        QCOMPARE(window_->selection()->current().kind, Selection::Kind::Op);
    }

    void choosingAComparedStrategyIsOneUndoableChange() {
        open(fig3_, "teaching");
        window_->showView(studio::StudioView::Compare);
        auto* compare = viewOf<ComparisonView>(*window_, studio::StudioView::Compare);
        QVERIFY(compare);
        ComparisonRunner* runner = window_->comparisonRunner();
        QTRY_VERIFY_WITH_TIMEOUT(!runner->isBusy() && runner->result(QStringLiteral("tvm")), 60000);
        const ResultPtr tvm = runner->result(QStringLiteral("tvm"));
        const int runs = runner->runCount();
        QUndoStack* undo = window_->document()->undoStack();
        const int commands = undo->count();
        const int row = compare->model()->rowOf(QStringLiteral("tvm"));
        QTableView* table = compare->table();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(compare->model()->index(row, 0)).center());
        // Shown at once: the kept result itself, no pipeline run.
        QCOMPARE(window_->result(), tvm);
        QVERIFY(window_->viewsSettled() || !window_->document()->session().strategy.empty());
        QCOMPARE(window_->document()->session().strategy, std::string("tvm"));
        QCOMPARE(undo->count(), commands + 1);
        QCOMPARE(runner->runCount(), runs);
        undo->undo();
        QVERIFY(test::waitForResult(*window_));
        QTRY_COMPARE(window_->result()->strategy, std::string("graphturbo"));
        QCOMPARE(window_->document()->session().strategy, std::string("graphturbo"));
    }

    void diffWithTvmMarksTheRegroupedOps() {
        open(resnet_, "stcp920");
        window_->diffWith(QStringLiteral("tvm"));
        auto* diff = viewOf<DiffView>(*window_, studio::StudioView::Diff);
        QVERIFY(diff);
        QTRY_VERIFY_WITH_TIMEOUT(!diff->diff().regrouped.empty(), 120000);
        const ResultPtr shown = window_->result();
        const ResultPtr tvm = window_->comparisonRunner()->result(QStringLiteral("tvm"));
        // Regrouped: ops whose co-members differ between the two partitions.
        const auto& a = shown->eval.schedule.partition;
        const auto& b = tvm->eval.schedule.partition;
        std::set<ir::OpId> expected;
        for (ir::OpId x : shown->graph->opIds())
            for (ir::OpId y : shown->graph->opIds())
                if ((a.groupOf(x) == a.groupOf(y)) != (b.groupOf(x) == b.groupOf(y)))
                    expected.insert(x);
        std::set<ir::OpId> listed;
        for (const auto& op : diff->diff().regrouped)
            listed.insert(op.op);
        QCOMPARE(listed, expected);
        // The graph and the instance view mark them.
        auto* graph = viewOf<GraphView>(*window_, studio::StudioView::Graph);
        QTRY_VERIFY_WITH_TIMEOUT(!graph->isLayingOut(), 60000);
        QVERIFY(!graph->scene()->markedItems().empty());
        auto* instances = viewOf<InstanceView>(*window_, studio::StudioView::Instances);
        QVERIFY(!flagged(instances->canvas()->paintOptions().marked).empty());
    }

    void diffWithASavedSessionShowsItsSplit() {
        open(fig3_, "teaching");
        // A saved session of the same model with one group split another way
        // (a choice the inspector offers).
        const ResultPtr shown = window_->result();
        const auto& schedule = shown->eval.schedule;
        std::optional<std::pair<schedule::GroupId, partition::SplitCandidate>> change;
        for (schedule::GroupId g : schedule.groups.ids()) {
            if (change)
                break;
            for (const auto& choice : schedule::splitChoices(*shown->graph, schedule, g))
                if (schedule.groups[g].split && (choice.dim != schedule.groups[g].split->dim ||
                                                 choice.factor != schedule.groups[g].split->factor))
                    change = {{g, choice}};
        }
        QVERIFY(change);
        const std::string op = shown->graph->op(schedule.partition.ops(change->first).front()).name;
        io::Session other = window_->document()->session();
        other.overrides.splits = {{op, change->second.dim, change->second.factor}};
        const QString path = dir_.filePath(QStringLiteral("other.stagecraft"));
        QVERIFY(io::saveSession(path.toStdString(), other).ok());
        QVERIFY(window_->diffWithSession(path));
        auto* diff = viewOf<DiffView>(*window_, studio::StudioView::Diff);
        QTRY_VERIFY_WITH_TIMEOUT(!diff->diff().splits.empty() || !window_->lastError().isEmpty(),
                                 60000);
        QVERIFY2(window_->lastError().isEmpty(), qPrintable(window_->lastError()));
        QVERIFY(diff->diff().regrouped.empty());
        QCOMPARE(diff->diff().splits.front().group.a, change->first);
        QVERIFY(diff->summary().contains(QStringLiteral("other.stagecraft")));
        // A file that is not a session is refused with one line.
        const QString bad = dir_.filePath(QStringLiteral("bad.stagecraft"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{ not json");
        file.close();
        QVERIFY(!window_->diffWithSession(bad));
        QVERIFY(window_->lastError().contains(QStringLiteral("bad.stagecraft")));
        QVERIFY(!window_->lastError().contains(QLatin1Char('\n')));
    }

    void costRowSelectsInTheOtherViews() {
        open(fig3_, "teaching");
        window_->showView(studio::StudioView::Costs);
        auto* costs = viewOf<CostTableView>(*window_, studio::StudioView::Costs);
        QVERIFY(costs);
        QTRY_VERIFY(costs->isVisible() && costs->model()->rowCount() > 0);
        costs->setGrain(CostGrain::Kernels);
        QTableView* table = costs->table();
        const QModelIndex first = table->model()->index(0, 0);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(first).center());
        const Selection& selected = window_->selection()->current();
        QCOMPARE(selected.kind, Selection::Kind::Instance);
        const auto& schedule = window_->result()->eval.schedule;
        QCOMPARE(
            QString::fromStdString(schedule.instances[schedule::InstanceId{selected.id}].label),
            first.data().toString());
        auto* instances = viewOf<InstanceView>(*window_, studio::StudioView::Instances);
        QCOMPARE(flagged(instances->canvas()->paintOptions().highlighted),
                 std::vector<schedule::InstanceId>{schedule::InstanceId{selected.id}});
    }

    void stepThroughHighlightsReachTheGraph() {
        open(fig3_, "teaching");
        window_->showStep(0);
        auto* stepper = viewOf<StepperView>(*window_, studio::StudioView::Steps);
        QVERIFY(stepper && stepper->stepCount() > 1);
        QTRY_VERIFY(stepper->isVisible());
        auto* graph = viewOf<GraphView>(*window_, studio::StudioView::Graph);
        QTRY_VERIFY(!graph->isLayingOut());
        auto* caption = graph->findChild<QLabel*>(QStringLiteral("graphMarkCaption"));
        QVERIFY(caption);
        QTRY_VERIFY2(caption->text().startsWith(QStringLiteral("Step 1/")),
                     qPrintable(caption->text()));
        QVERIFY(!graph->scene()->markedItems().empty());
        stepper->stepForward();
        QVERIFY(caption->text().startsWith(QStringLiteral("Step 2/")));
    }

    void mergeStepsRedrawTheGroupingSoFar() {
        open(fig3_, "teaching");
        window_->showStep(0);
        auto* stepper = viewOf<StepperView>(*window_, studio::StudioView::Steps);
        QTRY_VERIFY(stepper->isVisible() && stepper->stepCount() > 1);
        auto* graph = viewOf<GraphView>(*window_, studio::StudioView::Graph);
        QTRY_VERIFY(!graph->isLayingOut());
        const std::vector<AlgorithmStep>& steps = stepper->allSteps();
        auto merged = std::find_if(steps.begin(), steps.end(),
                                   [](const AlgorithmStep& s) { return s.merged; });
        QVERIFY(merged != steps.end());
        stepper->goToStep(static_cast<int>(merged - steps.begin()));
        // The merged ops share one fill; an op no merge has reached yet has none.
        const QColor fill =
            graph->scene()->opItem(ir::OpId(merged->highlights.ops.front()))->stepFill();
        QVERIFY(fill.isValid());
        for (int32_t op : merged->highlights.ops)
            QCOMPARE(graph->scene()->opItem(ir::OpId(op))->stepFill(), fill);
        const std::vector<int32_t> grouping =
            groupingAt(steps, static_cast<size_t>(merged - steps.begin()),
                       window_->result()->graph->opCount());
        int alone = 0;
        for (ir::OpId op : window_->result()->graph->opIds())
            if (std::count(grouping.begin(), grouping.end(), grouping[op.index()]) == 1) {
                QVERIFY(!graph->scene()->opItem(op)->stepFill().isValid());
                ++alone;
            }
        QVERIFY(alone > 0);
        QVERIFY(graph->legend()->texts().join(u'\n').contains(QStringLiteral("after this step")));
        // Past the grouping, the final groups: no step fills, no note.
        auto order = std::find_if(steps.begin(), steps.end(),
                                  [](const AlgorithmStep& s) { return s.kind == StepKind::Order; });
        QVERIFY(order != steps.end());
        stepper->goToStep(static_cast<int>(order - steps.begin()));
        for (graphview::NodeItem* node : graph->scene()->nodes())
            QVERIFY(!node->stepFill().isValid());
        QVERIFY(!graph->legend()->texts().join(u'\n').contains(QStringLiteral("after this step")));
        // Algorithm 3's states reach the instance view, with their legend.
        auto* instances = viewOf<InstanceView>(*window_, studio::StudioView::Instances);
        const PaintOptions& paint = instances->canvas()->paintOptions();
        QCOMPARE(paint.orderStates.size(), window_->result()->eval.schedule.instances.size());
        QVERIFY(std::count(paint.orderStates.begin(), paint.orderStates.end(), 2) > 0);
        // (Through its tool bar action: a narrow bar moves the label into its overflow menu.)
        auto* legend = instances->findChild<QLabel*>(QStringLiteral("instanceStepLegend"));
        auto* bar = instances->findChild<QToolBar*>(QStringLiteral("instanceViewToolBar"));
        QVERIFY(legend && bar);
        auto legendShown = [&] {
            const QList<QAction*> actions = bar->actions();
            return std::any_of(actions.begin(), actions.end(), [&](QAction* action) {
                return bar->widgetForAction(action) == legend && action->isVisible();
            });
        };
        QVERIFY(legendShown());
        stepper->goToStep(static_cast<int>(merged - steps.begin()));
        QVERIFY(instances->canvas()->paintOptions().orderStates.empty());
        QVERIFY(!legendShown());
        // Algorithm 4: the bindings decided so far reach the instance view,
        // and the picture shows "bind=?" for the others.
        auto bind = std::find_if(steps.begin(), steps.end(),
                                 [](const AlgorithmStep& s) { return s.kind == StepKind::Bind; });
        QVERIFY(bind != steps.end());
        stepper->goToStep(static_cast<int>(bind - steps.begin()));
        const PaintOptions& bound = instances->canvas()->paintOptions();
        QCOMPARE(bound.stepBinds, bind->highlights.stepBinds);
        QVERIFY(std::count(bound.stepBinds.begin(), bound.stepBinds.end(), QString()) > 0);
        const QImage first = instances->canvas()->grab().toImage();
        auto last = std::find_if(steps.rbegin(), steps.rend(),
                                 [](const AlgorithmStep& s) { return s.kind == StepKind::Bind; });
        stepper->goToStep(static_cast<int>(steps.rend() - last - 1));
        QVERIFY(instances->canvas()->paintOptions().stepBinds.size() == bound.stepBinds.size());
        QVERIFY(instances->canvas()->grab().toImage() != first);
    }

    void hiddenToolsFollowOnceShown() {
        open(fig3_, "teaching");
        auto* timeline = viewOf<TimelineView>(*window_, studio::StudioView::Timeline);
        auto* stepper = viewOf<StepperView>(*window_, studio::StudioView::Steps);
        // Tabbed away at start: they have not built anything yet.
        QVERIFY(!timeline->result());
        QCOMPARE(stepper->stepCount(), 0);
        QVERIFY(!window_->comparisonRunner()->hasRequest());
        window_->showView(studio::StudioView::Timeline);
        QTRY_COMPARE(timeline->result(), window_->result());
        window_->showView(studio::StudioView::Steps);
        QTRY_VERIFY(stepper->stepCount() > 0);
    }

    void everyCommonActionHasItsOwnShortcut() {
        std::map<QString, QString> seen;
        std::set<QString> withShortcut;
        const auto actions = window_->findChildren<QAction*>();
        for (QAction* action : actions) {
            if (action->shortcut().isEmpty())
                continue;
            const QString keys = action->shortcut().toString();
            QString text = action->text();
            text.remove(QLatin1Char('&'));
            auto [it, fresh] = seen.emplace(keys, text);
            QVERIFY2(fresh || it->second == text,
                     qPrintable(keys + QStringLiteral(": ") + it->second + QStringLiteral(" and ") +
                                text));
            withShortcut.insert(text);
        }
        for (const char* common :
             {"Open…", "Save Session", "Undo", "Redo", "Architecture…", "Bind Dimensions…",
              "Fit All Views", "Find Op…", "Expand All Groups", "Collapse All Groups", "Timeline",
              "Compare Strategies", "Diff With Session…", "Step Through the Algorithms",
              "Step Forward", "Step Back", "Play / Pause Steps", "Quit"})
            QVERIFY2(withShortcut.contains(QString::fromUtf8(common)), common);
    }

    // A profile measured for the shown kernels (stagecraft run --profile)
    // puts the simulated and the measured kernels on the first two lanes;
    // one of other kernels does not.
    /// Studio opens at auto and its level box says which level won and why.
    void theLevelBoxSaysWhichLevelAutoChose() {
        io::Session defaults = test::testDefaults("teaching");
        defaults.level = std::nullopt; // Studio's own default
        window_->setDefaults(defaults);
        QVERIFY(window_->openModel(fig3_));
        QVERIFY(test::waitForResult(*window_));
        QVERIFY(!window_->document()->session().level); // auto
        const ResultPtr result = window_->result();
        QVERIFY(!result->levelChoice);
        QVERIFY(result->levelWhy.find("graphturbo simulates") != std::string::npos);
        auto* levels = window_->findChild<QComboBox*>(QStringLiteral("levelCombo"));
        QVERIFY(levels);
        QCOMPARE(levels->currentIndex(), 0);
        const QString chosen =
            QString::fromUtf8(schedule::levelName(result->eval.schedule.level).data());
        QCOMPARE(levels->itemText(0), QStringLiteral("auto: ") + chosen);
        QCOMPARE(levels->toolTip(), QString::fromStdString(result->levelWhy));
    }

    void aProfileShowsMeasuredBesideSimulatedKernels() {
        open(fig3_, "teaching");
        window_->showView(studio::StudioView::Timeline);
        auto* timeline = viewOf<TimelineView>(*window_, studio::StudioView::Timeline);
        QTRY_VERIFY(timeline->isVisible() && timeline->timeline() && timeline->result());
        const int32_t simulatedLanes = timeline->timeline()->laneCount();
        const views::PipelineResult& shown = *timeline->result();
        codegen::Profile profile{
            "models/fig3-chain.onnx", "teaching", shown.strategy, "f32", 2, 10, {}, 0};
        const auto& kernels = shown.eval.program.kernels;
        for (size_t k = 0; k < kernels.size(); ++k)
            profile.kernels.push_back({codegen::kernelSymbol(k, kernels[k].label), kernels[k].label,
                                       std::max<int64_t>(1, kernels[k].cores), 2e6, 2e6, 2e6});
        QString path = dir_.filePath(QStringLiteral("profile.json"));
        auto opens = [&](const codegen::Profile& p) {
            QFile file(path);
            if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
                return false;
            file.write(QByteArray::fromStdString(codegen::writeProfileJson(p)));
            file.close();
            return window_->openProfile(path);
        };
        QVERIFY2(opens(profile), qPrintable(window_->lastError()));
        const TimelineData* data = timeline->timeline();
        QCOMPARE(data->laneCount(), simulatedLanes + 2);
        QCOMPARE(data->lane(0).name, std::string("kernels, simulated"));
        QCOMPARE(data->lane(1).name, std::string("kernels, measured on this host"));
        QCOMPARE(data->lane(1).bars.size(), profile.kernels.size());
        QCOMPARE(data->makespanNs(), 2e6 * static_cast<double>(profile.kernels.size()));
        // Another schedule's kernels, another strategy or model: refused
        // (issue 60), and the profile shown stays.
        codegen::Profile fewer = profile, strategy = profile, model = profile;
        fewer.kernels.pop_back();
        strategy.strategy = shown.strategy == "tvm" ? "graphturbo" : "tvm";
        model.model = "zoo:resnet50";
        for (const auto& [wrong, field] :
             {std::pair{fewer, "kernels"}, std::pair{strategy, "strategy"},
              std::pair{model, "model"}}) {
            QVERIFY(!opens(wrong));
            QVERIFY2(
                window_->lastError().startsWith(path + QStringLiteral(": ") + QLatin1String(field)),
                qPrintable(window_->lastError()));
            QCOMPARE(timeline->timeline()->laneCount(), simulatedLanes + 2);
        }
        QVERIFY(!window_->openProfile(dir_.filePath(QStringLiteral("missing.json"))));
    }

private:
    void open(const QString& model, const std::string& arch) {
        window_->setDefaults(test::testDefaults(arch));
        QVERIFY(window_->openModel(model));
        QVERIFY(test::waitForResult(*window_));
    }

    QTemporaryDir dir_;
    QString fig3_;
    QString resnet_;
    std::unique_ptr<studio::MainWindow> window_;
};

QTEST_MAIN(TestStudioTools)
#include "test_studio_tools.moc"
