// The step list as data on fig3-chain (teaching): merge steps light up the
// ops of every part of the pattern (checked against the final groups and the
// trace's part sizes), rejected merges name the failed rule, every sentence
// names a paper section, and the §4.3 spill steps are exactly the spills of
// the kernel plans (at the LB level, 14; at the GB level, 6).

#include "common/run_pipeline.h"
#include "result_fixture.h"
#include "stepper/algorithm_steps.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

using namespace stagecraft;
using namespace stagecraft::views;

Q_DECLARE_METATYPE(stagecraft::schedule::Level)

namespace {

ResultPtr fig3Chain(schedule::Level level) {
    test::ResultSpec spec;
    spec.zoo = "fig3-chain";
    spec.arch = "teaching";
    spec.level = level;
    return test::resultFor(spec);
}

ResultPtr fig2Blocks(const char* strategy) {
    test::ResultSpec spec;
    spec.zoo = "fig2-blocks";
    spec.strategy = strategy;
    return test::resultFor(spec);
}

std::vector<const AlgorithmStep*> ofKind(const std::vector<AlgorithmStep>& steps, StepKind kind) {
    std::vector<const AlgorithmStep*> out;
    for (const AlgorithmStep& step : steps)
        if (step.kind == kind)
            out.push_back(&step);
    return out;
}

std::vector<int32_t> groupOps(const schedule::Schedule& s, partition::GroupId group) {
    std::vector<int32_t> out;
    for (ir::OpId op : s.partition.ops(group))
        out.push_back(op.value());
    std::sort(out.begin(), out.end());
    return out;
}

/// Spills read from the merged placements of the program's buffers: one per
/// memory level a buffer leaves, keyed by (buffer, task).
std::multiset<std::pair<kernel::BufferId, int32_t>>
spillsOfBuffers(const kernel::Program& program) {
    std::multiset<std::pair<kernel::BufferId, int32_t>> out;
    for (kernel::BufferId b : program.buffers.ids()) {
        const kernel::Buffer& buffer = program.buffers[b];
        int level = static_cast<int>(buffer.scope);
        for (const kernel::Placement& p : buffer.placements) {
            int next = static_cast<int>(kernel::poolScope(p.pool));
            for (; level < next; ++level)
                out.insert({b, p.fromTask});
        }
    }
    return out;
}

} // namespace

class TestAlgorithmSteps : public QObject {
    Q_OBJECT
    ResultPtr lb;
    std::vector<AlgorithmStep> steps;

private slots:
    void initTestCase() {
        lb = fig3Chain(schedule::Level::LB);
        steps = buildSteps(*lb);
    }

    void stepsComeInTheOrderOfThePaper() {
        const partition::Trace& trace = lb->eval.schedule.trace;
        QCOMPARE(ofKind(steps, StepKind::Merge).size(), trace.merges.size());
        // Algorithm 3's steps, then the one saying which order was kept.
        QCOMPARE(ofKind(steps, StepKind::Order).size(), trace.order.size() + 1);
        QCOMPARE(ofKind(steps, StepKind::Bind).size(), trace.binding.size());
        QCOMPARE(ofKind(steps, StepKind::Liveness).size(), lb->eval.program.kernels.size());
        QVERIFY(std::is_sorted(steps.begin(), steps.end(), [](const auto& a, const auto& b) {
            auto rank = [](StepKind k) {
                return std::min(int(k), int(StepKind::Liveness));
            };
            return rank(a.kind) < rank(b.kind);
        }));
    }

    void everyExplanationNamesASection() {
        for (const AlgorithmStep& step : steps) {
            QVERIFY2(step.explanation.contains(u'§'), qPrintable(step.explanation));
            QVERIFY(!step.title.isEmpty());
        }
    }

