// Session files of stagecraft-studio: a session with every field set reads
// back equal and writes back byte for byte, the text is deterministic, and
// every kind of bad file (corrupt members, truncated, empty, a directory) is
// refused with one exact line naming the file and the field.

#include "arch/arch_json.h"
#include "arch/presets.h"
#include "coretestsupport.h"
#include "io/overrides_json.h"
#include "io/session_json.h"
#include "sim/compare.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <gtest/gtest.h>

using namespace stagecraft;
using Json = nlohmann::ordered_json;
using schedule::Overrides;

namespace {

io::Session fullSession() {
    io::Session s;
    s.modelPath = "/models/bert \"base\".onnx";
    s.modelSha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    s.inputShapes = {{"input_ids", {8, 128}}, {"pixel", {1, 3, 224, 224}}};
    s.dims = {{"batch", 8}, {"seq", 128}};
    s.values = {{"sr", "16000"}, {"mode", "1,0"}};
    auto arch = arch::loadPreset("habana-goya");
    if (!arch.ok())
        test::fatal("%s", arch.error().message().c_str());
    s.arch = *arch;
    s.arch.description = "edited: \"quoted\"";
    s.arch.clusters = 2;
    s.strategy = "gt-lb";
    s.level = schedule::Level::GB;
    s.order = schedule::OrderChoice::DFS;
    s.precision = ir::DType::Float16;
    s.batch = {32, 8, false};
    s.seq = 128;
    s.overrides.merges = {{"conv1", "relu1"}};
    s.overrides.ungroups = {{"relu2"}};
    s.overrides.splits = {{"conv1", 0, 4}};
    s.overrides.order = {"a2", "a1"};
    s.overrides.scopes = {{"t2", schedule::Scope::DDR}};
    return s;
}

/// The full session's file with \p value (JSON text, or "-" to remove the
/// member) at the JSON pointer \p pointer.
std::string mutated(const std::string& pointer, const std::string& value) {
    Json doc = Json::parse(io::writeSessionJson(fullSession()));
    Json::json_pointer at(pointer);
    if (value == "-")
        doc.at(at.parent_pointer()).erase(at.back());
    else
        doc[at] = Json::parse(value);
    return doc.dump(2);
}

std::string errorOf(const Expected<io::Session>& read) {
    return read.ok() ? std::string("(no error)") : (read.error().message());
}

} // namespace

test::TempDir dir;

std::filesystem::path path(const std::string& name) {
    return std::filesystem::path(dir.path()) / name;
}
TEST(TestSessionJson, roundTrip) {
    const io::Session session = fullSession();
    std::string text = io::writeSessionJson(session);
    auto read = io::readSessionJson(text, "s.stagecraft");
    ASSERT_TRUE(read.ok()) << (errorOf(read));
    ASSERT_TRUE(*read == session);
    ASSERT_EQ((io::writeSessionJson(*read)), (text));
}

TEST(TestSessionJson, deterministicLayout) {
    const io::Session session = fullSession();
    std::string text = io::writeSessionJson(session);
    ASSERT_EQ((io::writeSessionJson(fullSession())), (text));
    const char* head = "{\n"
                       "  \"format\": \"stagecraft-session\",\n"
                       "  \"version\": 1,\n"
                       "  \"model\": {\n"
                       "    \"path\": \"/models/bert \\\"base\\\".onnx\",\n"
                       "    \"sha256\": \"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d"
                       "6c15b0f00a08\",\n"
                       "    \"seq\": 128\n"
                       "  },\n"
                       "  \"inputs\": {\n"
                       "    \"input_ids\": [8, 128],\n"
                       "    \"pixel\": [1, 3, 224, 224]\n"
                       "  },\n"
                       "  \"dims\": {\"batch\": 8, \"seq\": 128},\n"
                       "  \"values\": {\"mode\": \"1,0\", \"sr\": \"16000\"},\n"
                       "  \"arch\": {\n"
                       "    \"format\": \"stagecraft-arch\",\n";
    ASSERT_TRUE(text.starts_with(head)) << (text.substr(0, 400).c_str());
    ASSERT_TRUE(text.ends_with("}\n") && !text.ends_with("\n\n"));
    const char* tail = "  \"strategy\": \"gt-lb\",\n"
                       "  \"level\": \"GB\",\n"
                       "  \"order\": \"dfs\",\n"
                       "  \"precision\": \"f16\",\n"
                       "  \"batch\": {\"total\": 32, \"per_cluster\": 8},\n"
                       "  \"overrides\": {\n";
    ASSERT_TRUE(text.find(tail) != std::string::npos);
}

