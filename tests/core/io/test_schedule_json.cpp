// Schedule documents on a hand-built schedule: deterministic text, exact
// round trips, the read schedule equal to the written one, and every kind of
// bad document refused with one line naming the field.

#include "io/schedule_json.h"
#include "schedule_fixture.h"

#include <QtTest>
#include <nlohmann/json.hpp>

using namespace stagecraft;
using stagecraft::test::makeScheduleFixture;
using stagecraft::test::ScheduleFixture;
using Json = nlohmann::ordered_json;

Q_DECLARE_METATYPE(std::string)

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

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

class TestScheduleJson : public QObject {
    Q_OBJECT
private slots:
    void writesTheContractLayout() {
        ScheduleFixture f = makeScheduleFixture();
        std::string text = written(f);
        QVERIFY(text.rfind("{\n  \"format\": \"stagecraft-schedule\",\n  \"version\": 1,\n", 0) ==
                0);
        QCOMPARE(text.back(), '\n');
        QCOMPARE(qs(written(f)), qs(text));
        // Top-level keys in the documented order, each once.
        const char* keys[] = {"format",          "version",        "model",     "arch",
                              "level",           "capacity_bytes", "clusters",  "order_choice",
                              "overrides",       "groups",         "instances", "edges",
                              "redundant_edges", "order_kind",     "order",     "utilization",
                              "inserted"};
        size_t last = 0;
        for (const char* key : keys) {
            std::string line = "\n  \"" + std::string(key) + "\": ";
            size_t at = text.find(line);
            QVERIFY2(at != std::string::npos && at >= last, key);
            last = at;
        }
        QVERIFY(text.find("\"trace\"") == std::string::npos);
        // Flat containers on one line, bindings trimmed as in Fig. 9.
        QVERIFY(text.find("\"shape\": [2, 8, 4, 4]") != std::string::npos);
        QVERIFY(text.find("\"bind\": [2, 2],") != std::string::npos);
        QVERIFY(text.find("{\"from\": \"a3\", \"to\": \"b1\"}") != std::string::npos);
        QVERIFY(text.find("{\"group\": 1, \"instance\": \"b1\"}") != std::string::npos);
        QVERIFY(text.find("\"from_scope\": \"GB\"") != std::string::npos);
    }

    void contentMatchesTheSchedule() {
        ScheduleFixture f = makeScheduleFixture();
        Json doc = Json::parse(written(f));
        QCOMPARE(doc["groups"].size(), size_t(2));
        QCOMPARE(doc["groups"][0]["ops"], Json({"conv1", "relu1"}));
        QCOMPARE(doc["groups"][0]["output"], Json("t2"));
        QCOMPARE(doc["groups"][0]["split"]["factor"], Json(4));
        QCOMPARE(doc["groups"][0]["instances"], Json(4));
        QCOMPARE(doc["instances"][3]["scope"], Json("GB"));
        QCOMPARE(doc["instances"][2]["fits_lb"], Json(false));
        QCOMPARE(doc["edges"].size(), size_t(4));
        QCOMPARE(doc["redundant_edges"], Json::parse(R"([{"from": "a3", "to": "b1"}])"));
        std::vector<std::string> order;
        for (const Json& step : doc["order"])
            order.push_back(step["instance"].get<std::string>());
        QCOMPARE(order, (std::vector<std::string>{"a1", "a2", "b1", "a3", "a4", "b2"}));
        QCOMPARE(doc["order_kind"], Json("dfs"));
        QCOMPARE(doc["utilization"]["dfs"].get<double>(), 2.0 / 3.0);
        QCOMPARE(doc["inserted"][0]["kind"], Json("concat"));
        QVERIFY(!doc["inserted"][0].contains("from_scope"));
        QCOMPARE(doc["clusters"]["per_cluster"], Json(8));
        QCOMPARE(doc["model"]["ops"], Json(4));
        QCOMPARE(doc["overrides"]["split"][0]["op"], Json("conv1"));
    }

