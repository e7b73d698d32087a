// The op-family training set of calibration (families.h). Each model is
// written with ModelBuilder into a private temporary directory, imported
// like any file, scheduled by tvm (one kernel per op), simulated, emitted
// for the host and run.

#include "calibrate/families.h"

#include "codegen/code_plan.h"
#include "codegen/codegen.h"
#include "codegen/host_run.h"
#include "onnx/importer.h"
#include "onnx/model_builder.h"
#include "schedule/clusters.h"
#include "sim/compare.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace stagecraft::calibrate {

namespace {

namespace fs = std::filesystem;
using ir::DType;
using onnxio::ModelBuilder;

struct Family {
    const char* name;
    const char* category;
    std::function<void(ModelBuilder&)> build;
};

void unary(ModelBuilder& m, const char* type, const ir::Shape& shape) {
    std::vector<onnxio::Dim> dims(shape.begin(), shape.end());
    m.addInput("x", DType::Float32, dims);
    m.addNode(type, {"x"}, {"y"}, "op");
    m.addOutput("y", DType::Float32, {}, false);
}

void conv(ModelBuilder& m, int64_t channels, int64_t size, int64_t out, int64_t kernel,
          int64_t groups) {
    m.addInput("x", DType::Float32, {int64_t{1}, channels, size, size});
    m.addExternalInitializer("w", DType::Float32, {out, channels / groups, kernel, kernel});
    int64_t pad = kernel / 2;
    m.addNode("Conv", {"x", "w"}, {"y"}, "op")
        .attr("kernel_shape", std::vector<int64_t>{kernel, kernel})
        .attr("pads", std::vector<int64_t>{pad, pad, pad, pad})
        .attr("group", groups);
    m.addOutput("y", DType::Float32, {}, false);
}

const std::vector<Family>& families() {
    static const std::vector<Family> all = {
        {"conv3x3", "conv",
         [](ModelBuilder& m) {
             conv(m, 64, 28, 64, 3, 1);
         }},
        {"conv1x1", "conv",
         [](ModelBuilder& m) {
             conv(m, 256, 14, 256, 1, 1);
         }},
        {"dwconv3x3", "conv",
         [](ModelBuilder& m) {
             conv(m, 128, 28, 128, 3, 128);
         }},
        {"convtranspose2x2", "conv_transpose",
         [](ModelBuilder& m) {
             m.addInput("x", DType::Float32, {int64_t{1}, int64_t{64}, int64_t{28}, int64_t{28}});
             m.addExternalInitializer("w", DType::Float32, {64, 32, 2, 2});
             m.addNode("ConvTranspose", {"x", "w"}, {"y"}, "op")
                 .attr("kernel_shape", std::vector<int64_t>{2, 2})
                 .attr("strides", std::vector<int64_t>{2, 2});
             m.addOutput("y", DType::Float32, {}, false);
         }},
        {"matmul", "matmul",
         [](ModelBuilder& m) {
             m.addInput("x", DType::Float32, {int64_t{1}, int64_t{128}, int64_t{512}});
             m.addExternalInitializer("w", DType::Float32, {512, 512});
             m.addNode("MatMul", {"x", "w"}, {"y"}, "op");
             m.addOutput("y", DType::Float32, {}, false);
         }},
        {"add", "elementwise",
         [](ModelBuilder& m) {
             std::vector<onnxio::Dim> dims = {int64_t{1}, int64_t{64}, int64_t{56}, int64_t{56}};
             m.addInput("x", DType::Float32, dims);
             m.addInput("z", DType::Float32, dims);
             m.addNode("Add", {"x", "z"}, {"y"}, "op");
             m.addOutput("y", DType::Float32, {}, false);
         }},
        {"relu", "elementwise",
         [](ModelBuilder& m) {
             unary(m, "Relu", {1, 256, 28, 28});
         }},
        {"sigmoid", "transcendental",
         [](ModelBuilder& m) {
             unary(m, "Sigmoid", {1, 256, 28, 28});
         }},
        {"reducemean", "reduction",
         [](ModelBuilder& m) {
             m.addInput("x", DType::Float32, {int64_t{1}, int64_t{64}, int64_t{56}, int64_t{56}});
             m.addNode("ReduceMean", {"x"}, {"y"}, "op").attr("axes", std::vector<int64_t>{3});
             m.addOutput("y", DType::Float32, {}, false);
         }},
        {"softmax", "normalization",
         [](ModelBuilder& m) {
             unary(m, "Softmax", {1, 12, 128, 128});
         }},
        {"transpose", "injective",
         [](ModelBuilder& m) {
             m.addInput("x", DType::Float32, {int64_t{1}, int64_t{64}, int64_t{56}, int64_t{56}});
             m.addNode("Transpose", {"x"}, {"y"}, "op")
                 .attr("perm", std::vector<int64_t>{0, 2, 3, 1});
             m.addOutput("y", DType::Float32, {}, false);
         }},
    };
    return all;
}

/// A directory removed with everything in it when dropped.
class ScratchDir {
public:
    ScratchDir() {
        std::string pattern = (fs::temp_directory_path() / "stagecraft-calibrate-XXXXXX").string();
        if (char* made = ::mkdtemp(pattern.data()); made != nullptr)
            path_ = made;
    }
    ~ScratchDir() {
        std::error_code ec;
        if (!path_.empty())
            fs::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

/// The fastest of a kernel's timed runs: on a shared machine interference
/// only adds time, so the fastest run is the estimate of the kernel's own
/// time that moves least between calibrations (`stagecraft fidelity` takes
/// the same of the models' kernels).
double fastest(const std::vector<double>& values) {
    return values.empty() ? 0 : *std::min_element(values.begin(), values.end());
}

/// Rounds of timing: the whole set is timed in turn this many times, so that
/// each kernel's samples spread over the calibration rather than one moment
/// of a machine whose speed drifts (docs/simulator.md, "Fidelity").
constexpr int kRounds = 3;

/// One training model, simulated and linked for the host, and its samples.
struct Prepared {
    ir::Graph graph;
    codegen::CodePlan plan;
    std::unique_ptr<codegen::HostProgram> host;
    codegen::TensorSet inputs;
    FamilyKernel kernel;
    std::vector<double> times;
};

Expected<std::unique_ptr<Prepared>> prepare(const Family& family, const arch::Arch& arch,
                                            const fs::path& dir) {
    ModelBuilder builder(family.name, 13);
    family.build(builder);
    fs::path file = dir / (std::string(family.name) + ".onnx");
    SC_RETURN_IF_ERROR(builder.save(file, onnxio::WeightFill::Seeded));
    auto p = std::make_unique<Prepared>();
    SC_ASSIGN_OR_RETURN(onnxio::ImportResult imported, onnxio::importModel(file));
    p->graph = std::move(imported.graph);
    SC_ASSIGN_OR_RETURN(schedule::ClusterPlan clusters,
                        schedule::makeClusterPlan(arch.clusters, arch.clusters, 1));
    SC_ASSIGN_OR_RETURN(sim::Evaluation ev,
                        sim::evaluate(p->graph, arch, *sim::findStrategy("tvm"), clusters));
    SC_ASSIGN_OR_RETURN(p->plan, codegen::planCode(p->graph, ev.schedule, ev.program));
    codegen::runOnThisHost(p->plan);
    SC_ASSIGN_OR_RETURN(codegen::EmittedProgram program,
                        codegen::emitProgram(p->graph, *ev.schedule.semantics, p->plan,
                                             {codegen::Target::Host, 2, 0, false, {}}));
    SC_ASSIGN_OR_RETURN(p->host, codegen::HostProgram::load(p->graph, p->plan, program));
    SC_ASSIGN_OR_RETURN(p->inputs, codegen::seededInputs(p->graph));
    p->kernel = {family.name, family.category, 0, 0, 0};
    const sim::Breakdown& b = ev.report.attribution.run;
    p->kernel.simulatedNs = b.totalNs;
    for (sim::Cause c : {sim::Cause::ComputeMatrix, sim::Cause::ComputeVector,
                         sim::Cause::ComputeScalar, sim::Cause::ComputeFallback})
        p->kernel.computeNs += b.at(c);
    return p;
}

/// Two warm-up runs, then \p repetitions timed ones appended to p.times.
Status timeRuns(Prepared& p, int repetitions) {
    for (int r = 0; r < repetitions + 2; ++r) {
        codegen::HostRunStats stats;
        Expected<codegen::TensorSet> outputs = p.host->run(p.inputs, &stats);
        if (!outputs.ok())
            return outputs.error();
        if (r >= 2)
            p.times.push_back(stats.seconds * 1e9);
    }
    return Status::success();
}

} // namespace

Expected<std::vector<FamilyKernel>> measureFamilies(const arch::Arch& arch, int repetitions,
                                                    const Progress& progress) {
    ScratchDir dir;
    if (dir.path().empty())
        return Error("calibration: cannot create a temporary directory");
    std::vector<std::unique_ptr<Prepared>> set;
    for (const Family& family : families()) {
        if (progress)
            progress(std::string("building the ") + family.name + " kernel");
        auto p = prepare(family, arch, dir.path());
        if (!p.ok())
            return p.error().withContext(std::string("calibration: ") + family.name);
        set.push_back(std::move(p).value());
    }
    for (int round = 0; round < kRounds; ++round) {
        if (progress)
            progress("timing the set, round " + std::to_string(round + 1) + " of " +
                     std::to_string(kRounds));
        for (auto& p : set)
            if (Status timed = timeRuns(*p, repetitions); !timed.ok())
                return timed.error().withContext("calibration: " + p->kernel.name);
    }
    std::vector<FamilyKernel> kernels;
    for (auto& p : set) {
        p->kernel.measuredNs = fastest(p->times);
        kernels.push_back(p->kernel);
    }
    return kernels;
}

} // namespace stagecraft::calibrate
