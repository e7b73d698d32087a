// Schedule documents on a hand-built schedule: deterministic text, exact
// round trips, the read schedule equal to the written one, and every kind of
// bad document refused with one line naming the field.

#include "coretestsupport.h"
#include "io/schedule_json.h"
#include "schedule_fixture.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using namespace stagecraft;
using stagecraft::test::makeScheduleFixture;
using stagecraft::test::ScheduleFixture;
using Json = nlohmann::ordered_json;

namespace {

std::string written(const ScheduleFixture& f) {
    return io::writeScheduleJson(f.graph, f.schedule, f.info);
}

/// The fixture's document with \p value (JSON text, or "-" to remove the
/// member) at the JSON pointer \p pointer.
std::string mutated(const std::string& pointer, const std::string& value) {
    ScheduleFixture f = makeScheduleFixture();
    f.info.includeTrace = true;
    Json doc = Json::parse(written(f));
    Json::json_pointer at(pointer);
    if (value == "-") {
        Json& parent = doc.at(at.parent_pointer());
        if (parent.is_array())
            parent.erase(static_cast<size_t>(std::stoul(at.back())));
        else
            parent.erase(at.back());
    } else {
        doc[at] = Json::parse(value);
    }
    return doc.dump(2);
}

} // namespace

TEST(TestScheduleJson, writesTheContractLayout) {
    ScheduleFixture f = makeScheduleFixture();
    std::string text = written(f);
    ASSERT_TRUE(text.rfind("{\n  \"format\": \"stagecraft-schedule\",\n  \"version\": 1,\n", 0) ==
                0);
    ASSERT_EQ(text.back(), '\n');
    ASSERT_EQ((written(f)), (text));
    // Top-level keys in the documented order, each once.
    const char* keys[] = {"format",         "version",  "model",           "arch",       "level",
                          "capacity_bytes", "clusters", "order_choice",    "overrides",  "groups",
                          "instances",      "edges",    "redundant_edges", "order_kind", "order",
                          "utilization",    "inserted"};
    size_t last = 0;
    for (const char* key : keys) {
        std::string line = "\n  \"" + std::string(key) + "\": ";
        size_t at = text.find(line);
        ASSERT_TRUE(at != std::string::npos && at >= last) << key;
        last = at;
    }
    ASSERT_TRUE(text.find("\"trace\"") == std::string::npos);
    // Flat containers on one line, bindings trimmed as in Fig. 9.
    ASSERT_TRUE(text.find("\"shape\": [2, 8, 4, 4]") != std::string::npos);
    ASSERT_TRUE(text.find("\"bind\": [2, 2],") != std::string::npos);
    ASSERT_TRUE(text.find("{\"from\": \"a3\", \"to\": \"b1\"}") != std::string::npos);
    ASSERT_TRUE(text.find("{\"group\": 1, \"instance\": \"b1\"}") != std::string::npos);
    ASSERT_TRUE(text.find("\"from_scope\": \"GB\"") != std::string::npos);
}

TEST(TestScheduleJson, contentMatchesTheSchedule) {
    ScheduleFixture f = makeScheduleFixture();
    Json doc = Json::parse(written(f));
    ASSERT_EQ(doc["groups"].size(), size_t(2));
    ASSERT_EQ(doc["groups"][0]["ops"], Json({"conv1", "relu1"}));
    ASSERT_EQ(doc["groups"][0]["output"], Json("t2"));
    ASSERT_EQ(doc["groups"][0]["split"]["factor"], Json(4));
    ASSERT_EQ(doc["groups"][0]["instances"], Json(4));
    ASSERT_EQ(doc["instances"][3]["scope"], Json("GB"));
    ASSERT_EQ(doc["instances"][2]["fits_lb"], Json(false));
    ASSERT_EQ(doc["edges"].size(), size_t(4));
    ASSERT_EQ(doc["redundant_edges"], Json::parse(R"([{"from": "a3", "to": "b1"}])"));
    std::vector<std::string> order;
    for (const Json& step : doc["order"])
        order.push_back(step["instance"].get<std::string>());
    ASSERT_EQ(order, (std::vector<std::string>{"a1", "a2", "b1", "a3", "a4", "b2"}));
    ASSERT_EQ(doc["order_kind"], Json("dfs"));
    ASSERT_FUZZY_EQ(doc["utilization"]["dfs"].get<double>(), 2.0 / 3.0);
    ASSERT_EQ(doc["inserted"][0]["kind"], Json("concat"));
    ASSERT_TRUE(!doc["inserted"][0].contains("from_scope"));
    ASSERT_EQ(doc["clusters"]["per_cluster"], Json(8));
    ASSERT_EQ(doc["model"]["ops"], Json(4));
    ASSERT_EQ(doc["overrides"]["split"][0]["op"], Json("conv1"));
}