// The embedded architecture is the object arch::toJson writes, and the
// overrides the object an overrides file holds.
TEST(TestSessionJson, embedsTheArchAndOverridesObjects) {
    const io::Session session = fullSession();
    Json doc = Json::parse(io::writeSessionJson(session));
    ASSERT_EQ((doc["arch"].dump()), (Json::parse(arch::toJson(session.arch)).dump()));
    Json overrides = Json::parse(io::writeOverridesJson(session.overrides));
    overrides.erase("format");
    overrides.erase("version");
    ASSERT_EQ((doc["overrides"].dump()), (overrides.dump()));
}

TEST(TestSessionJson, strategiesAgreeWithTheSimulator) {
    std::vector<std::string> simulator;
    for (const sim::Strategy& strategy : sim::strategies())
        simulator.push_back(strategy.name);
    auto names = io::sessionStrategyNames();
    ASSERT_EQ(std::vector<std::string>(names.begin(), names.end()), simulator);
}

TEST(TestSessionJson, optionalMembers) {
    Json doc = Json::parse(io::writeSessionJson(fullSession()));
    for (const char* key : {"inputs", "dims", "values", "overrides", "precision", "batch"})
        doc.erase(key);
    doc["model"].erase("sha256");
    doc["model"].erase("seq");
    auto read = io::readSessionJson(doc.dump(), "s.stagecraft");
    ASSERT_TRUE(read.ok()) << (errorOf(read));
    ASSERT_TRUE(read->inputShapes.empty() && read->dims.empty() && read->overrides.empty());
    ASSERT_TRUE(read->values.empty());
    ASSERT_TRUE(read->modelSha256.empty());
    ASSERT_TRUE(!read->precision);
    ASSERT_TRUE(read->batch == schedule::BatchChoice{});
    ASSERT_EQ(read->seq, 0);
}

TEST(TestSessionJson, batchAutoPerClusterAndDefaults) {
    io::Session session = fullSession();
    session.batch = {64, std::nullopt, true};
    std::string text = io::writeSessionJson(session);
    ASSERT_NE(text.find(R"("batch": {"total": 64, "per_cluster": "auto"})"), std::string::npos)
        << text;
    auto read = io::readSessionJson(text, "s.stagecraft");
    ASSERT_TRUE(read.ok()) << errorOf(read);
    ASSERT_TRUE(read->batch == session.batch);
    session.batch = {};
    session.seq = 0;
    text = io::writeSessionJson(session);
    ASSERT_EQ(text.find("\n  \"batch\""), std::string::npos) << "a default batch is not written";
    ASSERT_EQ(text.find("\n    \"seq\""), std::string::npos) << "a default seq is not written";
}

struct RefusesCorruptFilesRow {
    std::string rowLabel;
    std::string text;
    std::string message;
};