    void mergesHighlightEveryPartOfThePattern() {
        const partition::Trace& trace = lb->eval.schedule.trace;
        auto merges = ofKind(steps, StepKind::Merge);
        for (size_t i = 0; i < merges.size(); ++i) {
            const partition::MergeStep& traced = trace.merges[i];
            int64_t size = 0;
            for (int64_t s : traced.partSizes)
                size += s;
            QCOMPARE(int64_t(merges[i]->highlights.ops.size()), size);
            for (ir::OpId first : traced.parts)
                QVERIFY(std::binary_search(merges[i]->highlights.ops.begin(),
                                           merges[i]->highlights.ops.end(), first.value()));
            QVERIFY(merges[i]->explanation.contains(QStringLiteral("Algorithm 2")));
        }
    }

    void acceptedMergesBuildTheFinalGroups() {
        const schedule::Schedule& s = lb->eval.schedule;
        std::set<std::vector<int32_t>> merged;
        for (const AlgorithmStep* step : ofKind(steps, StepKind::Merge)) {
            if (!step->merged)
                continue;
            // Every accepted merge stays inside one final group.
            partition::GroupId group = s.partition.groupOf(ir::OpId(step->highlights.ops.front()));
            for (int32_t op : step->highlights.ops)
                QCOMPARE(s.partition.groupOf(ir::OpId(op)), group);
            merged.insert(step->highlights.ops);
        }
        // Fig. 3b: the last merge of each stage lights up the whole stage.
        QCOMPARE(s.partition.groupCount(), size_t(4));
        for (partition::GroupId g : s.partition.groupIds())
            QVERIFY(merged.count(groupOps(s, g)) == 1);
    }

    void groupingAtTheLastMergeIsTheFinalGrouping() {
        const schedule::Schedule& s = lb->eval.schedule;
        const size_t ops = lb->graph->opCount();
        auto merges = ofKind(steps, StepKind::Merge);
        QVERIFY(!merges.empty());
        const size_t last = static_cast<size_t>(merges.back() - steps.data());
        const std::vector<int32_t> grouping = groupingAt(steps, last, ops);
        QCOMPARE(grouping.size(), ops);
        // Same value exactly when same final group; the value is the group's smallest op.
        for (ir::OpId a : lb->graph->opIds()) {
            QCOMPARE(grouping[a.index()], groupOps(s, s.partition.groupOf(a)).front());
            for (ir::OpId b : lb->graph->opIds())
                QCOMPARE(grouping[a.index()] == grouping[b.index()],
                         s.partition.groupOf(a) == s.partition.groupOf(b));
        }
    }

    void groupingGrowsOneAcceptedMergeAtATime() {
        const size_t ops = lb->graph->opCount();
        auto classes = [](const std::vector<int32_t>& grouping) {
            return std::set<int32_t>(grouping.begin(), grouping.end()).size();
        };
        size_t before = ops;
        for (size_t i = 0; i < steps.size() && steps[i].kind == StepKind::Merge; ++i) {
            const std::vector<int32_t> grouping = groupingAt(steps, i, ops);
            const size_t now = classes(grouping);
            // An accepted merge of k parts leaves k - 1 fewer groups; a rejected one none.
            const size_t parts = steps[i].merged ? steps[i].unites.size() : 1;
            QCOMPARE(now, before - (parts - 1));
            if (steps[i].merged)
                for (int32_t op : steps[i].highlights.ops)
                    QCOMPARE(grouping[static_cast<size_t>(op)],
                             grouping[static_cast<size_t>(steps[i].highlights.ops.front())]);
            before = now;
        }
        // Steps after the grouping draw the final groups: no grouping of their own.
        auto orders = ofKind(steps, StepKind::Order);
        QVERIFY(!orders.empty());
        QVERIFY(groupingAt(steps, static_cast<size_t>(orders.front() - steps.data()), ops).empty());
    }