struct RoundTripIsExactRow {
    std::string rowLabel;
    bool trace;
};

std::vector<RoundTripIsExactRow> roundTripIsExactRows() {
    std::vector<RoundTripIsExactRow> rows;
    rows.push_back({"without trace", false});
    rows.push_back({"with trace", true});
    return rows;
}

class RoundTripIsExactRows : public ::testing::TestWithParam<RoundTripIsExactRow> {};

TEST_P(RoundTripIsExactRows, roundTripIsExact) {
    bool trace = GetParam().trace;
    ScheduleFixture f = makeScheduleFixture();
    f.info.includeTrace = trace;
    std::string first = written(f);
    auto read = io::readScheduleJson(first, f.graph, "fixture.json");
    ASSERT_TRUE(read.ok()) << (read.ok() ? "" : read.error().message().c_str());
    ASSERT_TRUE(test::sameDocInfo(read->info, f.info));
    std::string second = io::writeScheduleJson(f.graph, read->schedule, read->info);
    ASSERT_EQ((second), (first));
    ASSERT_EQ(second.find("\"trace\"") != std::string::npos, trace);
}

INSTANTIATE_TEST_SUITE_P(TestScheduleJson, RoundTripIsExactRows,
                         ::testing::ValuesIn(roundTripIsExactRows()), test::RowName{});

TEST(TestScheduleJson, readGivesTheWrittenSchedule) {
    ScheduleFixture f = makeScheduleFixture();
    f.info.includeTrace = true;
    auto read = io::readScheduleJson(written(f), f.graph, "fixture.json");
    ASSERT_TRUE(read.ok());
    const schedule::Schedule& a = f.schedule;
    const schedule::Schedule& b = read->schedule;
    ASSERT_EQ(b.partition.groupCount(), a.partition.groupCount());
    for (partition::GroupId g : a.groups.ids()) {
        ASSERT_TRUE(std::ranges::equal(b.partition.ops(g), a.partition.ops(g)));
        ASSERT_EQ(b.groups[g].split, a.groups[g].split);
        ASSERT_EQ(b.groups[g].splitInfo.candidates, a.groups[g].splitInfo.candidates);
        ASSERT_EQ(b.groups[g].splitInfo.best, a.groups[g].splitInfo.best);
        ASSERT_EQ(b.groups[g].splitInfo.output, a.groups[g].splitInfo.output);
        ASSERT_EQ(b.groups[g].splitInfo.peakBytes, a.groups[g].splitInfo.peakBytes);
        ASSERT_EQ(b.groups[g].instances, a.groups[g].instances);
    }
    ASSERT_EQ(b.instances.size(), a.instances.size());
    for (schedule::InstanceId i : a.instances.ids()) {
        ASSERT_EQ(b.instances[i].label, a.instances[i].label);
        ASSERT_EQ(b.instances[i].shape, a.instances[i].shape);
        ASSERT_EQ(b.instances[i].bind, a.instances[i].bind);
        ASSERT_EQ(b.instances[i].scope, a.instances[i].scope);
        ASSERT_EQ(b.instances[i].footprintBytes, a.instances[i].footprintBytes);
        ASSERT_EQ(b.instances[i].fitsLocalBuffer, a.instances[i].fitsLocalBuffer);
    }
    ASSERT_EQ(b.edges.size(), a.edges.size());
    for (size_t e = 0; e < a.edges.size(); ++e) {
        ASSERT_EQ(b.edges[e].from, a.edges[e].from);
        ASSERT_EQ(b.edges[e].to, a.edges[e].to);
        ASSERT_EQ(b.edges[e].redundant, a.edges[e].redundant);
    }
    ASSERT_EQ(b.order, a.order);
    ASSERT_EQ(b.orderKind, a.orderKind);
    ASSERT_FUZZY_EQ(b.bfsUtilization, a.bfsUtilization);
    ASSERT_FUZZY_EQ(b.dfsUtilization, a.dfsUtilization);
    ASSERT_EQ(b.moves.size(), a.moves.size());
    for (size_t m = 0; m < a.moves.size(); ++m) {
        ASSERT_EQ(b.moves[m].kind, a.moves[m].kind);
        ASSERT_EQ(b.moves[m].sources, a.moves[m].sources);
        ASSERT_EQ(b.moves[m].bind, a.moves[m].bind);
        ASSERT_EQ(b.moves[m].fromScope, a.moves[m].fromScope);
    }
    ASSERT_EQ(b.clusters.perCluster, a.clusters.perCluster);
    ASSERT_EQ(b.clusters.chosenBy, a.clusters.chosenBy);
    ASSERT_EQ(b.capacityBytes, a.capacityBytes);
    ASSERT_EQ(b.trace.merges[0].parts, a.trace.merges[0].parts);
    ASSERT_EQ(b.trace.order[0].ready, a.trace.order[0].ready);
    ASSERT_EQ(b.trace.binding[0].bind, a.trace.binding[0].bind);
}

