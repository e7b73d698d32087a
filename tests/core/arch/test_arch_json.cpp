// Architecture JSON: presets load and validate, toJson round-trips, invalid
// files give one-line errors that name the file and the field, defaults.

#include "arch/arch_json.h"
#include "arch/presets.h"
#include "coretestsupport.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::arch;

namespace {

// A small valid description; the invalid cases below each change one piece.
const char* const kBase = R"({
  "format": "stagecraft-arch",
  "version": 1,
  "name": "base",
  "description": "test base",
  "clock_ghz": 1,
  "clusters": 1,
  "cluster": {
    "core_groups": [
      {
        "name": "core",
        "count": 4,
        "local_buffer": { "name": "LB", "bytes": 16384, "weight_reserve_bytes": 2048 },
        "units": [
          { "name": "vec", "kind": "vector", "categories": ["elementwise", "injective"],
            "ops_per_cycle": { "f32": 8, "f16": 16 } }
        ]
      }
    ],
    "global_buffer": { "name": "GB", "bytes": 1048576 }
  },
  "ddr": { "name": "DDR", "bytes": 1073741824 },
  "paths": [
    { "from": "DDR", "to": "GB", "bandwidth_gbps": 16, "latency_ns": 100, "channels": 1, "shared_by": "chip" },
    { "from": "GB", "to": "LB", "bandwidth_gbps": 64, "latency_ns": 10, "channels": 2, "shared_by": "cluster" }
  ],
  "overheads": { "kernel_launch_ns": 1000, "sync_ns": 100 },
  "fallback_cpu": null
})";

std::string describe(const Arch& a) {
    return toJson(a);
}

} // namespace

TEST(TestArchJson, baseIsValid) {
    auto a = parseArch(kBase, "x.json");
    ASSERT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message().c_str());
    ASSERT_EQ(
        a->cluster.coreGroups.at(0).units.at(0).categories,
        (std::vector<ir::OpCategory>{ir::OpCategory::Elementwise, ir::OpCategory::Injective}));
}

struct PresetsRow {
    std::string rowLabel;
    std::string name;
};

std::vector<PresetsRow> presetsRows() {
    std::vector<PresetsRow> rows;
    for (const std::string& name : presetNames())
        rows.push_back({name.c_str(), name});
    return rows;
}

class PresetsRows : public ::testing::TestWithParam<PresetsRow> {};

TEST_P(PresetsRows, presets) {
    std::string name = GetParam().name;
    auto a = loadPreset(name);
    ASSERT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message().c_str());
    ASSERT_EQ(a->name, name);
    ASSERT_TRUE(!a->description.empty());
    ASSERT_TRUE(validateArch(*a).ok());

    // toJson round-trips and is the same text every time.
    std::string text = toJson(*a);
    ASSERT_TRUE(text.ends_with("}\n"));
    auto back = parseArch(text, "roundtrip");
    ASSERT_TRUE(back.ok()) << (back.ok() ? "" : back.error().message().c_str());
    ASSERT_TRUE(*back == *a);
    ASSERT_EQ(toJson(*back), text);
    auto again = loadPreset(name);
    ASSERT_TRUE(again.ok());
    ASSERT_EQ(describe(*again), text);
}

INSTANTIATE_TEST_SUITE_P(TestArchJson, PresetsRows, ::testing::ValuesIn(presetsRows()),
                         test::RowName{});

TEST(TestArchJson, presetList) {
    std::vector<std::string> names = presetNames();
    for (const char* expected :
         {"stcp920", "teaching", "habana-goya", "ascend-910", "graphcore-ipu", "host-cpu"})
        ASSERT_TRUE(std::find(names.begin(), names.end(), expected) != names.end()) << expected;
    ASSERT_EQ(names.front(), std::string(kDefaultPreset));
}

struct InvalidRow {
    std::string rowLabel;
    std::string find;
    std::string replace;
    std::string fragment;
};

