// Loading a model for a per-cluster batch K (model_load.h). The
// batch dim of a file is read from its declaration (libonnx), before import,
// so that a symbolic dim can be bound to K and a fixed one checked against it
// with a message that says why K cannot be used.

#include "driver/model_load.h"

#include "ir/precision.h"
#include "support/error_context.h"
#include "support/file.h"
#include "support/strings.h"
#include "zoo/zoo.h"

#include <onnx/onnx_pb.h>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <set>
#include <system_error>
#include <utility>

namespace stagecraft::driver {

namespace {

namespace fs = std::filesystem;

/// A directory under the system's temporary directory, removed with its
/// contents on destruction.
class TempDir {
public:
    static Expected<TempDir> create() {
        std::string pattern = (fs::temp_directory_path() / "stagecraft-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr)
            return Error("cannot create a temporary directory in " +
                         fs::temp_directory_path().string());
        return TempDir(pattern);
    }
    TempDir(TempDir&& other) noexcept
        : path_(std::exchange(other.path_, {})) {}
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    TempDir& operator=(TempDir&&) = delete;
    ~TempDir() {
        std::error_code ignored;
        if (!path_.empty())
            fs::remove_all(path_, ignored);
    }
    const fs::path& path() const { return path_; }

private:
    explicit TempDir(fs::path path)
        : path_(std::move(path)) {}
    fs::path path_;
};

/// Dim 0 of the first graph input as the file declares it.
struct BatchDim {
    std::string input;
    std::optional<int64_t> value;
    /// The symbolic name when not fixed.
    std::string param;
};

Expected<BatchDim> declaredBatchDim(const fs::path& path) {
    SC_ASSIGN_OR_RETURN(auto file, MappedFile::open(path));
    auto bytes = file->bytes();
    onnx::ModelProto model;
    if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
        !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        return Error(path.string() + ": cannot parse the ONNX protobuf");
    std::set<std::string> initializers;
    for (const auto& tensor : model.graph().initializer())
        initializers.insert(tensor.name());
    std::optional<BatchDim> scalar;
    for (const auto& input : model.graph().input()) {
        if (initializers.count(input.name()))
            continue;
        BatchDim dim{input.name(), std::nullopt, ""};
        if (input.type().has_sequence_type() || input.type().has_optional_type() ||
            input.type().has_map_type())
            return Error(path.string() + ": input " + quote(input.name()) +
                         " is a sequence, optional or map; Stagecraft takes tensor inputs only");
        const auto& type = input.type().tensor_type();
        if (type.has_shape() && type.shape().dim_size() == 0) {
            // A scalar (a sample rate, a step count) has no batch: the next input may.
            if (!scalar)
                scalar = BatchDim{input.name(), 1, ""};
            continue;
        }
        if (!type.has_shape())
            return dim;
        const auto& first = type.shape().dim(0);
        if (first.has_dim_value() && first.dim_value() >= 0)
            dim.value = first.dim_value();
        else if (first.has_dim_param())
            dim.param = first.dim_param();
        return dim;
    }
    if (scalar)
        return *scalar; // only scalar inputs: one sample
    return Error(path.string() + ": the model has no graph input, so no batch dim");
}

/// The batch a file has after the user's bindings, or nullopt when open.
std::optional<int64_t> boundBatch(const ModelSpec& spec, const BatchDim& dim) {
    if (auto shape = spec.import.inputShapes.find(dim.input);
        shape != spec.import.inputShapes.end() && !shape->second.empty())
        return shape->second[0];
    if (dim.value)
        return dim.value;
    if (auto bound = spec.import.dims.find(dim.param);
        !dim.param.empty() && bound != spec.import.dims.end())
        return bound->second;
    return std::nullopt;
}

Expected<LoadedModel> importFile(const fs::path& path, const onnxio::ImportOptions& options,
                                 std::optional<ir::DType> precision) {
    SC_ASSIGN_OR_RETURN(onnxio::ImportResult imported, onnxio::importModel(path, options));
    if (precision) {
        SC_ASSIGN_OR_RETURN(imported.graph, ir::convertPrecision(imported.graph, *precision));
    }
    return LoadedModel{std::move(imported.graph), std::move(imported.warnings),
                       std::move(imported.boundValues), nullptr};
}

Expected<LoadedModel> loadZoo(const ModelSpec& spec, int64_t perCluster) {
    if (spec.cachedZoo) {
        // The model's defaults are 0 in the cache's names: one file per model.
        const zoo::ZooModelInfo* info = zoo::findZooModel(spec.zooName);
        int64_t batch = info && perCluster == info->defaultBatch ? 0 : perCluster;
        int64_t seq = info && info->defaultSeq && spec.seq == *info->defaultSeq ? 0 : spec.seq;
        SC_ASSIGN_OR_RETURN(fs::path file, zoo::cachedZooModel(spec.zooName, seq, batch));
        return importFile(file, {}, spec.precision);
    }
    SC_ASSIGN_OR_RETURN(TempDir dir, TempDir::create());
    zoo::ZooOptions options;
    options.batch = perCluster;
    options.seq = spec.seq;
    options.weights = spec.weights;
    fs::path file = dir.path() / (spec.zooName + ".onnx");
    SC_RETURN_IF_ERROR(zoo::writeZooModel(spec.zooName, options, file));
    SC_ASSIGN_OR_RETURN(LoadedModel model, importFile(file, {}, spec.precision));
    model.files = std::make_shared<TempDir>(std::move(dir));
    return model;
}

Expected<LoadedModel> loadFile(const ModelSpec& spec, int64_t perCluster) {
    SC_ASSIGN_OR_RETURN(BatchDim dim, declaredBatchDim(spec.text));
    onnxio::ImportOptions options = spec.import;
    if (std::optional<int64_t> bound = boundBatch(spec, dim)) {
        if (*bound != perCluster)
            return Error(spec.text + ": the model's batch is fixed to " + std::to_string(*bound) +
                         " (dim 0 of input " + quote(dim.input) +
                         (dim.value ? "" : ", bound on the command line") + "), so it cannot run " +
                         std::to_string(perCluster) + " per cluster: pass --per-cluster " +
                         std::to_string(*bound));
    } else if (!dim.param.empty()) {
        options.dims[dim.param] = perCluster;
    } else {
        return Error(spec.text + ": dim 0 of input " + quote(dim.input) +
                     " has no name to bind the batch to: pass its shape with --input " + dim.input +
                     ":SHAPE");
    }
    return importFile(spec.text, options, spec.precision);
}

} // namespace

Expected<std::optional<int64_t>> fixedBatch(const ModelSpec& spec) {
    if (!spec.zooName.empty())
        return std::optional<int64_t>();
    SC_ASSIGN_OR_RETURN(BatchDim dim, declaredBatchDim(spec.text));
    return boundBatch(spec, dim);
}

Expected<int64_t> defaultBatch(const ModelSpec& spec, bool perClusterOption) {
    if (!spec.zooName.empty()) {
        const zoo::ZooModelInfo* model = zoo::findZooModel(spec.zooName);
        if (!model)
            return Error("unknown zoo model " + quote(spec.zooName) +
                         " (see 'stagecraft zoo --list')");
        return spec.zooBatch.value_or(model->defaultBatch);
    }
    SC_ASSIGN_OR_RETURN(BatchDim dim, declaredBatchDim(spec.text));
    if (std::optional<int64_t> bound = boundBatch(spec, dim)) {
        if (*bound < 1)
            return Error(spec.text + ": the batch (dim 0 of input " + quote(dim.input) + ") is " +
                         std::to_string(*bound) + "; it must be at least 1");
        return *bound;
    }
    std::string bind =
        dim.param.empty() ? "--input " + dim.input + ":SHAPE" : "--dim " + dim.param + "=K";
    return Error(spec.text + ": the batch (dim 0 of input " + quote(dim.input) +
                 ") is not fixed: pass " + (perClusterOption ? "--per-cluster K or " : "") + bind);
}

Error inModel(const ModelSpec& spec, const Error& error) {
    return inContext(error, spec.text);
}

Expected<LoadedModel> loadModel(const ModelSpec& spec, int64_t perCluster) {
    return spec.zooName.empty() ? loadFile(spec, perCluster) : loadZoo(spec, perCluster);
}

} // namespace stagecraft::driver