    void orderStatesFollowTheLists() {
        const schedule::Schedule& s = lb->eval.schedule;
        auto label = [&](size_t id) {
            return QString::fromStdString(s.instances[schedule::InstanceId::at(id)].label);
        };
        for (const AlgorithmStep* step : ofKind(steps, StepKind::Order)) {
            Highlights marks;
            setOrderStates(*step->lists, s, marks);
            QCOMPARE(marks.instanceStates.size(), s.instances.size());
            for (size_t id = 0; id < s.instances.size(); ++id) {
                const qsizetype position = step->lists->order.indexOf(label(id));
                const int8_t expected = position >= 0                            ? 3
                                        : step->lists->ready.contains(label(id)) ? 2
                                        : step->lists->visit.contains(label(id)) ? 1
                                                                                 : 0;
                QCOMPARE(marks.instanceStates[id], expected);
                QCOMPARE(marks.instanceOrder[id], static_cast<int32_t>(position + 1));
            }
        }
        // The last step has every instance ordered, numbered as the schedule's order.
        Highlights last;
        setOrderStates(*ofKind(steps, StepKind::Order).back()->lists, s, last);
        for (size_t i = 0; i < s.order.size(); ++i)
            QCOMPARE(last.instanceOrder[s.order[i].index()], static_cast<int32_t>(i + 1));
    }

    // The steps follow the order the schedule kept: asked for BFS, they are
    // Fig. 7a's queue, one instance ordered per step, ending on the
    // schedule's order; the last step says which order was kept and why.
    void orderStepsFollowTheKeptOrder() {
        const QString kept = ofKind(steps, StepKind::Order).back()->title;
        QCOMPARE(kept, QStringLiteral("DFS order kept"));
        views::PipelineRequest request = test::requestFor({});
        request.order = schedule::OrderChoice::BFS;
        auto bfs = views::runPipeline(request, nullptr, 1);
        QVERIFY2(bfs.ok(), bfs.ok() ? "" : bfs.error().message().c_str());
        const schedule::Schedule& s = (*bfs)->eval.schedule;
        QVERIFY(s.orderKind == schedule::OrderKind::BFS);
        const std::vector<AlgorithmStep> all = buildSteps(**bfs);
        const auto order = ofKind(all, StepKind::Order);
        QCOMPARE(order.size(), s.instances.size() + 1);
        for (size_t i = 0; i + 1 < order.size(); ++i) {
            QVERIFY2(order[i]->title.startsWith(QStringLiteral("BFS order: ")),
                     qPrintable(order[i]->title));
            QCOMPARE(order[i]->lists->order.size(), static_cast<qsizetype>(i + 1));
            QCOMPARE(order[i]->lists->order.back(),
                     QString::fromStdString(s.instances[s.order[i]].label));
        }
        QCOMPARE(order.back()->title, QStringLiteral("BFS order kept"));
        QVERIFY(order.back()->explanation.contains(QStringLiteral("memory utilization")));
        QVERIFY(order.back()->explanation.contains(QStringLiteral("not by simulated time")));
    }

    void bindStepsReplayTheBindingsSoFar() {
        ResultPtr result = fig3Chain(schedule::Level::LB);
        const schedule::Schedule& s = result->eval.schedule;
        const std::vector<AlgorithmStep> all = buildSteps(*result);
        auto binds = ofKind(all, StepKind::Bind);
        QCOMPARE(binds.size(), s.trace.binding.size());
        QVERIFY(!binds.empty());
        qsizetype decided = 0;
        for (size_t k = 0; k < binds.size(); ++k) {
            const Highlights& h = binds[k]->highlights;
            QCOMPARE(h.stepBinds.size(), s.instances.size());
            QCOMPARE(h.stepScopes.size(), s.instances.size());
            const qsizetype now = std::count_if(h.stepBinds.begin(), h.stepBinds.end(),
                                                [](const QString& b) { return !b.isEmpty(); });
            QVERIFY(now >= decided);
            decided = now;
            // The step's own instance shows what the step decided.
            const partition::BindStep& traced = s.trace.binding[k];
            QCOMPARE(h.instances.size(), size_t(1));
            const auto id = static_cast<size_t>(h.instances.front());
            QCOMPARE(h.stepScopes[id], QString::fromStdString(traced.scope));
            QVERIFY(h.stepBinds[id].startsWith(u'[') && h.stepBinds[id].endsWith(u']'));
        }
        // By the last step every instance Algorithm 4 visited is bound.
        QVERIFY(decided > 0);
        QVERIFY(binds.front()->highlights.stepBinds != binds.back()->highlights.stepBinds ||
                binds.size() == 1);
    }