std::vector<InvalidRow> invalidRows() {
    std::vector<InvalidRow> rows;
    auto row = [&rows](const char* name, const char* find, const char* replace,
                       const char* fragment) {
        rows.push_back({name, std::string(find), std::string(replace), std::string(fragment)});
    };
    row("missing field", "\"clusters\": 1,", "", "x.json: clusters: missing");
    row("negative bytes", "\"bytes\": 16384", "\"bytes\": -5",
        "x.json: cluster.core_groups[0].local_buffer.bytes: must be a positive integer "
        "(got -5)");
    row("fractional bytes", "\"bytes\": 16384", "\"bytes\": 16384.5",
        "local_buffer.bytes: must be a positive integer (got 16384.5)");
    row("zero clusters", "\"clusters\": 1", "\"clusters\": 0",
        "x.json: clusters: must be a positive integer (got 0)");
    row("wrong type", "\"clusters\": 1", "\"clusters\": \"1\"",
        "x.json: clusters: must be a positive integer (got \"1\")");
    row("wrong type object", R"({ "name": "DDR", "bytes": 1073741824 })", "1073741824",
        "x.json: ddr: must be an object (got 1073741824)");
    row("unknown field", "\"clock_ghz\": 1", "\"clock_mhz\": 1000",
        "x.json: unknown field 'clock_mhz'");
    row("unknown nested field", "\"name\": \"vec\",", "\"name\": \"vec\", \"colour\": 1,",
        "x.json: cluster.core_groups[0].units[0]: unknown field 'colour'");
    row("unknown category", "\"injective\"", "\"convolution\"",
        "x.json: cluster.core_groups[0].units[0].categories[1]: unknown category "
        "'convolution'");
    row("duplicate category", "\"injective\"", "\"elementwise\"",
        "categories[1]: duplicate category 'elementwise'");
    row("unknown dtype", "\"f16\": 16", "\"f8\": 16",
        "x.json: cluster.core_groups[0].units[0].ops_per_cycle: unknown dtype 'f8'");
    row("string dtype", "\"f16\": 16", "\"string\": 16", "unknown dtype 'string'");
    row("zero throughput", "\"f16\": 16", "\"f16\": 0",
        "units[0].ops_per_cycle.f16: must be a positive number (got 0)");
    row("unknown kind", "\"kind\": \"vector\"", "\"kind\": \"tensor\"",
        "units[0].kind: unknown kind 'tensor' (expected matrix, vector or scalar)");
    row("weight reserve >= LB", "\"weight_reserve_bytes\": 2048", "\"weight_reserve_bytes\": 16384",
        "x.json: cluster.core_groups[0].local_buffer.weight_reserve_bytes: must be less "
        "than bytes (16384) (got 16384)");
    row("negative weight reserve", "\"weight_reserve_bytes\": 2048", "\"weight_reserve_bytes\": -1",
        "local_buffer.weight_reserve_bytes: must be a non-negative integer (got -1)");
    row("missing local buffer",
        R"("local_buffer": { "name": "LB", "bytes": 16384, "weight_reserve_bytes": 2048 },)", "",
        "x.json: cluster.core_groups[0].local_buffer: missing");
    row("GB null but DDR->GB path", R"({ "name": "GB", "bytes": 1048576 })", "null",
        "x.json: paths[0]: DDR->GB path but cluster.global_buffer is null");
    row("unknown memory", "\"from\": \"GB\"", "\"from\": \"L2\"",
        "x.json: paths[1].from: unknown memory 'L2' (expected DDR, GB or LB)");
    row("not a data path", "\"to\": \"GB\"", "\"to\": \"DDR\"",
        "x.json: paths[0]: DDR->DDR is not a data path");
    row("missing GB->LB path", "\"from\": \"GB\", \"to\": \"LB\"",
        "\"from\": \"DDR\", \"to\": \"LB\"", "x.json: paths: missing a GB->LB path");
    row("duplicate path", "\"from\": \"GB\", \"to\": \"LB\"", "\"from\": \"DDR\", \"to\": \"GB\"",
        "x.json: paths[1]: duplicate DDR->GB path (also paths[0])");
    row("zero channels", "\"channels\": 2", "\"channels\": 0",
        "x.json: paths[1].channels: must be a positive integer (got 0)");
    row("unknown sharing", "\"shared_by\": \"cluster\"", "\"shared_by\": \"socket\"",
        "paths[1].shared_by: unknown sharing 'socket'");
    row("negative latency", "\"latency_ns\": 10,", "\"latency_ns\": -10,",
        "paths[1].latency_ns: must be a non-negative number (got -10)");
    row("count overflow", "\"count\": 4", "\"count\": 9223372036854775807",
        "x.json: cluster.core_groups[0].count: must be at most 4096");
    row("integer too large", "\"count\": 4", "\"count\": 18446744073709551615",
        "x.json: cluster.core_groups[0].count: too large (got 18446744073709551615)");
    row("zero clock", "\"clock_ghz\": 1", "\"clock_ghz\": 0",
        "x.json: clock_ghz: must be a positive number (got 0)");
    row("not JSON", "\"version\": 1,", "\"version\": 1,,",
        "x.json: not valid JSON: parse error at line 3, column");
    row("unclosed array", "{\n  \"format\"", "[{\n  \"format\"", "x.json: not valid JSON");
    row("wrong format name", "\"stagecraft-arch\"", "\"stagecraft-schedule\"",
        "x.json: format: expected 'stagecraft-arch' (got 'stagecraft-schedule')");
    row("unsupported version", "\"version\": 1", "\"version\": 2",
        "x.json: version: unsupported version 2 (this build reads version 1)");
    row("fallback without gflops", "\"fallback_cpu\": null",
        "\"fallback_cpu\": { \"name\": \"host\" }", "x.json: fallback_cpu.gflops: missing");
    const char* host = "\"fallback_cpu\": { \"name\": \"host\", \"gflops\": 10 }";
    row("supported ops without fallback", "\"fallback_cpu\": null",
        "\"fallback_cpu\": null, \"supported_ops\": [\"Conv\"]",
        "x.json: supported_ops: the ops outside the list need a fallback_cpu to run on");
    rows.push_back({"unknown supported op", "\"fallback_cpu\": null",
                    std::string(host) + ", \"supported_ops\": [\"Conv\", \"Cnov\"]",
                    "x.json: supported_ops[1]: unknown op type 'Cnov'"});
    rows.push_back({"duplicate supported op", "\"fallback_cpu\": null",
                    std::string(host) + ", \"supported_ops\": [\"Relu\", \"Relu\"]",
                    "x.json: supported_ops[1]: duplicate op type 'Relu'"});
    rows.push_back({"supported ops not a list", "\"fallback_cpu\": null",
                    std::string(host) + ", \"supported_ops\": \"Conv\"",
                    "x.json: supported_ops: must be an array of ONNX op types"});
    return rows;
}