TEST(TestScheduleJson, baselineStepsAndStagesRoundTripAndAreOptional) {
    ScheduleFixture f = makeScheduleFixture();
    f.info.includeTrace = true;
    std::string without = written(f);
    for (const char* key : {"\"ago\"", "\"dla\"", "\"ios\"", "\"first_core\"", "\"joins_stage\""})
        ASSERT_FALSE(test::containsText(without, key)) << key;
    partition::AgoStep ago;
    ago.into = ir::OpId(2);
    ago.taken = ir::OpId(3);
    ago.intoOps = 1;
    ago.takenOps = 1;
    ago.intoWeight = 12.5;
    ago.takenWeight = 3.25;
    ago.threshold = 40;
    ago.explanation = "CLUSTER (AGO §IV-B): conv2 takes relu2";
    partition::DlaStep dla;
    dla.first = ir::OpId(0);
    dla.ops = 4;
    dla.parts = {ir::OpId(0), ir::OpId(2)};
    dla.partSizes = {2, 2};
    dla.explanation = "DLA §3: two parts";
    partition::IosStep ios;
    ios.block = 1;
    ios.units = 3;
    ios.states = 5;
    ios.transitions = 7;
    ios.groups = {ir::OpId(1), ir::OpId(3)};
    ios.groupSizes = {2, 1};
    ios.latencyNs = 1250.5;
    ios.stateUnits = 3;
    ios.stateCostNs = 2500.25;
    ios.endings = 4;
    ios.runnerUpNs = 2600;
    ios.explanation = "IOS Algorithm 1, block 2: two groups at once";
    f.schedule.trace.ago = {ago};
    f.schedule.trace.dla = {dla};
    f.schedule.trace.ios = {ios};
    f.schedule.instances[schedule::InstanceId::at(1)].firstCore = 2;
    f.schedule.instances[schedule::InstanceId::at(1)].joinsStage = true;
    std::string text = written(f);
    auto read = io::readScheduleJson(text, f.graph, "steps.json");
    ASSERT_TRUE(read.ok()) << read.error().message();
    const partition::Trace& t = read->schedule.trace;
    ASSERT_EQ(t.ago.size(), size_t{1});
    EXPECT_EQ(t.ago[0].into, ir::OpId(2));
    EXPECT_EQ(t.ago[0].taken, ir::OpId(3));
    EXPECT_DOUBLE_EQ(t.ago[0].intoWeight, 12.5);
    EXPECT_DOUBLE_EQ(t.ago[0].takenWeight, 3.25);
    EXPECT_DOUBLE_EQ(t.ago[0].threshold, 40);
    EXPECT_EQ(t.ago[0].explanation, ago.explanation);
    ASSERT_EQ(t.dla.size(), size_t{1});
    EXPECT_EQ(t.dla[0].parts, dla.parts);
    EXPECT_EQ(t.dla[0].partSizes, dla.partSizes);
    EXPECT_TRUE(t.dla[0].onAccelerator);
    ASSERT_EQ(t.ios.size(), size_t{1});
    EXPECT_EQ(t.ios[0].groups, ios.groups);
    EXPECT_EQ(t.ios[0].groupSizes, ios.groupSizes);
    EXPECT_EQ(t.ios[0].transitions, 7);
    EXPECT_DOUBLE_EQ(t.ios[0].latencyNs, 1250.5);
    EXPECT_FALSE(t.ios[0].merged);
    EXPECT_EQ(t.ios[0].stateUnits, 3);
    EXPECT_DOUBLE_EQ(t.ios[0].stateCostNs, 2500.25);
    EXPECT_EQ(t.ios[0].endings, 4);
    EXPECT_DOUBLE_EQ(t.ios[0].runnerUpNs, 2600);
    EXPECT_EQ(read->schedule.instances[schedule::InstanceId::at(1)].firstCore, 2);
    EXPECT_TRUE(read->schedule.instances[schedule::InstanceId::at(1)].joinsStage);
    EXPECT_FALSE(read->schedule.instances[schedule::InstanceId::at(0)].joinsStage);
    EXPECT_EQ(io::writeScheduleJson(f.graph, read->schedule, read->info), text);
}

