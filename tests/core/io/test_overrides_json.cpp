// Overrides files: round trips, every key optional, a schedule document
// accepted in place of an overrides file, bad files refused naming the field.

#include "coretestsupport.h"
#include "io/overrides_json.h"
#include "io/schedule_json.h"
#include "schedule_fixture.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using schedule::Overrides;
using schedule::Scope;

namespace {

Overrides everyKind() {
    Overrides o;
    o.merges = {{"conv1", "relu1"}, {"conv2", "relu2"}};
    o.ungroups = {{"relu1"}};
    o.splits = {{"conv1", 0, 4}, {"conv2", 2, 2}};
    o.order = {"a8", "a7", "b4"};
    o.scopes = {{"t2", Scope::GB}, {"t4", Scope::DDR}, {"t\"quoted\"", Scope::LB}};
    o.host = {"softmax", "relu2"};
    return o;
}

// The layout of formatJson: flat containers on one line, others expanded.
const char* const kEveryKindFile = "{\n"
                                   "  \"format\": \"stagecraft-overrides\",\n"
                                   "  \"version\": 1,\n"
                                   "  \"merge\": [\n"
                                   "    [\"conv1\", \"relu1\"],\n"
                                   "    [\"conv2\", \"relu2\"]\n"
                                   "  ],\n"
                                   "  \"ungroup\": [\"relu1\"],\n"
                                   "  \"split\": [\n"
                                   "    {\"op\": \"conv1\", \"dim\": 0, \"factor\": 4},\n"
                                   "    {\"op\": \"conv2\", \"dim\": 2, \"factor\": 2}\n"
                                   "  ],\n"
                                   "  \"order\": [\"a8\", \"a7\", \"b4\"],\n"
                                   "  \"scope\": [\n"
                                   "    {\"tensor\": \"t2\", \"scope\": \"GB\"},\n"
                                   "    {\"tensor\": \"t4\", \"scope\": \"DDR\"},\n"
                                   "    {\"tensor\": \"t\\\"quoted\\\"\", \"scope\": \"LB\"}\n"
                                   "  ],\n"
                                   "  \"host\": [\"softmax\", \"relu2\"]\n"
                                   "}\n";

/// The round-trip cases, by row (Overrides cannot be a Qt metatype: its
/// defaulted operator== is deleted).
std::vector<Overrides> roundTripCases() {
    Overrides order;
    order.order = {"b1", "a1"};
    return {Overrides{}, everyKind(), order};
}

} // namespace

struct RoundTripRow {
    std::string rowLabel;
    int index;
};

std::vector<RoundTripRow> roundTripRows() {
    std::vector<RoundTripRow> rows;
    rows.push_back({"empty", 0});
    rows.push_back({"every kind", 1});
    rows.push_back({"order only", 2});
    return rows;
}

class RoundTripRows : public ::testing::TestWithParam<RoundTripRow> {};

TEST_P(RoundTripRows, roundTrip) {
    int index = GetParam().index;
    const Overrides overrides = roundTripCases()[static_cast<size_t>(index)];
    std::string text = io::writeOverridesJson(overrides);
    ASSERT_TRUE(text.rfind("{\n  \"format\": \"stagecraft-overrides\",\n  \"version\": 1,\n", 0) ==
                0);
    auto read = io::readOverridesJson(text, "o.json");
    ASSERT_TRUE(read.ok()) << (read.ok() ? "" : read.error().message().c_str());
    ASSERT_TRUE(test::sameOverrides(*read, overrides));
    ASSERT_EQ((io::writeOverridesJson(*read)), (text));
}

INSTANTIATE_TEST_SUITE_P(TestOverridesJson, RoundTripRows, ::testing::ValuesIn(roundTripRows()),
                         test::RowName{});

TEST(TestOverridesJson, writesEveryKeyInOrder) {
    std::string text = io::writeOverridesJson(everyKind());
    ASSERT_EQ((text), std::string(kEveryKindFile));
}

TEST(TestOverridesJson, everyKeyIsOptional) {
    auto read = io::readOverridesJson(
        R"({"format": "stagecraft-overrides", "version": 1, "split": [{"op": "c", "dim": 1, "factor": 8}]})",
        "o.json");
    ASSERT_TRUE(read.ok());
    ASSERT_TRUE(read->merges.empty() && read->order.empty() && read->scopes.empty());
    ASSERT_EQ(read->splits.size(), size_t(1));
    ASSERT_EQ(read->splits[0].dim, 1);
    ASSERT_EQ(read->splits[0].factor, int64_t(8));
    auto bare = io::readOverridesJson(R"({"format": "stagecraft-overrides", "version": 1})", "");
    ASSERT_TRUE(bare.ok() && bare->empty());
}