class InvalidRows : public ::testing::TestWithParam<InvalidRow> {};

TEST_P(InvalidRows, invalid) {
    std::string find = GetParam().find;
    std::string replace = GetParam().replace;
    std::string fragment = GetParam().fragment;
    std::string text = std::string(kBase);
    ASSERT_TRUE(test::countText(text, find) == 1) << (find);
    test::replaceAll(text, find, replace);
    auto a = parseArch(text, "x.json");
    ASSERT_TRUE(!a.ok());
    std::string message = a.error().message();
    ASSERT_TRUE(message.starts_with(std::string("x.json: "))) << (message);
    ASSERT_TRUE(test::containsText(message, fragment)) << (message);
    ASSERT_TRUE(!test::containsText(message, '\n')) << (message);
    ASSERT_TRUE(!message.ends_with('.')) << (message);
}

INSTANTIATE_TEST_SUITE_P(TestArchJson, InvalidRows, ::testing::ValuesIn(invalidRows()),
                         test::RowName{});

TEST(TestArchJson, supportedOpsRoundTripSortedAndDecideTheAccelerator) {
    std::string text = std::string(kBase);
    test::replaceAll(text, "\"fallback_cpu\": null",
                     "\"fallback_cpu\": { \"name\": \"host\", \"gflops\": 10 },\n"
                     "  \"supported_ops\": [\"Relu\", \"Add\"]");
    auto a = parseArch(text, "x.json");
    ASSERT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message().c_str());
    ASSERT_EQ(*a->supportedOps, (std::vector<ir::OpKind>{ir::OpKind::Add, ir::OpKind::Relu}));
    auto back = parseArch(toJson(*a), "again");
    ASSERT_TRUE(back.ok());
    ASSERT_TRUE(*back == *a);
    ASSERT_TRUE(test::containsText(toJson(*a), "\"supported_ops\": [\n    \"Add\",\n    \"Relu\""))
        << toJson(*a);
    // Listed and a unit runs the category; listed but no unit (complex);
    // a unit runs it but it is not listed.
    ASSERT_TRUE(acceleratorRuns(*a, ir::OpKind::Relu, ir::OpCategory::Elementwise));
    ASSERT_TRUE(!acceleratorRuns(*a, ir::OpKind::Add, ir::OpCategory::Complex));
    ASSERT_TRUE(!acceleratorRuns(*a, ir::OpKind::Sigmoid, ir::OpCategory::Elementwise));
    // Without a list every kind is taken; the presets write no list.
    auto base = parseArch(kBase, "x.json");
    ASSERT_TRUE(base.ok());
    ASSERT_TRUE(acceleratorRuns(*base, ir::OpKind::Sigmoid, ir::OpCategory::Elementwise));
    ASSERT_TRUE(!test::containsText(toJson(*base), "supported_ops"));
}