    void roundTripIsExact_data() {
        QTest::addColumn<bool>("trace");
        QTest::newRow("without trace") << false;
        QTest::newRow("with trace") << true;
    }
    void roundTripIsExact() {
        QFETCH(bool, trace);
        ScheduleFixture f = makeScheduleFixture();
        f.info.includeTrace = trace;
        std::string first = written(f);
        auto read = io::readScheduleJson(first, f.graph, "fixture.json");
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message().c_str());
        QVERIFY(test::sameDocInfo(read->info, f.info));
        std::string second = io::writeScheduleJson(f.graph, read->schedule, read->info);
        QCOMPARE(qs(second), qs(first));
        QCOMPARE(second.find("\"trace\"") != std::string::npos, trace);
    }

    void readGivesTheWrittenSchedule() {
        ScheduleFixture f = makeScheduleFixture();
        f.info.includeTrace = true;
        auto read = io::readScheduleJson(written(f), f.graph, "fixture.json");
        QVERIFY(read.ok());
        const schedule::Schedule& a = f.schedule;
        const schedule::Schedule& b = read->schedule;
        QCOMPARE(b.partition.groupCount(), a.partition.groupCount());
        for (size_t g = 0; g < a.groups.size(); ++g) {
            auto id = static_cast<schedule::GroupId>(g);
            QVERIFY(std::ranges::equal(b.partition.ops(id), a.partition.ops(id)));
            QCOMPARE(b.groups[g].split, a.groups[g].split);
            QCOMPARE(b.groups[g].splitInfo.candidates, a.groups[g].splitInfo.candidates);
            QCOMPARE(b.groups[g].splitInfo.best, a.groups[g].splitInfo.best);
            QCOMPARE(b.groups[g].splitInfo.output, a.groups[g].splitInfo.output);
            QCOMPARE(b.groups[g].splitInfo.peakBytes, a.groups[g].splitInfo.peakBytes);
            QCOMPARE(b.groups[g].instances, a.groups[g].instances);
        }
        QCOMPARE(b.instances.size(), a.instances.size());
        for (size_t i = 0; i < a.instances.size(); ++i) {
            QCOMPARE(b.instances[i].label, a.instances[i].label);
            QCOMPARE(b.instances[i].shape, a.instances[i].shape);
            QCOMPARE(b.instances[i].bind, a.instances[i].bind);
            QCOMPARE(b.instances[i].scope, a.instances[i].scope);
            QCOMPARE(b.instances[i].footprintBytes, a.instances[i].footprintBytes);
            QCOMPARE(b.instances[i].fitsLocalBuffer, a.instances[i].fitsLocalBuffer);
        }
        QCOMPARE(b.edges.size(), a.edges.size());
        for (size_t e = 0; e < a.edges.size(); ++e) {
            QCOMPARE(b.edges[e].from, a.edges[e].from);
            QCOMPARE(b.edges[e].to, a.edges[e].to);
            QCOMPARE(b.edges[e].redundant, a.edges[e].redundant);
        }
        QCOMPARE(b.order, a.order);
        QCOMPARE(b.orderKind, a.orderKind);
        QCOMPARE(b.bfsUtilization, a.bfsUtilization);
        QCOMPARE(b.dfsUtilization, a.dfsUtilization);
        QCOMPARE(b.moves.size(), a.moves.size());
        for (size_t m = 0; m < a.moves.size(); ++m) {
            QCOMPARE(b.moves[m].kind, a.moves[m].kind);
            QCOMPARE(b.moves[m].sources, a.moves[m].sources);
            QCOMPARE(b.moves[m].bind, a.moves[m].bind);
            QCOMPARE(b.moves[m].fromScope, a.moves[m].fromScope);
        }
        QCOMPARE(b.clusters.perCluster, a.clusters.perCluster);
        QCOMPARE(b.clusters.chosenBy, a.clusters.chosenBy);
        QCOMPARE(b.capacityBytes, a.capacityBytes);
        QCOMPARE(b.trace.merges[0].parts, a.trace.merges[0].parts);
        QCOMPARE(b.trace.order[0].ready, a.trace.order[0].ready);
        QCOMPARE(b.trace.binding[0].bind, a.trace.binding[0].bind);
    }

    void refusesBadDocuments_data() {
        QTest::addColumn<std::string>("pointer");
        QTest::addColumn<std::string>("value");
        QTest::addColumn<QString>("message");
        auto row = [](const char* name, const char* pointer, const char* value,
                      const char* message) {
            QTest::newRow(name) << std::string(pointer) << std::string(value)
                                << QString::fromUtf8(message);
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
        row("order group", "/order/0/group", "1",
            "order[0].group: instance 'a1' is in group 0, not 1");
        row("utilization", "/utilization/bfs", "-1",
            "utilization.bfs: must be a number >= 0 (got -1)");
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
    }
    void refusesBadDocuments() {
        QFETCH(std::string, pointer);
        QFETCH(std::string, value);
        QFETCH(QString, message);
        ScheduleFixture f = makeScheduleFixture();
        auto read = io::readScheduleJson(mutated(pointer, value), f.graph, "bad.json");
        QVERIFY(!read.ok());
        QString error = qs(read.error().message());
        QVERIFY2(error.startsWith(QStringLiteral("bad.json: ") + message), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
    }

    void refusesAnOrderAgainstTheEdges() {
        // b1 before its producer a2: the edge a2 -> b1 is violated.
        ScheduleFixture f = makeScheduleFixture();
        std::swap(f.schedule.order[1], f.schedule.order[2]);
        auto read = io::readScheduleJson(written(f), f.graph, "bad.json");
        QVERIFY(!read.ok());
        QString error = qs(read.error().message());
        QVERIFY2(error.startsWith(QStringLiteral("bad.json: order: ")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("b1")) && error.contains(QStringLiteral("a2")),
                 qPrintable(error));
    }

    void refusesGroupsOutOfTopologicalOrder() {
        // Both groups listed with swapped contents: ids and labels still 0, 1
        // and a, b, but group 0 now reads group 1.
        ScheduleFixture f = makeScheduleFixture();
        Json doc = Json::parse(written(f));
        std::swap(doc["groups"][0]["ops"], doc["groups"][1]["ops"]);
        auto read = io::readScheduleJson(doc.dump(), f.graph, "");
        QVERIFY(!read.ok());
        QCOMPARE(qs(read.error().message()),
                 QStringLiteral("groups[0]: groups must be listed in the topological order of "
                                "the partition (this group is number 1)"));
    }

    void refusesText_data() {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << std::string("{\"format\": ")
                                  << QStringLiteral("not valid JSON: ");
        QTest::newRow("array") << std::string("[]") << QStringLiteral("must be a JSON object");
        QTest::newRow("overrides file")
            << std::string(R"({"format": "stagecraft-overrides", "version": 1})")
            << QStringLiteral("format: must be 'stagecraft-schedule'");
    }
    void refusesText() {
        QFETCH(std::string, text);
        QFETCH(QString, message);
        ScheduleFixture f = makeScheduleFixture();
        auto read = io::readScheduleJson(text, f.graph, "t.json");
        QVERIFY(!read.ok());
        QString error = qs(read.error().message());
        QVERIFY2(error.startsWith(QStringLiteral("t.json: ")) && error.contains(message),
                 qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestScheduleJson)
#include "test_schedule_json.moc"
