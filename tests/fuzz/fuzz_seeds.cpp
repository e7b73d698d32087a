// stagecraft_fuzz_seeds OUTDIR: writes the seed corpora of the harnesses
// (scripts/fuzz) to OUTDIR/<harness>/, made by the writers of core the way
// the CLI makes its files: zoo models and small hand-built models, the
// architecture presets as `stagecraft arch NAME --json` prints them,
// schedule documents of the schedule harness's graph, overrides and
// sessions with every kind of edit, tensors files of every element type,
// profiles, sweep specs of every kind of field and the results.jsonl of
// the records harness's spec (whole, in pieces, with a torn last line).

#include "arch/arch_json.h"
#include "arch/presets.h"
#include "codegen/profile.h"
#include "codegen/tensors.h"
#include "fuzz_support.h"
#include "io/overrides_json.h"
#include "io/schedule_json.h"
#include "io/session_json.h"
#include "ir/const_tensor.h"
#include "onnx/importer.h"
#include "schedule/pipeline.h"
#include "seed_models.h"
#include "support/file.h"
#include "sweep_fixture.h"
#include "zoo/zoo.h"

#include <cstdio>
#include <fstream>

using namespace stagecraft;
namespace fs = std::filesystem;

namespace {

fs::path outDir;
int seedCount = 0;

void writeSeed(const std::string& harness, const std::string& name, const std::string& bytes) {
    fs::create_directories(outDir / harness);
    std::ofstream(outDir / harness / name, std::ios::binary) << bytes;
    ++seedCount;
}

void warn(const std::string& what, const Error& error) {
    std::fprintf(stderr, "fuzz-seeds: %s: %s\n", what.c_str(), error.message().c_str());
}

/// Zoo models as model.onnx, so that their weights are "model.weights" (the
/// ONNX harness provides that file); the small hand-built models.
void onnxSeeds() {
    fs::path dir = fuzz::scratchDirectory() / "zoo";
    fs::create_directories(dir);
    for (const char* name :
         {"fig3-chain", "fig2-blocks", "resnet-reduced", "mobilenet-v2", "bert-2layer"}) {
        auto written = zoo::writeZooModel(name, {}, dir / "model.onnx");
        auto bytes = written.ok() ? readFile(dir / "model.onnx") : written.error();
        if (!bytes.ok()) {
            warn(name, bytes.error());
            continue;
        }
        writeSeed("onnx", std::string("zoo-") + name + ".onnx", *bytes);
    }
    for (const auto& [name, bytes] : fuzz::seedModels()) {
        std::ofstream(dir / "model.onnx", std::ios::binary) << bytes;
        if (auto imported = onnxio::importModel(dir / "model.onnx"); !imported.ok())
            warn("onnx/" + name + " (kept as a seed)", imported.error());
        writeSeed("onnx", name + ".onnx", bytes);
    }
    fs::remove_all(dir);
}

void archSeeds() {
    for (const std::string& name : arch::presetNames()) {
        if (auto preset = arch::loadPreset(name); preset.ok())
            writeSeed("arch", name + ".json", arch::toJson(*preset));
    }
}

/// \p into with the edits of \p more added.
schedule::Overrides combined(schedule::Overrides into, const schedule::Overrides& more) {
    auto append = [](auto& to, const auto& from) {
        to.insert(to.end(), from.begin(), from.end());
    };
    append(into.merges, more.merges);
    append(into.ungroups, more.ungroups);
    append(into.splits, more.splits);
    append(into.order, more.order);
    append(into.scopes, more.scopes);
    return into;
}

/// Edits of every kind that the pipeline accepts for \p graph on \p target:
/// none, of each kind the first of a few candidates that builds, then as
/// many of those together as still build.
std::vector<schedule::Overrides> overridesFor(const ir::Graph& graph, const arch::Arch& target) {
    auto builds = [&](const schedule::Overrides& overrides) {
        schedule::ScheduleOptions options;
        options.overrides = overrides;
        return schedule::buildSchedule(graph, target, options);
    };
    auto base = builds({});
    if (!base.ok())
        return {{}};
    // Candidates by kind: merge (after an ungroup), ungroup, split, scope, order.
    std::vector<std::vector<schedule::Overrides>> kinds(5);
    auto ops = graph.ops();
    for (size_t i = 1; i < ops.size(); ++i) {
        const std::string& op = ops[i].name;
        schedule::Overrides merge, ungroup, scope;
        merge.ungroups = {{op}};
        merge.merges = {{ops[0].name, ops[ops.size() - i].name}};
        ungroup.ungroups = {{op}};
        scope.scopes = {{graph.tensor(ops[i].outputs[0]).name,
                         i % 2 == 0 ? schedule::Scope::GB : schedule::Scope::DDR}};
        kinds[0].push_back(merge);
        kinds[1].push_back(ungroup);
        kinds[3].push_back(scope);
        for (int dim = 0; dim < 4 && ops[i].type == "Conv"; ++dim) {
            schedule::Overrides split;
            split.splits = {{op, dim, 2}};
            kinds[2].push_back(split);
        }
    }
    schedule::Overrides order;
    for (schedule::InstanceId id : base->order)
        order.order.push_back(base->instances[id].label);
    kinds[4].push_back(order);

    std::vector<schedule::Overrides> found{{}};
    schedule::Overrides all;
    for (const auto& candidates : kinds)
        for (const schedule::Overrides& candidate : candidates) {
            if (!builds(candidate).ok())
                continue;
            found.push_back(candidate);
            if (schedule::Overrides more = combined(all, candidate); builds(more).ok())
                all = more;
            break;
        }
    if (!all.empty() && all != found.back())
        found.push_back(all);
    return found;
}

/// Schedule documents on two architectures in every order, one with a
/// trace, some with overrides; overrides files; the smallest document is
/// an overrides seed too (the overrides reader takes documents).
void scheduleAndOverridesSeeds(const ir::Graph& graph) {
    using schedule::OrderChoice;
    const std::pair<OrderChoice, const char*> orders[] = {
        {OrderChoice::BFS, "bfs"}, {OrderChoice::DFS, "dfs"}, {OrderChoice::Best, "best"}};
    std::string smallest;
    for (const char* archName : {"teaching", "stcp920"}) {
        auto target = arch::loadPreset(archName);
        if (!target.ok())
            continue;
        std::vector<schedule::Overrides> edits = overridesFor(graph, *target);
        for (size_t e = 0; e < edits.size(); ++e)
            writeSeed("overrides", std::string(archName) + "-" + std::to_string(e) + ".json",
                      io::writeOverridesJson(edits[e]));
        for (size_t e = 0; e < edits.size(); ++e)
            for (const auto& [order, orderName] : orders) {
                schedule::ScheduleOptions options;
                options.order = order;
                options.level = e % 2 == 0 ? schedule::Level::LB : schedule::Level::GB;
                options.overrides = edits[e];
                auto built = schedule::buildSchedule(graph, *target, options);
                if (!built.ok()) {
                    warn(std::string("schedule on ") + archName, built.error());
                    continue;
                }
                io::ScheduleDocInfo info{"zoo:fig2-blocks", target->name, order, edits[e],
                                         order == OrderChoice::Best && e == 0};
                std::string doc = io::writeScheduleJson(graph, *built, info);
                writeSeed("schedule",
                          std::string(archName) + "-" + orderName + "-" + std::to_string(e) +
                              ".json",
                          doc);
                if (smallest.empty() || doc.size() < smallest.size())
                    smallest = doc;
            }
    }
    if (!smallest.empty())
        writeSeed("overrides", "schedule-document.json", smallest);
}

void sessionSeeds(const ir::Graph& graph) {
    auto teaching = arch::loadPreset("teaching");
    std::vector<schedule::Overrides> edits =
        teaching.ok() ? overridesFor(graph, *teaching) : std::vector<schedule::Overrides>{{}};
    auto strategies = io::sessionStrategyNames();
    std::vector<std::string> presets = arch::presetNames();
    for (size_t i = 0; i < presets.size(); ++i) {
        auto target = arch::loadPreset(presets[i]);
        if (!target.ok())
            continue;
        io::Session s;
        s.modelPath = "/data/models/" + presets[i] + ".onnx";
        s.modelSha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        if (i % 2 == 0)
            s.inputShapes["input"] = {1, 3, 224, 224};
        else
            s.dims["batch"] = 8;
        s.arch = *target;
        s.strategy = std::string(strategies[i % strategies.size()]);
        s.level = i % 2 == 0 ? schedule::Level::LB : schedule::Level::GB;
        s.order = static_cast<schedule::OrderChoice>(i % 3);
        s.overrides = edits[i % edits.size()];
        writeSeed("session", presets[i] + ".stagecraft", io::writeSessionJson(s));
    }
}

codegen::HostTensor tensor(std::string name, ir::DType dtype, ir::Shape shape) {
    codegen::HostTensor t{std::move(name), dtype, std::move(shape), {}};
    t.data.resize(static_cast<size_t>(t.elementCount() * ir::dtypeSize(dtype)));
    for (int64_t i = 0; i < t.elementCount(); ++i)
        ir::writeDouble(dtype, t.data, i, static_cast<double>(i % 7) * 0.75 - 2);
    return t;
}

void tensorsSeeds() {
    using ir::DType;
    writeSeed("tensors", "float.json",
              codegen::writeTensorsJson({tensor("x", DType::Float32, {2, 3}),
                                         tensor("half", DType::Float16, {4}),
                                         tensor("brain", DType::BFloat16, {2, 2}),
                                         tensor("double", DType::Float64, {3})}));
    writeSeed("tensors", "integer.json",
              codegen::writeTensorsJson(
                  {tensor("ids", DType::Int64, {1, 4}), tensor("i8", DType::Int8, {3}),
                   tensor("i16", DType::Int16, {2}), tensor("i32", DType::Int32, {2}),
                   tensor("u8", DType::UInt8, {2}), tensor("u16", DType::UInt16, {2}),
                   tensor("u32", DType::UInt32, {2}), tensor("u64", DType::UInt64, {2}),
                   tensor("mask", DType::Bool, {2, 2})}));
    writeSeed("tensors", "scalars-and-empty.json",
              codegen::writeTensorsJson(
                  {tensor("scalar", DType::Float32, {}), tensor("empty", DType::Float32, {0, 4})}));
    writeSeed("tensors", "none.json", codegen::writeTensorsJson({}));
}

/// A profile of \p kernels kernels as `run --profile` writes it.
codegen::Profile profile(const std::string& model, const std::string& strategy, size_t kernels) {
    codegen::Profile p{model, "host-cpu", strategy, "f32", 2, 10, {}, 0};
    for (size_t k = 0; k < kernels; ++k) {
        std::string label = std::string(1, static_cast<char>('a' + k % 3)) + std::to_string(k);
        double median = 1e5 * static_cast<double>(k + 1);
        p.kernels.push_back({codegen::kernelSymbol(k, label), label,
                             1 + static_cast<int64_t>(k % 4), median, median * 0.9, median * 1.5});
        p.totalMedianNs += median;
    }
    return p;
}

void profileSeeds() {
    writeSeed("profile", "fig3-graphturbo.json",
              codegen::writeProfileJson(profile("zoo:fig3-chain", "graphturbo", 3)));
    writeSeed("profile", "file-tvm.json",
              codegen::writeProfileJson(profile("models/det.onnx", "tvm", 12)));
    writeSeed("profile", "no-kernels.json", codegen::writeProfileJson(profile("m.onnx", "ios", 0)));
}

void sweepSpecSeeds() {
    writeSeed("sweep_spec", "fixture.json", std::string(fuzz::kRecordsSpec));
    writeSeed("sweep_spec", "smallest.json", R"({"models": ["zoo:fig3-chain"]})");
    writeSeed("sweep_spec", "docs.json", R"({
  "format": "stagecraft-sweep", "version": 1,
  "models": ["zoo:resnet50", {"model": "zoo:bert-base", "seq": 128}, "models/det.onnx"],
  "arch": {"base": "stcp920",
           "vary": {"gb_bytes": {"from": 2097152, "to": 33554432, "times": 2},
                    "clusters": [1, 2, 4],
                    "bandwidth:DDR->GB": {"from": 68, "to": 272, "step": 68}}},
  "strategies": ["tvm", "astitch", "graphturbo"],
  "precisions": ["f16", "f32"],
  "per_cluster": [1, 16],
  "levels": ["auto", "lb"]
})");
    writeSeed("sweep_spec", "every-axis.json", R"({
  "models": "zoo:mobilenet-v2", "arch": {"base": "teaching", "vary": {
    "lb_bytes": 65536, "cores": {"from": 1, "to": 4}, "clock_ghz": [0.8, 1.25],
    "rate:MME:f16": {"from": 64, "to": 256, "times": 2},
    "/cluster/global_buffer/bytes": [1048576]}},
  "strategies": "graphturbo", "precisions": ["model", "bf16"], "batch": {"from": 4, "to": 16,
  "step": 4}, "levels": "gb"})");
}