TEST(TestArchJson, topLevelNotAnObject) {
    auto a = parseArch("[1, 2]", "x.json");
    ASSERT_TRUE(!a.ok());
    ASSERT_EQ(a.error().message(), std::string("x.json: must be a JSON object (got [1,2])"));
}

TEST(TestArchJson, defaultsAreFilledIn) {
    std::string text = std::string(kBase);
    for (const char* optional :
         {"\"description\": \"test base\",", ", \"weight_reserve_bytes\": 2048",
          ", \"channels\": 1", ", \"channels\": 2", ", \"shared_by\": \"chip\"",
          ", \"shared_by\": \"cluster\"", ",\n  \"fallback_cpu\": null"}) {
        ASSERT_TRUE(test::countText(text, std::string(optional)) == 1) << optional;
        test::removeAll(text, std::string(optional));
    }
    auto a = parseArch(text, "defaults.json");
    ASSERT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message().c_str());
    ASSERT_EQ(a->description, std::string());
    ASSERT_EQ(a->cluster.coreGroups[0].localBuffer->weightReserveBytes, int64_t(0));
    ASSERT_EQ(a->paths[0].channels, int64_t(1));
    ASSERT_EQ(a->paths[0].sharedBy, Sharing::Chip);
    ASSERT_EQ(a->paths[1].sharedBy, Sharing::Cluster);
    ASSERT_TRUE(!a->fallbackCpu);
    // The resolved text has every field.
    std::string resolved = describe(*a);
    for (const char* field : {"\"description\"", "\"weight_reserve_bytes\"", "\"channels\"",
                              "\"shared_by\"", "\"fallback_cpu\": null"})
        ASSERT_TRUE(test::containsText(resolved, std::string(field))) << field;
}

TEST(TestArchJson, noGlobalBufferNeedsDdrToLb) {
    std::string text = std::string(kBase);
    test::replaceAll(text, R"({ "name": "GB", "bytes": 1048576 })", "null");
    test::replaceAll(text, R"("from": "DDR", "to": "GB")", R"("from": "LB", "to": "LB")");
    test::replaceAll(text, R"("from": "GB", "to": "LB")", R"("from": "LB", "to": "DDR")");
    auto a = parseArch(text, "ipu.json");
    ASSERT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message().c_str());
    ASSERT_TRUE(!a->cluster.globalBuffer);

    std::string ddrPath = std::string(R"(,
    { "from": "LB", "to": "DDR", "bandwidth_gbps": 64, "latency_ns": 10, "channels": 2, "shared_by": "cluster" })");
    ASSERT_EQ(test::countText(text, ddrPath), 1);
    test::removeAll(text, ddrPath);
    auto missing = parseArch(text, "ipu.json");
    ASSERT_TRUE(!missing.ok());
    ASSERT_TRUE(
        test::containsText(missing.error().message(), "ipu.json: paths: missing a DDR->LB path"))
        << (missing.error().message().c_str());
}

TEST(TestArchJson, files) {
    test::TempDir dir;
    ASSERT_TRUE(dir.isValid());
    auto teaching = loadPreset("teaching");
    ASSERT_TRUE(teaching.ok());
    std::filesystem::path path = dir.filePath(std::string("mine.json"));
    std::ofstream(path) << toJson(*teaching);
    auto loaded = resolveArch(path.string());
    ASSERT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message().c_str());
    ASSERT_TRUE(*loaded == *teaching);

    std::filesystem::path bad = dir.filePath(std::string("bad.json"));
    std::ofstream(bad) << "{\"format\": \"stagecraft-arch\", \"version\": 1}";
    auto failed = loadArchFile(bad);
    ASSERT_TRUE(!failed.ok());
    ASSERT_EQ(failed.error().message(), bad.string() + ": name: missing");

    auto absent = loadArchFile(dir.filePath(std::string("absent.json")));
    ASSERT_TRUE(!absent.ok());
    ASSERT_TRUE(test::containsText(absent.error().message(), "absent.json"));
}

TEST(TestArchJson, unknownNameListsPresets) {
    auto a = resolveArch("no-such-chip");
    ASSERT_TRUE(!a.ok());
    std::string message = a.error().message();
    ASSERT_TRUE(test::containsText(message, std::string("'no-such-chip'"))) << (message);
    for (const std::string& name : presetNames())
        ASSERT_TRUE(test::containsText(message, name)) << (message);
    ASSERT_TRUE(!loadPreset("no-such-chip").ok());
}