struct RefusesBadDocumentsRow {
    std::string rowLabel;
    std::string pointer;
    std::string value;
    std::string message;
};

std::vector<RefusesBadDocumentsRow> refusesBadDocumentsRows() {
    std::vector<RefusesBadDocumentsRow> rows;
    auto row = [&rows](const char* name, const char* pointer, const char* value,
                       const char* message) {
        rows.push_back({name, std::string(pointer), std::string(value), std::string(message)});
    };
    row("format", "/format", R"("stagecraft-arch")",
        "format: must be 'stagecraft-schedule' (got 'stagecraft-arch')");
    row("version", "/version", "2", "version: unsupported version 2");
    row("unknown key", "/colour", "1", "unknown field 'colour'");
    row("missing arch", "/arch", "-", "arch: missing");
    row("model of other size", "/model/ops", "5",
        "model.ops: the document is for a model with 5 ops, this one has 4");
    row("clusters", "/clusters/iterations", "3",
        "clusters: total_batch 32 is not count x per_cluster x iterations");
    row("order choice", "/order_choice", R"("fast")", "order_choice: unknown order 'fast'");
    row("override factor", "/overrides/split/0/factor", "0",
        "overrides.split[0].factor: must be an integer >= 1 (got 0)");
    row("unknown op", "/groups/1/ops/1", R"("conv9")", "groups[1].ops[1]: unknown op 'conv9'");
    row("op twice", "/groups/1/ops/0", R"("relu1")",
        "groups[1].ops[0]: op 'relu1' is already in group a");
    row("op in no group", "/groups/1/ops/1", "-", "groups: op 'relu2' is in no group");
    row("no ops", "/groups/1/ops", "[]", "groups[1].ops: must list at least one op");
    row("group id", "/groups/1/id", "0", "groups[1].id: must be 1");
    row("group label", "/groups/1/label", R"("x")", "groups[1].label: must be 'b'");
    row("group output", "/groups/0/output", R"("t4")",
        "groups[0].output: tensor 't4' is not produced by group a");
    row("group shape", "/groups/0/shape", "[8]",
        "groups[0].shape: must be the shape of 't2' (8x8x4x4)");
    row("split factor", "/groups/0/split/factor", "3",
        "groups[0].split.factor: 3 does not divide dim 0 of 't2' (extent 8)");
    row("split dim", "/groups/0/split_info/candidates/1/dim", "4",
        "groups[0].split_info.candidates[1].dim: dim 4 is out of range for 't2'");
    row("recompute", "/groups/0/split_info/best/recompute", R"("lots")",
        "groups[0].split_info.best.recompute: must be a number >= 0");
    row("instance count", "/groups/0/instances", "2",
        "groups[0].instances: must be 4, the split factor (got 2)");
    row("instance label", "/instances/0/label", R"("z1")",
        "instances[0].label: must be 'a1' (got 'z1')");
    row("instance group", "/instances/0/group", "9",
        "instances[0].group: no group 9 (the document has 2)");
    row("instance index", "/instances/0/index", "0",
        "instances[0].index: must be an integer >= 1 (got 0)");
    row("instance index past", "/instances/0/index", "5",
        "instances[0].index: 5 is past the 4 instances of group a");
    row("instance twice", "/instances/1", R"({"label": "a1", "group": 0, "index": 1,
            "shape": [2, 8, 4, 4], "footprint_bytes": 1, "fits_lb": true, "bind": [],
            "scope": "LB"})",
        "instances[1]: instance 'a1' is listed twice");
    row("instance missing", "/instances/5", "-", "instances: instance 'b2' is missing");
    row("instance rank", "/instances/0/shape", "[2, 8]",
        "instances[0].shape: has rank 2 but the group output 't2' has rank 4");
    row("scope", "/instances/0/scope", R"("L2")",
        "instances[0].scope: unknown scope 'L2' (expected LB, GB or DDR)");
    row("bind too long", "/instances/0/bind", "[2, 1, 1, 1, 2]",
        "instances[0].bind: has 5 factors but the tensor has rank 4");
    row("bind zero", "/instances/0/bind/0", "0",
        "instances[0].bind[0]: must be an integer >= 1 (got 0)");
    row("edge end", "/edges/0/from", R"("q7")", "edges[0].from: unknown instance 'q7'");
    row("edge backwards", "/edges/0", R"({"from": "b1", "to": "a1"})",
        "edges[0]: 'b1' -> 'a1' does not follow a group edge");
    row("edge twice", "/redundant_edges/0", R"({"from": "a1", "to": "b1"})",
        "redundant_edges[0]: edge 'a1' -> 'b1' is listed twice");
    row("order kind", "/order_kind", R"("random")", "order_kind: unknown order kind 'random'");
    row("order twice", "/order/0", R"({"group": 1, "instance": "b1"})",
        "order[2]: instance 'b1' is listed twice");
    row("order missing", "/order/5", "-", "order: instance 'b2' is missing");
    row("order group", "/order/0/group", "1", "order[0].group: instance 'a1' is in group 0, not 1");
    row("utilization", "/utilization/bfs", "-1", "utilization.bfs: must be a number >= 0 (got -1)");
    row("move kind", "/inserted/0/kind", R"("move")",
        "inserted[0].kind: unknown kind 'move' (expected concat, copy or redistribute)");
    row("move tensor", "/inserted/0/tensor", R"("nope")",
        "inserted[0].tensor: unknown tensor 'nope'");
    row("move source group", "/inserted/0/sources/0", R"("b2")",
        "inserted[0].sources[0]: tensor 't2' is not an output of group b");
    row("copy sources", "/inserted/1/sources", R"(["a3", "a4"])",
        "inserted[1].sources: must list exactly one source instance (got 2)");
    row("copy without from", "/inserted/1/from_scope", "-", "inserted[1].from_scope: missing");
    row("concat with from", "/inserted/0/from_scope", R"("GB")",
        "inserted[0].from_scope: only a copy has from_scope");
    row("move shape", "/inserted/0/shape", "[4, 8]",
        "inserted[0].shape: has rank 2 but 't2' has rank 4");
    row("trace op", "/trace/merges/0/parts/0", R"("conv9")",
        "trace.merges[0].parts[0]: unknown op 'conv9'");
    row("trace lengths", "/trace/merges/0/factors", "[4]",
        "trace.merges[0]: parts, part_sizes and factors must have the same length");
    row("trace pattern", "/trace/merges/0/pattern", R"("zigzag")",
        "trace.merges[0].pattern: unknown value 'zigzag'");
    row("trace visit", "/trace/order/0/visit/1", R"("x9")",
        "trace.order[0].visit[1]: unknown instance 'x9'");
    row("trace action", "/trace/binding/0/action", R"("guess")",
        "trace.binding[0].action: unknown value 'guess'");
    row("trace scope", "/trace/binding/0/scope", R"("HBM")",
        "trace.binding[0].scope: unknown scope 'HBM'");
    row("ago op", "/trace/ago",
        R"([{"into": "conv9", "taken": "relu1", "into_ops": 1, "taken_ops": 1,
             "into_weight": 2.5, "taken_weight": 1, "threshold": 9, "explanation": ""}])",
        "trace.ago[0].into: unknown op 'conv9'");
    row("ago weight", "/trace/ago",
        R"([{"into": "conv1", "taken": "relu1", "into_ops": 1, "taken_ops": 1,
             "into_weight": "heavy", "taken_weight": 1, "threshold": 9, "explanation": ""}])",
        "trace.ago[0].into_weight: must be a number >= 0");
    row("dla lengths", "/trace/dla",
        R"([{"first": "conv1", "ops": 4, "on_accelerator": true, "parts": ["conv1", "conv2"],
             "part_sizes": [4], "explanation": ""}])",
        "trace.dla[0]: parts and part_sizes must have the same length");
    row("dla unknown key", "/trace/dla",
        R"([{"first": "conv1", "ops": 4, "on_cpu": true, "parts": [], "part_sizes": [],
             "explanation": ""}])",
        "trace.dla[0]: unknown field 'on_cpu'");
    return rows;
}

