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
        test::fatal("no strategy %s", strategy.c_str());
    ScheduleOptions options;
    options.recordTrace = false;
    options.grouping = s->grouping;
    options.splitGroups = s->splitsGroups;
    options.forcedScope = s->forcedScope;
    options.overrides = overrides;
    return options;
}

/// Ops x for which some op y shares x's group in one partition only.
std::vector<ir::OpId> coMembershipDiffers(const ir::Graph& graph, const Schedule& a,
                                          const Schedule& b) {
    std::vector<ir::OpId> ops;
    for (ir::OpId x : graph.opIds()) {
        for (ir::OpId y : graph.opIds()) {
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

test::ZooGraphs zooGraphs; // one cache for every test, as the Qt suite had one object

Schedule build(const std::string& model, const std::string& archName, const std::string& strategy,
               const Overrides& overrides = {}) {
    auto s = buildSchedule(zooGraphs.graph(model, batchOf(model)), test::preset(archName),
                           strategyOptions(strategy, overrides));
    if (!s.ok())
        test::fatal("%s", s.error().message().c_str());
    return std::move(s).value();
}
struct ItselfIsEmptyRow {
    std::string rowLabel;
    std::string model;
    std::string arch;
    std::string strategy;
};

std::vector<ItselfIsEmptyRow> itselfIsEmptyRows() {
    std::vector<ItselfIsEmptyRow> rows;
    rows.push_back({"fig3 graphturbo", "fig3-chain", "teaching", "graphturbo"});
    rows.push_back({"resnet50 graphturbo", "resnet50", "stcp920", "graphturbo"});
    rows.push_back({"resnet50 tvm", "resnet50", "stcp920", "tvm"});
    return rows;
}

class ItselfIsEmptyRows : public ::testing::TestWithParam<ItselfIsEmptyRow> {};

TEST_P(ItselfIsEmptyRows, itselfIsEmpty) {
    std::string model = GetParam().model;
    std::string arch = GetParam().arch;
    std::string strategy = GetParam().strategy;
    const ir::Graph& graph = zooGraphs.graph(model, batchOf(model));
    Schedule s = build(model, arch, strategy);
    Schedule again = s;
    ScheduleDiff diff = diffSchedules(graph, s, again);
    ASSERT_TRUE(diff.empty());
    ASSERT_EQ(diff.matched.size(), s.groups.size());
    ASSERT_EQ(diff.commonInstances, static_cast<int64_t>(s.instances.size()));
    ASSERT_TRUE(diffSummary(diff, "a", "b").find("identical") != std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(TestScheduleDiff, ItselfIsEmptyRows,
                         ::testing::ValuesIn(itselfIsEmptyRows()), test::RowName{});

TEST(TestScheduleDiff, graphturboVsTvmListsTheRegroupedOps) {
    const ir::Graph& graph = zooGraphs.graph("resnet50", 1);
    Schedule gt = build("resnet50", "stcp920", "graphturbo");
    Schedule tvm = build("resnet50", "stcp920", "tvm");
    ScheduleDiff diff = diffSchedules(graph, gt, tvm);
    std::vector<ir::OpId> expected = coMembershipDiffers(graph, gt, tvm);
    ASSERT_TRUE(!expected.empty());
    ASSERT_EQ(regroupedOps(diff), expected);
    for (const RegroupedOp& r : diff.regrouped) {
        ASSERT_EQ(r.groupA, gt.partition.groupOf(r.op));
        ASSERT_EQ(r.groupB, tvm.partition.groupOf(r.op));
    }
    // The regrouped ops are exactly the ops of the unmatched groups, on both sides.
    std::set<ir::OpId> ofOnlyA, ofOnlyB;
    for (GroupId g : diff.onlyInA)
        ofOnlyA.insert(gt.partition.ops(g).begin(), gt.partition.ops(g).end());
    for (GroupId g : diff.onlyInB)
        ofOnlyB.insert(tvm.partition.ops(g).begin(), tvm.partition.ops(g).end());
    std::set<ir::OpId> listed(expected.begin(), expected.end());
    ASSERT_EQ(ofOnlyA, listed);
    ASSERT_EQ(ofOnlyB, listed);
    ASSERT_EQ(diff.matched.size() + diff.onlyInA.size(), gt.groups.size());
    ASSERT_EQ(diff.matched.size() + diff.onlyInB.size(), tvm.groups.size());
    // The reverse diff lists the same ops with the sides swapped.
    ScheduleDiff reverse = diffSchedules(graph, tvm, gt);
    ASSERT_EQ(regroupedOps(reverse), expected);
    ASSERT_EQ(reverse.onlyInA, diff.onlyInB);
    std::string summary = diffSummary(diff, "graphturbo", "tvm");
    ASSERT_TRUE(summary.find(std::to_string(expected.size()) + " ops are regrouped") !=
                std::string::npos)
        << summary.c_str();
}

TEST(TestScheduleDiff, splitOverrideIsASplitDifferenceOnly) {
    const ir::Graph& graph = zooGraphs.graph("fig3-chain");
    Schedule base = build("fig3-chain", "teaching", "graphturbo");
    Overrides o;
    o.splits.push_back({"stage4.conv1", 0, 2});
    Schedule edited = build("fig3-chain", "teaching", "graphturbo", o);
    ScheduleDiff diff = diffSchedules(graph, base, edited);
    ASSERT_TRUE(diff.regrouped.empty());
    ASSERT_TRUE(diff.onlyInA.empty());
    ASSERT_TRUE(diff.onlyInB.empty());
    ASSERT_EQ(diff.matched.size(), base.groups.size());
    ASSERT_EQ(diff.splits.size(), size_t(1));
    const SplitChange& change = diff.splits.front();
    GroupId group = base.partition.groupOf(*graph.findOp("stage4.conv1"));
    ASSERT_EQ(change.group.a, group);
    ASSERT_TRUE(change.overriddenB);
    ASSERT_TRUE(!change.overriddenA);
    ASSERT_TRUE(change.splitB.has_value());
    ASSERT_EQ(change.splitB->dim, 0);
    ASSERT_EQ(change.splitB->factor, int64_t(2));
    ASSERT_EQ(splitText(change.splitB), std::string("d=0 f=2"));
    for (const InstanceCountChange& c : diff.instanceCounts)
        ASSERT_EQ(c.group.a, group);
    // Instances of the re-split group are not paired, the others all are.
    auto resplit = static_cast<int64_t>(base.groups[group].instances.size());
    ASSERT_EQ(diff.commonInstances, static_cast<int64_t>(base.instances.size()) - resplit);
    ASSERT_TRUE(diff.order.empty());
}

TEST(TestScheduleDiff, theSummaryCountsInTheSingular) {
    ScheduleDiff diff;
    diff.groupsA = 1;
    diff.instancesA = 1;
    diff.groupsB = 2;
    diff.instancesB = 3;
    std::string summary = diffSummary(diff, "a", "b");
    ASSERT_EQ(summary.rfind("a has 1 group and 1 instance, b has 2 groups and 3 instances. ", 0),
              0u)
        << summary;
}
