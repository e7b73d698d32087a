// Schedule diff: a schedule against itself differs in nothing; graphturbo
// against tvm on ResNet-50 lists exactly the ops whose co-membership differs
// (checked pair by pair); a split override is a split difference only.

#include "schedule/diff.h"
#include "schedule_fixture.h"
#include "sim/compare.h"

#include <set>

using namespace stagecraft;
using namespace stagecraft::schedule;

namespace {

/// The options sim::evaluate schedules \p strategy with.
ScheduleOptions strategyOptions(const std::string& strategy, const Overrides& overrides = {}) {
    const sim::Strategy* s = sim::findStrategy(strategy);
    if (!s)
        qFatal("no strategy %s", strategy.c_str());
    ScheduleOptions options;
    options.recordTrace = false;
    options.grouping = s->grouping;
    options.splitGroups = s->splitGroups;
    options.forcedScope = s->forcedScope;
    options.overrides = overrides;
    return options;
}

/// Ops x for which some op y shares x's group in one partition only.
std::vector<ir::OpId> coMembershipDiffers(const ir::Graph& graph, const Schedule& a,
                                          const Schedule& b) {
    std::vector<ir::OpId> ops;
    auto n = static_cast<ir::OpId>(graph.opCount());
    for (ir::OpId x = 0; x < n; ++x) {
        for (ir::OpId y = 0; y < n; ++y) {
            bool togetherA = a.partition.groupOf(x) == a.partition.groupOf(y);
            bool togetherB = b.partition.groupOf(x) == b.partition.groupOf(y);
            if (togetherA != togetherB) {
                ops.push_back(x);
                break;
            }
        }
    }
    return ops;
}

/// ResNet-50 with one sample (as the studio shows it), the others at their default.
int64_t batchOf(const std::string& model) {
    return model == "resnet50" ? 1 : 0;
}

std::vector<ir::OpId> regroupedOps(const ScheduleDiff& diff) {
    std::vector<ir::OpId> ops;
    for (const RegroupedOp& r : diff.regrouped)
        ops.push_back(r.op);
    return ops;
}

} // namespace

class TestScheduleDiff : public QObject {
    Q_OBJECT
    test::ZooGraphs zoo;

    Schedule build(const std::string& model, const std::string& archName,
                   const std::string& strategy, const Overrides& overrides = {}) {
        auto s = buildSchedule(zoo.graph(model, batchOf(model)), test::preset(archName),
                               strategyOptions(strategy, overrides));
        if (!s.ok())
            qFatal("%s", s.error().message().c_str());
        return std::move(s).value();
    }

private slots:
    void itselfIsEmpty_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("strategy");
        QTest::newRow("fig3 graphturbo") << "fig3-chain"
                                         << "teaching"
                                         << "graphturbo";
        QTest::newRow("resnet50 graphturbo") << "resnet50"
                                             << "stcp920"
                                             << "graphturbo";
        QTest::newRow("resnet50 tvm") << "resnet50"
                                      << "stcp920"
                                      << "tvm";
    }
    void itselfIsEmpty() {
        QFETCH(QString, model);
        QFETCH(QString, arch);
        QFETCH(QString, strategy);
        const ir::Graph& graph = zoo.graph(model.toStdString(), batchOf(model.toStdString()));
        Schedule s = build(model.toStdString(), arch.toStdString(), strategy.toStdString());
        Schedule again = s;
        ScheduleDiff diff = diffSchedules(graph, s, again);
        QVERIFY(diff.empty());
        QCOMPARE(diff.matched.size(), s.groups.size());
        QCOMPARE(diff.commonInstances, static_cast<int64_t>(s.instances.size()));
        QVERIFY(diffSummary(diff, "a", "b").find("identical") != std::string::npos);
    }

    void graphturboVsTvmListsTheRegroupedOps() {
        const ir::Graph& graph = zoo.graph("resnet50", 1);
        Schedule gt = build("resnet50", "stcp920", "graphturbo");
        Schedule tvm = build("resnet50", "stcp920", "tvm");
        ScheduleDiff diff = diffSchedules(graph, gt, tvm);
        std::vector<ir::OpId> expected = coMembershipDiffers(graph, gt, tvm);
        QVERIFY(!expected.empty());
        QCOMPARE(regroupedOps(diff), expected);
        for (const RegroupedOp& r : diff.regrouped) {
            QCOMPARE(r.groupA, gt.partition.groupOf(r.op));
            QCOMPARE(r.groupB, tvm.partition.groupOf(r.op));
        }
        // The regrouped ops are exactly the ops of the unmatched groups, on both sides.
        std::set<ir::OpId> ofOnlyA, ofOnlyB;
        for (GroupId g : diff.onlyInA)
            ofOnlyA.insert(gt.partition.ops(g).begin(), gt.partition.ops(g).end());
        for (GroupId g : diff.onlyInB)
            ofOnlyB.insert(tvm.partition.ops(g).begin(), tvm.partition.ops(g).end());
        std::set<ir::OpId> listed(expected.begin(), expected.end());
        QCOMPARE(ofOnlyA, listed);
        QCOMPARE(ofOnlyB, listed);
        QCOMPARE(diff.matched.size() + diff.onlyInA.size(), gt.groups.size());
        QCOMPARE(diff.matched.size() + diff.onlyInB.size(), tvm.groups.size());
        // The reverse diff lists the same ops with the sides swapped.
        ScheduleDiff reverse = diffSchedules(graph, tvm, gt);
        QCOMPARE(regroupedOps(reverse), expected);
        QCOMPARE(reverse.onlyInA, diff.onlyInB);
        std::string summary = diffSummary(diff, "graphturbo", "tvm");
        QVERIFY2(summary.find(std::to_string(expected.size()) + " ops are regrouped") !=
                     std::string::npos,
                 summary.c_str());
    }

    void splitOverrideIsASplitDifferenceOnly() {
        const ir::Graph& graph = zoo.graph("fig3-chain");
        Schedule base = build("fig3-chain", "teaching", "graphturbo");
        Overrides o;
        o.splits.push_back({"stage4.conv1", 0, 2});
        Schedule edited = build("fig3-chain", "teaching", "graphturbo", o);
        ScheduleDiff diff = diffSchedules(graph, base, edited);
        QVERIFY(diff.regrouped.empty());
        QVERIFY(diff.onlyInA.empty());
        QVERIFY(diff.onlyInB.empty());
        QCOMPARE(diff.matched.size(), base.groups.size());
        QCOMPARE(diff.splits.size(), size_t(1));
        const SplitChange& change = diff.splits.front();
        GroupId group = base.partition.groupOf(*graph.findOp("stage4.conv1"));
        QCOMPARE(change.group.a, group);
        QVERIFY(change.overriddenB);
        QVERIFY(!change.overriddenA);
        QVERIFY(change.splitB.has_value());
        QCOMPARE(change.splitB->dim, 0);
        QCOMPARE(change.splitB->factor, int64_t(2));
        QCOMPARE(splitText(change.splitB), std::string("d=0 f=2"));
        for (const InstanceCountChange& c : diff.instanceCounts)
            QCOMPARE(c.group.a, group);
        // Instances of the re-split group are not paired, the others all are.
        auto resplit =
            static_cast<int64_t>(base.groups[static_cast<size_t>(group)].instances.size());
        QCOMPARE(diff.commonInstances, static_cast<int64_t>(base.instances.size()) - resplit);
        QVERIFY(diff.order.empty());
    }
};

QTEST_GUILESS_MAIN(TestScheduleDiff)
#include "test_schedule_diff.moc"