class RefusesBadDocumentsRows : public ::testing::TestWithParam<RefusesBadDocumentsRow> {};

TEST_P(RefusesBadDocumentsRows, refusesBadDocuments) {
    std::string pointer = GetParam().pointer;
    std::string value = GetParam().value;
    std::string message = GetParam().message;
    ScheduleFixture f = makeScheduleFixture();
    auto read = io::readScheduleJson(mutated(pointer, value), f.graph, "bad.json");
    ASSERT_TRUE(!read.ok());
    std::string error = (read.error().message());
    ASSERT_TRUE(error.starts_with(std::string("bad.json: ") + message)) << (error);
    ASSERT_TRUE(!test::containsText(error, '\n'));
}

INSTANTIATE_TEST_SUITE_P(TestScheduleJson, RefusesBadDocumentsRows,
                         ::testing::ValuesIn(refusesBadDocumentsRows()), test::RowName{});

TEST(TestScheduleJson, refusesAnOrderAgainstTheEdges) {
    // b1 before its producer a2: the edge a2 -> b1 is violated.
    ScheduleFixture f = makeScheduleFixture();
    std::swap(f.schedule.order[1], f.schedule.order[2]);
    auto read = io::readScheduleJson(written(f), f.graph, "bad.json");
    ASSERT_TRUE(!read.ok());
    std::string error = (read.error().message());
    ASSERT_TRUE(error.starts_with(std::string("bad.json: order: "))) << (error);
    ASSERT_TRUE(test::containsText(error, std::string("b1")) &&
                test::containsText(error, std::string("a2")))
        << (error);
}