std::vector<RefusesCorruptFilesRow> refusesCorruptFilesRows() {
    std::vector<RefusesCorruptFilesRow> rows;
    auto row = [&rows](const char* name, const char* pointer, const char* value,
                       const char* message) {
        rows.push_back({name, mutated(pointer, value), std::string(message)});
    };
    row("format", "/format", R"("stagecraft-schedule")",
        "format: must be 'stagecraft-session' (got 'stagecraft-schedule')");
    row("version", "/version", "2", "version: unsupported version 2 (this build reads version 1)");
    row("unknown key", "/layout", "{}", "unknown field 'layout'");
    row("no model", "/model", "-", "model: missing");
    row("model path", "/model/path", "3", "model.path: must be a string (got 3)");
    row("sha256", "/model/sha256", R"("ABC")",
        "model.sha256: must be 64 lowercase hex digits or empty (got \"ABC\")");
    row("negative input dim", "/inputs/pixel", "[1, -3, 224, 224]",
        "inputs.pixel[1]: must be an integer >= 0 (got -3)");
    row("negative dim", "/dims/batch", "-1", "dims.batch: must be an integer >= 0 (got -1)");
    row("dims not an object", "/dims", "[8]",
        "dims: must be an object of dimension name: value (got [8])");
    row("value not text", "/values/sr", "16000", "values.sr: must be a string (got 16000)");
    row("values not an object", "/values", "[\"sr=16000\"]",
        "values: must be an object of input name: \"V,V,...\" (got [\"sr=16000\"])");
    row("no arch", "/arch", "-", "arch: missing");
    row("arch by name", "/arch", R"("stcp920")",
        "arch: must be an architecture description (an object) (got \"stcp920\")");
    row("arch clusters", "/arch/clusters", "-1",
        "arch.clusters: must be a positive integer (got -1)");
    row("arch lb bytes", "/arch/cluster/core_groups/0/local_buffer/bytes", "0",
        "arch.cluster.core_groups[0].local_buffer.bytes: must be a positive integer (got 0)");
    row("arch unknown field", "/arch/clock_mhz", "1000", "arch: unknown field 'clock_mhz'");
    row("unknown strategy", "/strategy", R"("fast")",
        "strategy: unknown strategy 'fast' (expected tvm, tvm-llb, astitch, dla, ago, ios, "
        "gt-gb, gt-lb, gt-instances, gt-paper or graphturbo)");
    row("no strategy", "/strategy", "-", "strategy: missing");
    row("level", "/level", R"("L2")", "level: unknown level 'L2' (expected auto, LB or GB)");
    row("level spelling", "/level", R"("lb")",
        "level: unknown level 'lb' (expected auto, LB or GB)");
    row("order", "/order", R"("random")",
        "order: unknown order 'random' (expected bfs, dfs or best)");
    row("precision", "/precision", R"("fp8")",
        "precision: unknown precision 'fp8' (expected f32, f16 or bf16)");
    row("batch total", "/batch/total", "0", "batch.total: must be an integer >= 1 (got 0)");
    row("per cluster", "/batch/per_cluster", R"("most")",
        "batch.per_cluster: must be an integer >= 1 or \"auto\" (got \"most\")");
    row("auto without a total", "/batch", R"({"per_cluster": "auto"})",
        "batch.per_cluster: \"auto\" needs batch.total");
    row("batch unknown field", "/batch/clusters", "4", "batch: unknown field 'clusters'");
    row("seq", "/model/seq", "0", "model.seq: must be an integer >= 1 (got 0)");
    row("overrides", "/overrides/split/0/factor", "0",
        "overrides.split[0].factor: must be an integer >= 1 (got 0)");
    rows.push_back(
        {"not an object", std::string("[1, 2]"), std::string("must be a JSON object (got [1,2])")});
    rows.push_back(
        {"not json", std::string("{\"format\": stagecraft}"),
         std::string("not valid JSON: parse error at line 1, column 12: syntax error "
                     "while parsing value - invalid literal; last read: '\"format\": s'")});
    return rows;
}

class RefusesCorruptFilesRows : public ::testing::TestWithParam<RefusesCorruptFilesRow> {};

TEST_P(RefusesCorruptFilesRows, refusesCorruptFiles) {
    std::string text = GetParam().text;
    std::string message = GetParam().message;
    auto read = io::readSessionJson(text, "s.stagecraft");
    ASSERT_EQ(errorOf(read), std::string("s.stagecraft: ") + message);
}

INSTANTIATE_TEST_SUITE_P(TestSessionJson, RefusesCorruptFilesRows,
                         ::testing::ValuesIn(refusesCorruptFilesRows()), test::RowName{});

TEST(TestSessionJson, savesAndLoads) {
    const io::Session session = fullSession();
    auto file = path("saved.stagecraft");
    ASSERT_TRUE(io::saveSession(file, io::Session{}).ok());
    Status saved = io::saveSession(file, session);
    ASSERT_TRUE(saved.ok()) << (saved.ok() ? "" : saved.error().message().c_str());
    auto loaded = io::loadSession(file);
    ASSERT_TRUE(loaded.ok()) << (errorOf(loaded));
    ASSERT_TRUE(*loaded == session);
    Status nowhere = io::saveSession(path("no/such/dir/s.stagecraft"), session);
    ASSERT_TRUE(!nowhere.ok());
    ASSERT_TRUE(nowhere.error().message().starts_with(path("no/such/dir/s.stagecraft").string()));
}

TEST(TestSessionJson, refusesBadFiles) {
    std::string text = io::writeSessionJson(fullSession());
    auto truncated = path("truncated.stagecraft");
    std::ofstream(truncated, std::ios::binary) << text.substr(0, text.find("  \"dims\""));
    auto empty = path("empty.stagecraft");
    std::ofstream(empty, std::ios::binary) << "\n  \n";
    std::filesystem::create_directory(path("folder.stagecraft"));
    const std::pair<std::string, std::string> cases[] = {
        {"truncated.stagecraft",
         "not valid JSON: parse error at line 13, column 1: syntax error while parsing "
         "object key - unexpected end of input; expected string literal"},
        {"empty.stagecraft", "empty file, not a stagecraft session"},
        {"folder.stagecraft", "is a directory, not a regular file"},
        {"missing.stagecraft", "cannot open: No such file or directory"},
    };
    for (const auto& [name, message] : cases)
        ASSERT_EQ(errorOf(io::loadSession(path(name))), (path(name).string() + ": " + message));
}
