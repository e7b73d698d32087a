// User overrides: applied at their step, refused with a reason when they
// would break an invariant; reschedule() equals a fresh buildSchedule().

#include "schedule_fixture.h"

using namespace stagecraft;
using namespace stagecraft::schedule;
using test::words;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

test::ZooGraphs zooGraphs; // one cache for every test, as the Qt suite had one object
/// Loaded on first use: a global initialized before main would read the
/// preset registry before it is initialized.
const arch::Arch& teaching() {
    static const arch::Arch arch = test::preset("teaching");
    return arch;
}

Expected<Schedule> run(const std::string& model, const Overrides& overrides) {
    ScheduleOptions options;
    options.overrides = overrides;
    return buildSchedule(zooGraphs.graph(model), teaching(), options);
}

void refused(const std::string& model, const Overrides& overrides,
             const std::vector<std::string>& parts) {
    auto s = run(model, overrides);
    ASSERT_TRUE(!s.ok()) << "the override was accepted";
    const std::string& message = s.error().message();
    ASSERT_TRUE(message.find('\n') == std::string::npos) << message.c_str();
    for (const std::string& part : parts)
        ASSERT_TRUE(contains(message, part)) << ((message + "  [missing: " + part + "]").c_str());
}
TEST(TestOverrides, splitOverrideChangesTheInstances) {
    Overrides o;
    o.splits.push_back({"stage4.conv1", 0, 2});
    auto s = run("fig3-chain", o);
    ASSERT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message().c_str());
    ASSERT_EQ(test::instanceCounts(*s), (std::vector<int64_t>{8, 4, 2, 2}));
    ASSERT_TRUE(s->groups[GroupId(3)].splitOverridden);
    ASSERT_TRUE(validateSchedule(zooGraphs.graph("fig3-chain"), teaching(), *s).ok());
}

TEST(TestOverrides, badSplits) {
    Overrides notDividing;
    notDividing.splits.push_back({"stage1.relu2", 0, 3});
    refused("fig3-chain", notDividing,
            {"split override for the group of 'stage1.relu2'", "factor 3 does not divide dim 0"});
    Overrides badDim;
    badDim.splits.push_back({"stage1.conv1", 7, 2});
    refused("fig3-chain", badDim, {"dim 7 is out of range"});
    Overrides tooBig;
    tooBig.splits.push_back({"stage1.conv1", 0, 2});
    refused("fig3-chain", tooBig, {"capacity", "65536 bytes", "28672"});
    Overrides unknown;
    unknown.splits.push_back({"no.such.op", 0, 2});
    refused("fig3-chain", unknown, {"unknown op 'no.such.op'"});
}

TEST(TestOverrides, mergeOverride) {
    Overrides o;
    o.merges.push_back({"stage3.conv1", "stage4.relu2"});
    auto s = run("fig3-chain", o);
    ASSERT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message().c_str());
    ASSERT_EQ(s->groups.size(), size_t(3));
    ASSERT_TRUE(validateSchedule(zooGraphs.graph("fig3-chain"), teaching(), *s).ok());
}

TEST(TestOverrides, mergeThatWouldCreateACycle) {
    Overrides o;
    o.merges.push_back({"stage1.conv1", "stage3.conv1"}); // stage 2 sits between them
    refused("fig3-chain", o,
            {"merge override", "would create a cycle through the group of 'stage2.conv1'"});
    Overrides same;
    same.merges.push_back({"stage1.conv1", "stage1.relu2"});
    refused("fig3-chain", same, {"already in group a"});
}

TEST(TestOverrides, ungroupOverride) {
    Overrides o;
    o.ungroups.push_back({"stage1.conv2"});
    auto s = run("fig3-chain", o);
    ASSERT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message().c_str());
    ASSERT_EQ(s->groups.size(), size_t(5));
    const ir::Graph& g = zooGraphs.graph("fig3-chain");
    ASSERT_EQ(g.op(s->partition.ops(GroupId(1)).front()).name, std::string("stage1.conv2"));
    Overrides first;
    first.ungroups.push_back({"stage1.conv1"});
    refused("fig3-chain", first, {"nothing would be split off"});
}

TEST(TestOverrides, userOrder) {
    Overrides o;
    o.order = words("a1 a2 b1 a3 a4 b2 c1 a5 a6 b3 a7 a8 b4 c2 d1");
    auto s = run("fig3-chain", o);
    ASSERT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message().c_str());
    ASSERT_EQ(s->orderKind, OrderKind::User);
    ASSERT_EQ(test::orderLabels(*s), o.order);
}

TEST(TestOverrides, badOrders) {
    Overrides reversed;
    reversed.order = words("d1 c2 c1 b4 b3 b2 b1 a8 a7 a6 a5 a4 a3 a2 a1");
    refused("fig3-chain", reversed,
            {"order override", "instance 'b1' comes before its producer 'a1'"});
    Overrides missing;
    missing.order = words("a1 a2 a3 a4 a5 a6 a7 a8 b1 b2 b3 b4 c1 c2");
    refused("fig3-chain", missing, {"instance 'd1' is missing", "14 of 15"});
    Overrides twice;
    twice.order = words("a1 a1 a2 a3 a4 a5 a6 a7 a8 b1 b2 b3 b4 c1 c2 d1");
    refused("fig3-chain", twice, {"'a1' appears twice"});
    Overrides unknown;
    unknown.order = words("z9");
    refused("fig3-chain", unknown, {"unknown instance 'z9'"});
}

TEST(TestOverrides, scopePins) {
    const ir::Graph& g = zooGraphs.graph("fig3-chain");
    Overrides o;
    o.scopes.push_back({g.tensor(g.op(*g.findOp("stage2.relu2")).outputs[0]).name, Scope::GB});
    auto s = run("fig3-chain", o);
    ASSERT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message().c_str());
    for (InstanceId i : s->groups[GroupId(1)].instances)
        ASSERT_EQ(s->instances[i].scope, Scope::GB);
    // b's output now comes from GB: its consumers copy it into LB (§3.5).
    bool copied = std::any_of(s->moves.begin(), s->moves.end(), [&](const DataMove& m) {
        return m.kind == DataMove::Kind::Copy && m.fromScope == Scope::GB;
    });
    ASSERT_TRUE(copied);

    Overrides internal;
    internal.scopes.push_back(
        {g.tensor(g.op(*g.findOp("stage2.relu1")).outputs[0]).name, Scope::GB});
    refused("fig3-chain", internal, {"scope pin", "not the output of a sub-graph", "group b"});
    Overrides input;
    input.scopes.push_back({"input", Scope::LB});
    refused("fig3-chain", input, {"graph input or weight"});
}

TEST(TestOverrides, rescheduleEqualsAFreshRun) {
    const ir::Graph& g = zooGraphs.graph("fig2-blocks");
    ScheduleOptions options;
    auto base = buildSchedule(g, teaching(), options);
    ASSERT_TRUE(base.ok());
    options.overrides.ungroups.push_back({"identity_block.conv1"});
    options.overrides.order.clear();
    auto again = reschedule(*base, g, teaching(), options);
    auto fresh = buildSchedule(g, teaching(), options);
    ASSERT_TRUE(again.ok() && fresh.ok());
    ASSERT_EQ(test::orderLabels(*again), test::orderLabels(*fresh));
    ASSERT_EQ(test::instanceCounts(*again), test::instanceCounts(*fresh));
    ASSERT_EQ(again->moves.size(), fresh->moves.size());
    ASSERT_EQ(again->grouping.get(), base->grouping.get()); // Algorithm 2 was not re-run
}