TEST(TestScheduleJson, refusesGroupsOutOfTopologicalOrder) {
    // Both groups listed with swapped contents: ids and labels still 0, 1
    // and a, b, but group 0 now reads group 1.
    ScheduleFixture f = makeScheduleFixture();
    Json doc = Json::parse(written(f));
    std::swap(doc["groups"][0]["ops"], doc["groups"][1]["ops"]);
    auto read = io::readScheduleJson(doc.dump(), f.graph, "");
    ASSERT_TRUE(!read.ok());
    ASSERT_EQ((read.error().message()),
              std::string("groups[0]: groups must be listed in the topological order of "
                          "the partition (this group is number 1)"));
}

struct RefusesTextRow {
    std::string rowLabel;
    std::string text;
    std::string message;
};

std::vector<RefusesTextRow> refusesTextRows() {
    std::vector<RefusesTextRow> rows;
    rows.push_back({"not json", std::string("{\"format\": "), std::string("not valid JSON: ")});
    rows.push_back({"array", std::string("[]"), std::string("must be a JSON object")});
    rows.push_back({"overrides file",
                    std::string(R"({"format": "stagecraft-overrides", "version": 1})"),
                    std::string("format: must be 'stagecraft-schedule'")});
    return rows;
}

class RefusesTextRows : public ::testing::TestWithParam<RefusesTextRow> {};

TEST_P(RefusesTextRows, refusesText) {
    std::string text = GetParam().text;
    std::string message = GetParam().message;
    ScheduleFixture f = makeScheduleFixture();
    auto read = io::readScheduleJson(text, f.graph, "t.json");
    ASSERT_TRUE(!read.ok());
    std::string error = (read.error().message());
    ASSERT_TRUE(error.starts_with(std::string("t.json: ")) && test::containsText(error, message))
        << (error);
}

INSTANTIATE_TEST_SUITE_P(TestScheduleJson, RefusesTextRows, ::testing::ValuesIn(refusesTextRows()),
                         test::RowName{});