    void rejectedMergesNameTheFailedRule() {
        int rejected = 0;
        const partition::Trace& trace = lb->eval.schedule.trace;
        auto merges = ofKind(steps, StepKind::Merge);
        for (size_t i = 0; i < merges.size(); ++i) {
            if (trace.merges[i].merged)
                continue;
            ++rejected;
            QString rule = QString::fromStdString(trace.merges[i].rule);
            QVERIFY(merges[i]->explanation.contains(rule + QStringLiteral(" fails")));
            QVERIFY(merges[i]->title.contains(rule));
        }
        QVERIFY(rejected > 0); // fig3-chain's stages never merge (8 > 4 > 2 > 1)
    }

    /// The ago strategy's grouping steps are CLUSTER's merges: each lights
    /// both hyper nodes, and the last merge of every sub-graph lights it whole.
    void agoStepsReplayTheClusterMerges() {
        ResultPtr result = fig2Blocks("ago");
        const schedule::Schedule& s = result->eval.schedule;
        std::vector<AlgorithmStep> all = buildSteps(*result);
        auto merges = ofKind(all, StepKind::Merge);
        QCOMPARE(merges.size(), s.trace.ago.size());
        QCOMPARE(merges.size(), result->graph->opCount() - s.partition.groupCount());
        std::set<std::vector<int32_t>> lit;
        for (size_t i = 0; i < merges.size(); ++i) {
            const partition::AgoStep& traced = s.trace.ago[i];
            QCOMPARE(merges[i]->algorithm, QStringLiteral("AGO CLUSTER"));
            QCOMPARE(int64_t(merges[i]->highlights.ops.size()), traced.intoOps + traced.takenOps);
            lit.insert(merges[i]->highlights.ops);
        }
        for (partition::GroupId g : s.partition.groupIds())
            if (s.partition.ops(g).size() > 1)
                QVERIFY(lit.count(groupOps(s, g)) == 1);
    }

    /// The dla strategy's grouping steps are its extracted sub-graphs, each
    /// lighting the groups (parts) it was cut into.
    void dlaStepsLightTheirParts() {
        ResultPtr result = fig2Blocks("dla");
        const schedule::Schedule& s = result->eval.schedule;
        std::vector<AlgorithmStep> all = buildSteps(*result);
        auto grouping = ofKind(all, StepKind::Merge);
        QCOMPARE(grouping.size(), size_t(1));
        QCOMPARE(grouping[0]->algorithm, QStringLiteral("DLA §3"));
        QCOMPARE(grouping[0]->highlights.groups.size(), s.partition.groupCount());
        QVERIFY(grouping[0]->explanation.contains(QStringLiteral("post-prune")));
    }

