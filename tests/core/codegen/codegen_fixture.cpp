#include "codegen_fixture.h"

#include "arch/presets.h"
#include "coretestsupport.h"
#include "schedule/clusters.h"
#include "support/file.h"
#include "zoo/zoo.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>

namespace stagecraft::test {

namespace {

/// \p text quoted for the shell.
std::string shellQuoted(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

int64_t batchOf(const ir::Graph& graph) {
    if (graph.inputs().empty())
        return 1;
    const ir::Shape& shape = graph.tensor(graph.inputs().front()).shape;
    return shape.empty() || shape.front() < 1 ? 1 : shape.front();
}

schedule::ClusterPlan clustersFor(const ir::Graph& graph, const arch::Arch& arch) {
    int64_t batch = batchOf(graph);
    auto clusters = schedule::makeClusterPlan(batch * arch.clusters, arch.clusters, batch);
    SC_ASSERT(clusters.ok(), "a model's own batch makes a cluster plan");
    return *clusters;
}

/// The group with the most ops first.
std::vector<partition::GroupId> groupsBySize(const schedule::Schedule& s) {
    std::vector<partition::GroupId> groups;
    for (partition::GroupId g : s.groups.ids())
        groups.push_back(g);
    std::stable_sort(groups.begin(), groups.end(), [&](auto a, auto b) {
        return s.partition.ops(a).size() > s.partition.ops(b).size();
    });
    return groups;
}

/// The zoo model \p name written with seeded weights and \p options into \p dir.
ModelFile writeSeededZoo(const std::filesystem::path& dir, const std::string& name,
                         zoo::ZooOptions options) {
    options.weights = onnxio::WeightFill::Seeded;
    std::filesystem::create_directories(dir);
    std::filesystem::path path = dir / (name + ".onnx");
    auto written = zoo::writeZooModel(name, options, path);
    SC_ASSERT(written.ok(), "the zoo writes its models");
    return {path, {}};
}

} // namespace

ModelFile writeZoo(const std::filesystem::path& dir, const std::string& name, int64_t seq,
                   ir::DType precision) {
    zoo::ZooOptions options;
    options.seq = seq;
    options.precision = precision;
    return writeSeededZoo(dir, name, options);
}

ModelFile writeQuantizedZoo(const std::filesystem::path& dir, const std::string& name,
                            onnxio::Quantization mode) {
    zoo::ZooOptions options;
    options.quantization = mode;
    return writeSeededZoo(dir, name, options);
}

Expected<std::unique_ptr<Planned>> plan(const ModelFile& model, const std::string& archName,
                                        const std::string& strategyName,
                                        const schedule::Overrides& overrides) {
    SC_ASSIGN_OR_RETURN(onnxio::ImportResult imported,
                        onnxio::importModel(model.path, model.import));
    auto planned = std::make_unique<Planned>();
    planned->graph = std::move(imported.graph);
    SC_ASSIGN_OR_RETURN(arch::Arch arch, arch::resolveArch(archName));
    const sim::Strategy* strategy = sim::findStrategy(strategyName);
    SC_ASSERT(strategy != nullptr, "the suites name known strategies");
    schedule::ScheduleOptions options;
    options.overrides = overrides;
    options.recordTrace = false;
    SC_ASSIGN_OR_RETURN(
        planned->evaluation,
        sim::evaluate(planned->graph, arch, *strategy, clustersFor(planned->graph, arch), options));
    SC_ASSIGN_OR_RETURN(planned->plan,
                        codegen::planCode(planned->graph, planned->evaluation.schedule,
                                          planned->evaluation.program));
    return planned;
}

namespace {

/// graphturbo's schedule of \p graph with \p overrides, not simulated: the
/// search below only counts its groups and instances.
Expected<schedule::Schedule> scheduleOf(const ir::Graph& graph, const arch::Arch& arch,
                                        const schedule::Overrides& overrides) {
    schedule::ScheduleOptions options;
    options.overrides = overrides;
    options.recordTrace = false;
    options = sim::strategyOptions(*sim::findStrategy("graphturbo"), options);
    options.clusters = clustersFor(graph, arch);
    return schedule::buildSchedule(graph, arch, options);
}

/// A split of one group of \p base (with \p edits kept) that changes the
/// number of instances, trying the largest groups first and the smallest
/// other factor of each dim of their output.
std::optional<schedule::Overrides> splitOf(const ir::Graph& graph, const arch::Arch& arch,
                                           const schedule::Schedule& base,
                                           const schedule::Overrides& edits) {
    for (partition::GroupId g : groupsBySize(base)) {
        const schedule::Group& group = base.groups[g];
        int64_t current = group.split ? group.split->factor : 1;
        const ir::Shape& out = graph.tensor(group.splitInfo.output).shape;
        for (size_t d = 0; d < out.size(); ++d)
            for (int64_t f = 2; f <= out[d]; ++f) {
                if (out[d] % f != 0 || f == current)
                    continue;
                schedule::Overrides o = edits;
                o.splits.push_back(
                    {graph.op(base.partition.ops(g).front()).name, static_cast<int>(d), f});
                auto changed = scheduleOf(graph, arch, o);
                if (changed.ok() && changed->instances.size() != base.instances.size())
                    return o;
                break;
            }
    }
    return std::nullopt;
}

} // namespace

std::optional<schedule::Overrides> changedSplit(const ModelFile& model,
                                                const std::string& archName) {
    auto imported = onnxio::importModel(model.path, model.import);
    auto arch = arch::resolveArch(archName);
    if (!imported.ok() || !arch.ok())
        return std::nullopt;
    const ir::Graph& graph = imported->graph;
    auto base = scheduleOf(graph, *arch, {});
    if (!base.ok())
        return std::nullopt;
    if (auto split = splitOf(graph, *arch, *base, {}))
        return split;
    // The whole model may be one group whose output has no dim to split (a
    // wake-word model's [1,1] score): ungroup it first, as a user would.
    for (partition::GroupId g : groupsBySize(*base))
        for (ir::OpId op : base->partition.ops(g)) {
            schedule::Overrides ungroup;
            ungroup.ungroups.push_back({graph.op(op).name});
            auto regrouped = scheduleOf(graph, *arch, ungroup);
            if (!regrouped.ok() || regrouped->groups.size() == base->groups.size())
                continue;
            if (auto split = splitOf(graph, *arch, *regrouped, ungroup))
                return split;
        }
    return std::nullopt;
}

std::filesystem::path withExtraOutputs(const std::filesystem::path& model,
                                       const std::vector<std::string>& names) {
    onnx::ModelProto proto;
    std::ifstream in(model, std::ios::binary);
    SC_ASSERT(proto.ParseFromIstream(&in), "the model parses");
    for (const std::string& name : names) {
        auto* info = proto.mutable_graph()->add_output();
        info->set_name(name);
        info->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    }
    std::filesystem::path probe = model.parent_path() / (model.stem().string() + ".probe.onnx");
    std::ofstream(probe, std::ios::binary) << proto.SerializeAsString();
    return probe;
}

namespace {

/// The bytes of \p tensor, read from its external file when it has one.
std::string initializerBytes(const onnx::TensorProto& tensor, const std::filesystem::path& dir) {
    if (tensor.data_location() != onnx::TensorProto::EXTERNAL)
        return tensor.raw_data();
    std::string location;
    int64_t offset = 0, length = 0;
    for (const auto& entry : tensor.external_data()) {
        if (entry.key() == "location")
            location = entry.value();
        else if (entry.key() == "offset")
            offset = std::stoll(entry.value());
        else if (entry.key() == "length")
            length = std::stoll(entry.value());
    }
    std::ifstream in(dir / location, std::ios::binary);
    std::string bytes(static_cast<size_t>(length), '\0');
    in.seekg(offset);
    SC_ASSERT(in.read(bytes.data(), length).good(), "external weights are readable");
    return bytes;
}

} // namespace

std::filesystem::path withNudgedWeights(const std::filesystem::path& model,
                                        const std::vector<std::string>& suffixes, uint32_t seed) {
    onnx::ModelProto proto;
    std::ifstream in(model, std::ios::binary);
    SC_ASSERT(proto.ParseFromIstream(&in), "the model parses");
    std::mt19937 random(seed);
    for (onnx::TensorProto& tensor : *proto.mutable_graph()->mutable_initializer()) {
        const std::string& name = tensor.name();
        auto endsWith = [&](const std::string& suffix) {
            return name.size() >= suffix.size() &&
                   name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
        };
        if (tensor.data_type() != onnx::TensorProto::FLOAT ||
            std::none_of(suffixes.begin(), suffixes.end(), endsWith))
            continue;
        std::string bytes = initializerBytes(tensor, model.parent_path());
        for (size_t at = 0; at + 4 <= bytes.size(); at += 4) {
            uint32_t bits = 0;
            std::memcpy(&bits, bytes.data() + at, 4);
            bits = (random() & 1) != 0 ? bits + 1 : bits - 1; // one ulp (finite, nonzero)
            std::memcpy(bytes.data() + at, &bits, 4);
        }
        tensor.clear_external_data();
        tensor.set_data_location(onnx::TensorProto::DEFAULT);
        tensor.set_raw_data(bytes);
    }
    std::filesystem::path nudged =
        model.parent_path() / (model.stem().string() + ".nudged" + std::to_string(seed) + ".onnx");
    std::ofstream(nudged, std::ios::binary) << proto.SerializeAsString();
    return nudged;
}

Expected<codegen::TensorSet> runOnnxRuntime(const std::filesystem::path& model,
                                            const codegen::TensorSet& inputs, bool optimized) {
    test::TempDir dir;
    std::string inPath = dir.filePath("inputs.json");
    std::string outPath = dir.filePath("outputs.json");
    std::string errPath = dir.filePath("stderr.txt");
    SC_RETURN_IF_ERROR(writeFileAtomic(inPath, codegen::writeTensorsJson(inputs)));
    // node with a 600 s bound, its stderr kept for the message.
    std::string script = (sourceDir() / "tests/oracle/run-model.js").string();
    std::string level = optimized ? "STAGECRAFT_ORT_OPTIMIZATION=all " : "";
    std::string command = level + "timeout 600 node " + shellQuoted(script) + " " +
                          shellQuoted(model.string()) + " " + shellQuoted(inPath) + " " +
                          shellQuoted(outPath) + " 2>" + shellQuoted(errPath);
    if (std::system(command.c_str()) != 0) {
        Expected<std::string> err = readFile(errPath);
        return Error("ONNX Runtime failed (run scripts/setup-oracle): " +
                     (err.ok() ? *err : std::string()));
    }
    SC_ASSIGN_OR_RETURN(std::string text, readFile(outPath));
    return codegen::readTensorsJson(text, outPath);
}

} // namespace stagecraft::test