void sweepRecordsSeeds() {
    auto spec = sweep::parseSpec(fuzz::kRecordsSpec, "fixture.json");
    if (!spec.ok()) {
        warn("sweep_records", spec.error());
        return;
    }
    std::vector<sweep::SweepPoint> points = sweep::expandPoints(*spec);
    std::string all, some;
    for (const sweep::SweepPoint& point : points) {
        std::string line = sweep::recordLine(*spec, point, fuzz::pointResult(point.index)) + "\n";
        all += line;
        if (point.index % 5 == 0)
            some += line;
    }
    writeSeed("sweep_records", "all.jsonl", all);
    writeSeed("sweep_records", "some.jsonl", some);
    writeSeed("sweep_records", "torn.jsonl", some + all.substr(0, all.find('\n') / 2));
    writeSeed("sweep_records", "one.jsonl", all.substr(0, all.find('\n') + 1));
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: stagecraft_fuzz_seeds OUTDIR\n");
        return 2;
    }
    outDir = argv[1];
    ir::Graph graph = fuzz::scheduleGraph();
    onnxSeeds();
    archSeeds();
    scheduleAndOverridesSeeds(graph);
    sessionSeeds(graph);
    tensorsSeeds();
    profileSeeds();
    sweepSpecSeeds();
    sweepRecordsSeeds();
    std::printf("fuzz-seeds: %d seeds in %s\n", seedCount, outDir.c_str());
    return 0;
}
