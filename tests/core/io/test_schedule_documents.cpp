// Schedule documents of real schedules: the engine schedules the paper's
// figure models on the teaching architecture; each schedule is written, read
// back (and still valid), and written again byte for byte.

#include "arch/presets.h"
#include "coretestsupport.h"
#include "io/overrides_json.h"
#include "io/schedule_json.h"
#include "onnx/importer.h"
#include "schedule/pipeline.h"
#include "schedule/validate.h"
#include "zoo/zoo.h"

#include <gtest/gtest.h>

using namespace stagecraft;

namespace {

ir::Graph zooGraph(const std::string& name) {
    test::TempDir dir;
    std::filesystem::path file = dir.filePath(std::string("model.onnx"));
    auto written = zoo::writeZooModel(name, {}, file);
    SC_ASSERT(written.ok(), "zoo model written");
    auto imported = onnxio::importModel(file);
    SC_ASSERT(imported.ok(), "zoo model imported");
    return std::move(imported->graph);
}

} // namespace

struct RoundTripRow {
    std::string rowLabel;
    std::string model;
    std::string archName;
    schedule::OrderChoice order;
    std::string overrides;
};

std::vector<RoundTripRow> roundTripRows() {
    std::vector<RoundTripRow> rows;
    using schedule::OrderChoice;
    const std::string none;
    for (std::string model : {"fig3-chain", "fig2-blocks"}) {
        const char* name = model.c_str();
        rows.push_back({test::rowName("%s bfs", name), model, std::string("teaching"),
                        OrderChoice::BFS, none});
        rows.push_back({test::rowName("%s dfs", name), model, std::string("teaching"),
                        OrderChoice::DFS, none});
        rows.push_back({test::rowName("%s best", name), model, std::string("teaching"),
                        OrderChoice::Best, none});
    }
    // Larger models: copies, redistributions, hundreds of instances.
    for (std::string model : {"resnet50", "densenet121", "bert-base"})
        rows.push_back({test::rowName("%s stcp920", model.c_str()), model, std::string("stcp920"),
                        OrderChoice::Best, none});
    rows.push_back(
        {"fig3-chain split override", std::string("fig3-chain"), std::string("teaching"),
         OrderChoice::DFS,
         std::string(
             R"({"format": "stagecraft-overrides", "version": 1, "split": [{"op": "stage4.conv1", "dim": 0, "factor": 2}]})")});
    return rows;
}

class RoundTripRows : public ::testing::TestWithParam<RoundTripRow> {};

TEST_P(RoundTripRows, roundTrip) {
    std::string model = GetParam().model;
    std::string archName = GetParam().archName;
    schedule::OrderChoice order = GetParam().order;
    std::string overrides = GetParam().overrides;
    ir::Graph graph = zooGraph(model);
    auto target = arch::loadPreset(archName);
    ASSERT_TRUE(target.ok());
    schedule::ScheduleOptions options;
    options.order = order;
    if (!overrides.empty()) {
        auto read = io::readOverridesJson(overrides, "o.json");
        ASSERT_TRUE(read.ok()) << (read.ok() ? "" : read.error().message().c_str());
        options.overrides = *read;
    }
    auto built = schedule::buildSchedule(graph, *target, options);
    ASSERT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message().c_str());
    ASSERT_TRUE(schedule::validateSchedule(graph, *target, *built).ok());

    io::ScheduleDocInfo info{"zoo:" + model, target->name, order, options.overrides, true};
    std::string first = io::writeScheduleJson(graph, *built, info);
    ASSERT_EQ((io::writeScheduleJson(graph, *built, info)), (first));
    ASSERT_EQ(first.find("\"split_overridden\": true") != std::string::npos, !overrides.empty());
    auto read = io::readScheduleJson(first, graph, "doc.json");
    ASSERT_TRUE(read.ok()) << (read.ok() ? "" : read.error().message().c_str());
    Status valid = schedule::validateSchedule(graph, *target, read->schedule);
    ASSERT_TRUE(valid.ok()) << (valid.ok() ? "" : valid.error().message().c_str());
    ASSERT_EQ((io::writeScheduleJson(graph, read->schedule, read->info)), (first));

    // The read schedule is the built one, not only its text.
    const schedule::Schedule& a = *built;
    const schedule::Schedule& b = read->schedule;
    ASSERT_EQ(b.order, a.order);
    ASSERT_EQ(b.instances.size(), a.instances.size());
    for (schedule::InstanceId i : a.instances.ids()) {
        ASSERT_EQ(b.instances[i].bind, a.instances[i].bind);
        ASSERT_EQ(b.instances[i].shape, a.instances[i].shape);
        ASSERT_EQ(b.instances[i].scope, a.instances[i].scope);
    }
    ASSERT_EQ(b.groups.size(), a.groups.size());
    for (partition::GroupId g : a.groups.ids()) {
        ASSERT_EQ(b.groups[g].split, a.groups[g].split);
        ASSERT_EQ(b.groups[g].splitInfo.candidates, a.groups[g].splitInfo.candidates);
    }
    ASSERT_EQ(b.edges.size(), a.edges.size());
    ASSERT_EQ(b.moves.size(), a.moves.size());
    ASSERT_EQ(b.trace.order.size(), a.trace.order.size());
    ASSERT_EQ(b.trace.merges.size(), a.trace.merges.size());
}

INSTANTIATE_TEST_SUITE_P(TestScheduleDocuments, RoundTripRows, ::testing::ValuesIn(roundTripRows()),
                         test::RowName{});

TEST(TestScheduleDocuments, otherModelRefused) {
    auto arch = arch::loadPreset("teaching");
    ASSERT_TRUE(arch.ok());
    ir::Graph chain = zooGraph("fig3-chain");
    auto built = schedule::buildSchedule(chain, *arch, {});
    ASSERT_TRUE(built.ok());
    std::string text = io::writeScheduleJson(chain, *built, {});
    ir::Graph blocks = zooGraph("fig2-blocks");
    auto read = io::readScheduleJson(text, blocks, "chain.json");
    ASSERT_TRUE(!read.ok());
    ASSERT_TRUE((read.error().message()).starts_with(std::string("chain.json: model.ops: ")) ||
                test::containsText((read.error().message()), std::string("unknown op")))
        << (read.error().message().c_str());
}