TEST(TestOverridesJson, acceptsAScheduleDocument) {
    test::ScheduleFixture f = test::makeScheduleFixture();
    f.info.overrides = everyKind();
    std::string document = io::writeScheduleJson(f.graph, f.schedule, f.info);
    auto read = io::readOverridesJson(document, "s.json");
    ASSERT_TRUE(read.ok()) << (read.ok() ? "" : read.error().message().c_str());
    ASSERT_TRUE(test::sameOverrides(*read, everyKind()));
}

struct RefusesBadFilesRow {
    std::string rowLabel;
    std::string text;
    std::string message;
};

std::vector<RefusesBadFilesRow> refusesBadFilesRows() {
    std::vector<RefusesBadFilesRow> rows;
    auto row = [&rows](const char* name, const char* members, const char* message) {
        std::string text = std::string(R"({"format": "stagecraft-overrides", "version": 1)") +
                           (*members ? ", " : "") + members + "}";
        rows.push_back({name, text, std::string(message)});
    };
    row("unknown key", R"("splits": [])", "unknown field 'splits'");
    row("merge not a pair", R"("merge": [["a", "b", "c"]])",
        "merge[0]: must be a pair of op names");
    row("merge empty name", R"("merge": [["a", ""]])",
        "merge[0][1]: must be a non-empty string (got \"\")");
    row("ungroup not a name", R"("ungroup": [3])", "ungroup[0]: must be a non-empty string");
    row("split not a list", R"("split": {"op": "a"})", "split: must be an array");
    row("split factor zero", R"("split": [{"op": "a", "dim": 0, "factor": 0}])",
        "split[0].factor: must be an integer >= 1 (got 0)");
    row("split factor fraction", R"("split": [{"op": "a", "dim": 0, "factor": 2.5}])",
        "split[0].factor: must be an integer >= 1 (got 2.5)");
    row("split dim negative", R"("split": [{"op": "a", "dim": -1, "factor": 2}])",
        "split[0].dim: must be an integer >= 0 (got -1)");
    row("split without op", R"("split": [{"dim": 0, "factor": 2}])", "split[0].op: missing");
    row("split extra", R"("split": [{"op": "a", "dim": 0, "factor": 2, "core": 1}])",
        "split[0]: unknown field 'core'");
    row("order twice", R"("order": ["a1", "b1", "a1"])", "order[2]: instance 'a1' is listed twice");
    row("host twice", R"("host": ["a", "a"])", "host[1]: op 'a' is listed twice");
    row("host not a name", R"("host": [""])", "host[0]: must be a non-empty string");
    row("scope name", R"("scope": [{"tensor": "t", "scope": "L1"}])",
        "scope[0].scope: unknown scope 'L1' (expected LB, GB or DDR)");
    rows.push_back({"format", std::string(R"({"format": "stagecraft-arch", "version": 1})"),
                    std::string("format: must be 'stagecraft-overrides' or "
                                "'stagecraft-schedule' (got 'stagecraft-arch')")});
    rows.push_back({"no format", std::string(R"({"merge": []})"), std::string("format: missing")});
    rows.push_back({"version", std::string(R"({"format": "stagecraft-overrides", "version": 7})"),
                    std::string("version: unsupported version 7")});
    rows.push_back({"document without overrides",
                    std::string(R"({"format": "stagecraft-schedule", "version": 1})"),
                    std::string("overrides: missing")});
    rows.push_back(
        {"document with bad overrides",
         std::string(
             R"({"format": "stagecraft-schedule", "version": 1, "overrides": {"order": [1]}})"),
         std::string("overrides.order[0]: must be a non-empty string (got 1)")});
    rows.push_back({"not json", std::string("{\"merge\": ["),
                    std::string("not valid JSON: parse error at line 1")});
    return rows;
}

class RefusesBadFilesRows : public ::testing::TestWithParam<RefusesBadFilesRow> {};

TEST_P(RefusesBadFilesRows, refusesBadFiles) {
    std::string text = GetParam().text;
    std::string message = GetParam().message;
    auto read = io::readOverridesJson(text, "edits.json");
    ASSERT_TRUE(!read.ok());
    std::string error = (read.error().message());
    ASSERT_TRUE(error.starts_with(std::string("edits.json: ") + message)) << (error);
    ASSERT_TRUE(!test::containsText(error, '\n'));
}

INSTANTIATE_TEST_SUITE_P(TestOverridesJson, RefusesBadFilesRows,
                         ::testing::ValuesIn(refusesBadFilesRows()), test::RowName{});