    /// The ios strategy's grouping steps are its stages in order, each
    /// lighting the groups it runs; together they light every group once.
    void iosStepsLightTheirStages() {
        ResultPtr result = fig2Blocks("ios");
        const schedule::Schedule& s = result->eval.schedule;
        std::vector<AlgorithmStep> all = buildSteps(*result);
        auto stages = ofKind(all, StepKind::Merge);
        QCOMPARE(stages.size(), s.trace.ios.size());
        QVERIFY(!stages.empty());
        std::vector<int32_t> lit;
        for (size_t i = 0; i < stages.size(); ++i) {
            const partition::IosStep& traced = s.trace.ios[i];
            QCOMPARE(stages[i]->algorithm, QStringLiteral("IOS STAGE"));
            QCOMPARE(stages[i]->highlights.groups.size(),
                     traced.merged ? size_t(1) : traced.groups.size());
            QCOMPARE(stages[i]->explanation, QString::fromStdString(traced.explanation));
            // The title names the DP's state the stage ends and its endings.
            QVERIFY2(stages[i]->title.contains(
                         QStringLiteral("state of %1 units").arg(traced.stateUnits)) &&
                         stages[i]->title.endsWith(
                             QStringLiteral("best of %1 endings").arg(traced.endings)),
                     qPrintable(stages[i]->title));
            lit.insert(lit.end(), stages[i]->highlights.groups.begin(),
                       stages[i]->highlights.groups.end());
        }
        std::sort(lit.begin(), lit.end());
        QCOMPARE(lit.size(), s.partition.groupCount());
        QVERIFY(std::adjacent_find(lit.begin(), lit.end()) == lit.end());
    }

    void spillStepsMatchTheProgram_data() {
        QTest::addColumn<schedule::Level>("level");
        QTest::addColumn<int>("expected");
        // Counts as `stagecraft schedule zoo:fig3-chain --arch teaching
        // --simulate` prints them ("spills 14" / "spills 6").
        QTest::newRow("LB level") << schedule::Level::LB << 14;
        QTest::newRow("GB level") << schedule::Level::GB << 6;
    }

    void spillStepsMatchTheProgram() {
        QFETCH(schedule::Level, level);
        QFETCH(int, expected);
        ResultPtr result = fig3Chain(level);
        const kernel::Program& program = result->eval.program;
        std::vector<AlgorithmStep> all = buildSteps(*result);
        auto spills = ofKind(all, StepKind::Spill);
        int counted = 0;
        for (const kernel::AllocationPass* pass : {&program.lb, &program.gb})
            for (int32_t n : pass->allocation.spillsFrom)
                counted += n;
        QCOMPARE(counted, expected);
        QCOMPARE(int(spills.size()), counted);
        std::multiset<std::pair<kernel::BufferId, int32_t>> shown;
        for (const AlgorithmStep* step : spills) {
            const SpillDecision& d = *step->spill;
            shown.insert({d.buffer, d.task});
            const kernel::Buffer& buffer = program.buffers[d.buffer];
            QVERIFY(d.from < d.to);
            QVERIFY(kernel::scopeAt(program, d.buffer, d.task) >= d.to);
            QVERIFY(step->explanation.contains(QString::fromStdString(buffer.name)));
            QCOMPARE(step->highlights.ops,
                     std::vector<int32_t>{result->graph->tensor(buffer.tensor).producer.value()});
            if (d.from == schedule::Scope::LB) // the LB pass ranks whole liveness
                QCOMPARE(d.liveness, int64_t{buffer.lastTask} - buffer.firstTask + 1);
        }
        QCOMPARE(shown, spillsOfBuffers(program));
        // Every §4.3 step lists the spills decided up to it, its own last.
        size_t decided = 0;
        for (const AlgorithmStep& step : memorySteps(*result)) {
            QVERIFY(step.highlights.spillStepping);
            decided += step.spill ? 1 : 0;
            QCOMPARE(step.highlights.spillsSoFar.size(), decided);
            QCOMPARE(step.highlights.spillIsCurrent, step.spill.has_value());
            if (step.spill) {
                const SpillRef& last = step.highlights.spillsSoFar.back();
                QCOMPARE(last.buffer, step.spill->buffer.value());
                QCOMPARE(last.task, step.spill->task);
                QCOMPARE(int(last.from), int(step.spill->from));
            }
        }
        QCOMPARE(decided, spills.size());
    }
};

QTEST_MAIN(TestAlgorithmSteps)
#include "test_algorithm_steps.moc"
