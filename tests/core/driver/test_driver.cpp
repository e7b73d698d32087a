// The driver of both front ends (core/driver): `auto` picks the level
// sim::pickLevel picks and says why, a named or lent level is kept, a lent
// schedule gives the schedule a fresh build gives, a step callback cancels,
// the code plan comes out validated, emission refuses a directory it cannot
// write before compiling anything, and a changed model file is named once.

#include "driver/emit.h"
#include "driver/model_check.h"
#include "driver/pipeline.h"
#include "sim_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <vector>

using namespace stagecraft;
using namespace stagecraft::test;

class TestDriver : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    ir::Graph graph_;

    driver::Request request(schedule::LevelChoice level) const {
        driver::Request r;
        r.graph = &graph_;
        r.arch = preset("stcp920");
        r.level = level;
        r.perCluster = driver::perClusterBatch(graph_);
        r.recordTrace = false;
        return r;
    }

    driver::Scheduled run(const driver::Request& r, const driver::Reuse& reuse = {}) const {
        return valueOrDie(driver::scheduleAndSimulate(r, reuse), "driver run");
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        graph_ = importZoo(dir_, "fig2-blocks", 2);
    }

    void perClusterBatchIsDimZeroOfTheFirstInput() {
        QCOMPARE(driver::perClusterBatch(graph_), int64_t{2});
        QCOMPARE(driver::perClusterBatch(ir::Graph{}), int64_t{1});
    }

    void autoPicksWhatPickLevelPicksAndSaysWhy() {
        driver::Request r = request(std::nullopt);
        auto clusters = valueOrDie(schedule::makeClusterPlan(r.perCluster * r.arch.clusters,
                                                             r.arch.clusters, r.perCluster),
                                   "clusters");
        sim::LevelVerdict verdict =
            valueOrDie(sim::pickLevel(graph_, r.arch, clusters, compareOptions({})), "pickLevel");
        driver::Scheduled done = run(r);
        QCOMPARE(done.eval.schedule.level, verdict.level);
        QCOMPARE(done.levelWhy, verdict.why);
        driver::Scheduled named = run(request(verdict.level));
        QCOMPARE(named.levelWhy, std::string());
        QCOMPARE(named.eval.report.latencyUs, done.eval.report.latencyUs);
    }

    void aLentAutoLevelIsKept() {
        driver::Scheduled fresh = run(request(std::nullopt));
        schedule::Level other = fresh.eval.schedule.level == schedule::Level::LB
                                    ? schedule::Level::GB
                                    : schedule::Level::LB;
        driver::Reuse reuse;
        reuse.autoLevel = other;
        reuse.autoWhy = "kept from the last run";
        driver::Scheduled kept = run(request(std::nullopt), reuse);
        QCOMPARE(kept.eval.schedule.level, other);
        QCOMPARE(kept.levelWhy, std::string("kept from the last run"));
    }

    void aLentScheduleGivesWhatAFreshBuildGives() {
        for (schedule::Level level : {schedule::Level::LB, schedule::Level::GB}) {
            driver::Scheduled first = run(request(level));
            driver::Request edited = request(level);
            edited.order = schedule::OrderChoice::BFS;
            driver::Reuse reuse;
            reuse.schedule = &first.eval.schedule;
            driver::Scheduled reused = run(edited, reuse);
            driver::Scheduled fresh = run(edited);
            QCOMPARE(reused.eval.schedule.order, fresh.eval.schedule.order);
            QCOMPARE(reused.eval.report.latencyUs, fresh.eval.report.latencyUs);
        }
    }

    // The CLI's --batch: a cluster plan given as is, and the schedule alone
    // (the Schedule step only) equal to what the simulated run schedules.
    void aGivenClusterPlanIsUsedAsIs() {
        driver::Request r = request(schedule::Level::LB);
        schedule::ClusterPlan given =
            valueOrDie(schedule::makeClusterPlan(3 * r.arch.clusters * r.perCluster,
                                                 r.arch.clusters, r.perCluster),
                       "plan");
        given.chosenBy = "given";
        r.clusters = given;
        std::vector<driver::Step> seen;
        auto planned = driver::scheduleOnly(r, {}, [&](driver::Step step) {
            seen.push_back(step);
            return true;
        });
        QVERIFY2(planned.ok(), planned.ok() ? "" : planned.error().message().c_str());
        QCOMPARE(planned->schedule.clusters.totalBatch, given.totalBatch);
        QCOMPARE(planned->schedule.clusters.iterations, int64_t{3});
        QCOMPARE(planned->schedule.clusters.chosenBy, std::string("given"));
        QCOMPARE(seen, std::vector<driver::Step>{driver::Step::Schedule});
        QCOMPARE(run(r).eval.schedule.order, planned->schedule.order);
    }

    void aStepCallbackCancels() {
        std::vector<driver::Step> seen;
        auto stopAtSimulate = [&](driver::Step step) {
            seen.push_back(step);
            return step != driver::Step::Simulate;
        };
        auto cancelled =
            driver::scheduleAndSimulate(request(schedule::Level::GB), {}, stopAtSimulate);
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error().message(), std::string("cancelled"));
        QCOMPARE(seen, (std::vector<driver::Step>{driver::Step::Schedule, driver::Step::Simulate}));
    }

    void badRequestsFailNamingWhat() {
        driver::Request r = request(schedule::Level::LB);
        r.strategy = "nope";
        auto unknown = driver::scheduleAndSimulate(r);
        QVERIFY(!unknown.ok());
        QCOMPARE(unknown.error().message(), std::string("unknown strategy 'nope'"));
        r = request(schedule::Level::LB);
        r.graph = nullptr;
        QVERIFY(!driver::scheduleAndSimulate(r).ok());
    }

    // The plan is the one codegen::planCode makes, and it validates (the
    // validator's own refusals are test_code_plan's).
    void theCodePlanComesOutValidated() {
        driver::Scheduled done = run(request(schedule::Level::LB));
        auto plan = driver::planCode(graph_, done.eval);
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message().c_str());
        auto direct = codegen::planCode(graph_, done.eval.schedule, done.eval.program);
        QVERIFY(direct.ok());
        QCOMPARE(plan->kernels.size(), direct->kernels.size());
        QVERIFY(codegen::validateCodePlan(graph_, *plan).ok());
    }

    void emissionRefusesADirectoryBeforeCompiling() {
        driver::Scheduled done = run(request(schedule::Level::LB));
        codegen::CodePlan plan = valueOrDie(driver::planCode(graph_, done.eval), "plan");
        std::string file = dir_.filePath(QStringLiteral("not-a-directory")).toStdString();
        std::ofstream(file) << "x";
        int compiled = 0;
        auto counting = [&](size_t, size_t) {
            ++compiled;
            return true;
        };
        codegen::ManifestInfo info{"fig2-blocks", "stcp920", "graphturbo"};
        auto refused = driver::emitKernels(file, graph_, *done.eval.schedule.semantics, plan, {},
                                           info, counting);
        QVERIFY(!refused.ok());
        QCOMPARE(compiled, 0);
        std::string out = dir_.filePath(QStringLiteral("kernels")).toStdString();
        auto emitted = driver::emitKernels(out, graph_, *done.eval.schedule.semantics, plan, {},
                                           info, counting);
        QVERIFY2(emitted.ok(), emitted.ok() ? "" : emitted.error().message().c_str());
        QCOMPARE(emitted->program.kernels.size(), plan.kernels.size());
        QVERIFY(compiled > 0);
        QVERIFY(std::filesystem::exists(std::filesystem::path(out) / "manifest.json"));
    }

    void aChangedModelIsNamedOnce() {
        QVERIFY(!driver::modelChangedMessage("m.onnx", "", "abc").has_value());
        QVERIFY(!driver::modelChangedMessage("m.onnx", "abc", "abc").has_value());
        std::string saved(64, 'a'), now(64, 'b');
        auto message = driver::modelChangedMessage("m.onnx", saved, now);
        QVERIFY(message.has_value());
        QCOMPARE(*message, "m.onnx changed on disk since the session was saved (sha256 " +
                               saved.substr(0, 12) + "… now " + now.substr(0, 12) + "…)");
    }
};

QTEST_GUILESS_MAIN(TestDriver)
#include "test_driver.moc"
