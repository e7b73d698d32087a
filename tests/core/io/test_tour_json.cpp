// Tour files: a tour with every field reads back as written, defaults are
// `stagecraft schedule`'s, and a bad file is refused with one line naming
// the file and the field.

#include "coretestsupport.h"
#include "io/tour_json.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace stagecraft;

namespace {

const char* kTour = R"({
  "format": "stagecraft-tour", "version": 1, "name": "t", "title": "A tour",
  "steps": [
    {"title": "one", "model": "zoo:fig3-chain", "narration": "**Fig. 3**"},
    {"title": "two", "model": "m.onnx", "arch": "teaching", "strategy": "tvm", "level": "lb",
     "order": "dfs", "batch": {"total": 16, "per_cluster": "auto"}, "seq": 128, "select": "a1",
     "overrides": {"host": ["relu1"], "split": [{"op": "conv1", "dim": 0, "factor": 2}]},
     "step": 20, "views": ["instances", "steps"], "narration": "n",
     "expect": {"groups": 4, "instances": {"a": 8}, "order": "DFS", "kernel_layers": 2}}
  ]
})";

std::string errorOf(std::string text) {
    Expected<io::Tour> tour = io::readTourJson(text, "t.json");
    return tour.ok() ? std::string("(no error)") : tour.error().message();
}

std::string replaced(const std::string& from, const std::string& to) {
    std::string text = kTour;
    size_t at = text.find(from);
    if (at == std::string::npos)
        test::fatal("no '%s' in the tour", from.c_str());
    return text.replace(at, from.size(), to);
}

} // namespace

TEST(TestTourJson, readsEveryField) {
    Expected<io::Tour> tour = io::readTourJson(kTour, "t.json");
    ASSERT_TRUE(tour.ok()) << tour.error().message();
    ASSERT_EQ(tour->name, "t");
    ASSERT_EQ(tour->steps.size(), 2u);
    const io::TourStep& first = tour->steps[0];
    ASSERT_EQ(first.arch, "stcp920");
    ASSERT_EQ(first.strategy, "graphturbo");
    ASSERT_FALSE(first.level.has_value());
    ASSERT_TRUE(first.order == schedule::OrderChoice::Best);
    ASSERT_EQ(first.algorithmStep, 0);
    const io::TourStep& second = tour->steps[1];
    ASSERT_EQ(second.arch, "teaching");
    ASSERT_EQ(second.strategy, "tvm");
    ASSERT_TRUE(second.level == schedule::Level::LB);
    ASSERT_TRUE(second.order == schedule::OrderChoice::DFS);
    ASSERT_TRUE(second.batch == (schedule::BatchChoice{16, std::nullopt, true}));
    ASSERT_EQ(second.seq, 128);
    ASSERT_EQ(second.select, "a1");
    ASSERT_EQ(second.overrides.host, (std::vector<std::string>{"relu1"}));
    ASSERT_EQ(second.overrides.splits.size(), 1u);
    ASSERT_EQ(second.overrides.splits[0].factor, 2);
    ASSERT_TRUE(first.overrides.empty());
    ASSERT_EQ(second.algorithmStep, 20);
    ASSERT_EQ(second.views, (std::vector<std::string>{"instances", "steps"}));
    ASSERT_EQ(second.expect.groups, std::optional<int64_t>(4));
    ASSERT_EQ(second.expect.instances.at("a"), 8);
    ASSERT_EQ(second.expect.order, "DFS");
    ASSERT_EQ(second.expect.kernelLayers, std::optional<int64_t>(2));
}

TEST(TestTourJson, refusesBadFieldsInOneLine) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {replaced(R"("level": "lb")", R"("level": "l3")"),
         "t.json: steps[1].level: unknown level 'l3' (expected auto, lb or gb)"},
        {replaced(R"("order": "dfs")", R"("order": "random")"),
         "t.json: steps[1].order: unknown order 'random' (expected bfs, dfs or best)"},
        {replaced(R"("strategy": "tvm")", R"("strategy": "fast")"),
         "t.json: steps[1].strategy: unknown strategy 'fast'"},
        {replaced(R"({"total": 16, "per_cluster": "auto"})", R"({"per_cluster": "auto"})"),
         "t.json: steps[1].batch.per_cluster: \"auto\" needs a total"},
        {replaced(R"("order": "DFS")", R"("order": "dfs")"),
         "t.json: steps[1].expect.order: must be BFS or DFS"},
        {replaced(R"("seq": 128)", R"("seq": 0)"),
         "t.json: steps[1].seq: must be an integer >= 1 (got 0)"},
        {replaced(R"("factor": 2)", R"("factor": 0)"),
         "t.json: steps[1].overrides.split[0].factor: must be an integer >= 1 (got 0)"},
        {replaced(R"("select": "a1")", R"("pick": "a1")"),
         "t.json: steps[1]: unknown field 'pick'"},
        {replaced(R"(, "narration": "**Fig. 3**")", ""), "t.json: steps[0].narration: missing"},
        {replaced(R"("version": 1)", R"("version": 2)"),
         "t.json: version: unsupported version 2 (this build reads version 1)"},
        {"", "t.json: empty file, not a stagecraft tour"},
    };
    for (const auto& [text, message] : cases) {
        ASSERT_EQ(errorOf(text), message);
    }
    std::string noSteps = kTour;
    noSteps = noSteps.substr(0, noSteps.find("\"steps\"")) + "\"steps\": []}";
    ASSERT_EQ(errorOf(noSteps), "t.json: steps: a tour needs at least one step");
}
