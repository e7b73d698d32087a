// The zoo's registry: which models exist, their defaults and accepted options,
// and writing one (build with its builder, set the doc_string, save).
// Defaults are batch 1 (Table 2's batch sizes are in the descriptions) except
// the figure models, whose default N = 8 is Fig. 3's images per cluster.

#include "zoo/zoo.h"

#include "support/private_dir.h"
#include "support/sha256.h"
#include "support/strings.h"
#include "zoo/internal/models.h"

#include <atomic>
#include <system_error>
#include <unistd.h>

namespace stagecraft::zoo {

namespace {

using Builder = void (*)(Net&, const ModelConfig&);

struct Entry {
    ZooModelInfo info;
    Builder build;
    /// Extra text for the doc_string (deviations from the original model).
    std::string (*note)() = nullptr;
};

ZooModelInfo info(std::string name, std::string description, int64_t batch,
                  std::optional<int64_t> seq = std::nullopt, int64_t minSeq = 0,
                  int64_t maxSeq = 0) {
    return ZooModelInfo{std::move(name), std::move(description), batch, seq, minSeq, maxSeq, {}};
}

ZooModelInfo figure(std::string name, std::string description, ZooSetup setup) {
    ZooModelInfo model = info(std::move(name), std::move(description), 8);
    model.setup = std::move(setup);
    return model;
}

const std::vector<Entry>& entries() {
    static const std::vector<Entry> table = {
        {info("resnet50", "ResNet-50 v1.5 (torchvision resnet50), 224x224; Table 2 A uses batch 64",
              1),
         buildResNet50},
        {info("bert-base",
              "BERT-base uncased (HuggingFace BertModel), 12 layers, hidden 768; Table 2 B-E use "
              "seq 128-512",
              1, 128, 1, 512),
         buildBertBase},
        {info("bert-large", "BERT-large uncased (HuggingFace BertModel), 24 layers, hidden 1024", 1,
              128, 1, 512),
         buildBertLarge},
        {info("dlrm",
              "DLRM, MLPerf Criteo Terabyte, embedding tables capped at 1M rows; Table 2 F uses "
              "batch 1024",
              1),
         buildDlrm, dlrmDocNote},
        {info("mobilenet-v2",
              "MobileNet v2 1.0 (torchvision mobilenet_v2), 224x224; Table 2 G uses batch 128", 1),
         buildMobileNetV2},
        {info("vit-b16", "ViT-B/16 (torchvision vit_b_16), 224x224; Table 2 H uses batch 32", 1),
         buildVitB16},
        {info("densenet121",
              "DenseNet-121 (torchvision densenet121), 224x224; Table 2 I uses batch 32", 1),
         buildDenseNet121},
        {info("squeezenet",
              "SqueezeNet 1.1 (torchvision squeezenet1_1), 224x224; measured by IOS and AGO", 1),
         buildSqueezeNet11},
        {info("inception-v3",
              "Inception-v3 (torchvision inception_v3, eval), 299x299; measured by IOS and DLA", 1),
         buildInceptionV3},
        {info("inception-v3-block",
              "Inception-v3's last block (Mixed_7c) on [N,2048,8,8]; IOS Fig. 10", 1),
         buildInceptionV3Block},
        {info("nasnet-a-cell",
              "one NASNet-A normal cell (Keras NASNetMobile, F=44) on two [N,264,28,28] inputs; "
              "IOS's NasNet",
              1),
         buildNasNetACell},
        {info("randwire-ws",
              "RandWire-WS small regime (C=78, N=32, WS(4, 0.75); Xie et al. 2019), 224x224; "
              "IOS's RandWire",
              1),
         buildRandWireSmall},
        {info("conformer",
              "Conformer-S encoder (16 layers, dim 144, 4 heads, kernel 32), log-mel [N,T,80]; "
              "Table 2 J uses batch 12",
              1, 1000, kConformerMinFrames, 60000),
         buildConformer},
        {figure("fig3-chain", "paper Fig. 3: four down-sampling conv stages on [N,8,32,32]",
                {"teaching", "lb", "Fig. 6: the stages split into 8, 4, 2 and 1 instances"}),
         buildFig3Chain},
        {figure(
             "fig2-blocks", "paper Fig. 2: a ResNet conv block and identity block on [N,8,8,8]",
             {"teaching", "lb", "Fig. 5: the blocks merge, the 16-channel tensors split in two"}),
         buildFig2Blocks},
        {info("resnet-reduced",
              "ResNet-50 v1.5 reduced to one bottleneck per stage, 112x112 (host-execution "
              "tests)",
              1),
         buildResNetReduced},
        {info("bert-2layer", "BERT-base with 2 encoder layers, hidden 768 (host-execution tests)",
              1, 128, 1, 512),
         buildBert2Layer},
    };
    return table;
}

const Entry* findEntry(std::string_view name) {
    for (const Entry& entry : entries())
        if (entry.info.name == name)
            return &entry;
    return nullptr;
}

std::string knownNames() {
    std::vector<std::string> names;
    for (const Entry& entry : entries())
        names.push_back(entry.info.name);
    return join(names, ", ");
}

Expected<ModelConfig> resolve(const ZooModelInfo& model, const ZooOptions& options) {
    ModelConfig config;
    config.batch = options.batch == 0 ? model.defaultBatch : options.batch;
    if (config.batch < 1 || config.batch > kMaxBatch)
        return Error("batch " + std::to_string(options.batch) + " is out of range for " +
                     model.name + " (1.." + std::to_string(kMaxBatch) + ")");
    if (!model.defaultSeq) {
        if (options.seq != 0)
            return Error("seq: " + model.name + " has no sequence length");
        return config;
    }
    config.seq = options.seq == 0 ? *model.defaultSeq : options.seq;
    if (config.seq < model.minSeq || config.seq > model.maxSeq)
        return Error("seq " + std::to_string(options.seq) + " is out of range for " + model.name +
                     " (" + std::to_string(model.minSeq) + ".." + std::to_string(model.maxSeq) +
                     ")");
    return config;
}

std::string docString(const Entry& entry, const ModelConfig& config, onnxio::WeightFill fill) {
    std::string text = entry.info.description + ". Written by stagecraft zoo: batch " +
                       std::to_string(config.batch);
    if (config.seq != 0)
        text += ", seq " + std::to_string(config.seq);
    text += fill == onnxio::WeightFill::Zeros ? ", zero weights" : ", seeded weights";
    if (entry.note != nullptr)
        text += ". " + entry.note();
    return text;
}

Status checkOutputPath(const std::filesystem::path& out) {
    if (!out.has_filename() || out.stem().empty())
        return Error(quote(out.string()) + ": the output needs a file name");
    if (out.extension() == ".weights")
        return Error(quote(out.string()) + ": the model would be overwritten by its own weights "
                                           "file; use another extension, e.g. .onnx");
    return Status::success();
}

} // namespace

const std::vector<ZooModelInfo>& zooModels() {
    static const std::vector<ZooModelInfo> models = [] {
        std::vector<ZooModelInfo> list;
        for (const Entry& entry : entries())
            list.push_back(entry.info);
        return list;
    }();
    return models;
}

const ZooModelInfo* findZooModel(std::string_view name) {
    const Entry* entry = findEntry(name);
    return entry == nullptr ? nullptr : &entry->info;
}

Expected<ZooWriteResult> writeZooModel(std::string_view name, const ZooOptions& options,
                                       const std::filesystem::path& out) {
    const Entry* entry = findEntry(name);
    if (entry == nullptr)
        return Error("unknown model " + quote(name) + " (known: " + knownNames() + ")");
    SC_ASSIGN_OR_RETURN(ModelConfig config, resolve(entry->info, options));
    SC_RETURN_IF_ERROR(checkOutputPath(out));

    Net net(entry->info.name);
    entry->build(net, config);
    net.builder().setDocString(docString(*entry, config, options.weights));
    if (options.precision != ir::DType::Float32)
        net.builder().convertFloats(options.precision);
    if (options.quantization)
        net.builder().quantize(*options.quantization);
    SC_RETURN_IF_ERROR(net.builder().save(out, options.weights));

    ZooWriteResult result;
    result.modelPath = out;
    result.weightsPath = out.parent_path() / (out.stem().string() + ".weights");
    result.batch = config.batch;
    result.seq = config.seq;
    result.parameters = net.learnableCount();
    std::error_code error;
    auto size = std::filesystem::file_size(result.weightsPath, error);
    if (error)
        return Error(result.weightsPath.string() + ": " + error.message());
    result.weightBytes = static_cast<int64_t>(size);
    return result;
}

namespace {

/// Bumped whenever a zoo model's bytes change: files of other versions are
/// never read.
constexpr int kCacheVersion = 2;

/// "model <sha256>\nweights <sha256>\n" of the two files in \p dir.
Expected<std::string> sumsOf(const PrivateDir& dir, const std::string& model,
                             const std::string& weights) {
    std::string text;
    for (auto [label, name] : {std::pair{"model", &model}, std::pair{"weights", &weights}}) {
        if (!dir.hasFile(*name))
            return Error((dir.path() / *name).string() + ": missing or not a regular file");
        SC_ASSIGN_OR_RETURN(std::string sum, fileSha256(dir.path() / *name));
        text += std::string(label) + " " + sum + "\n";
    }
    return text;
}

/// Writes the model into a staging directory of \p dir and moves it in,
/// weights first, then the sums that vouch for both.
Status writeCached(const PrivateDir& dir, std::string_view name, int64_t seq, int64_t batch,
                   const std::string& model, const std::string& sums) {
    static std::atomic<int> counter{0};
    SC_ASSIGN_OR_RETURN(PrivateDir staging, dir.sub(".writing-" + std::to_string(getpid()) + "-" +
                                                    std::to_string(counter.fetch_add(1))));
    ZooOptions options;
    options.seq = seq;
    options.batch = batch;
    Expected<ZooWriteResult> written = writeZooModel(name, options, staging.path() / model);
    auto moveIn = [&]() -> Status {
        if (!written.ok())
            return written.error();
        std::string weights = written->weightsPath.filename().string();
        SC_ASSIGN_OR_RETURN(std::string text, sumsOf(staging, model, weights));
        SC_RETURN_IF_ERROR(dir.moveIn(staging, weights));
        SC_RETURN_IF_ERROR(dir.moveIn(staging, model));
        return dir.write(sums, text);
    };
    Status moved = moveIn();
    std::error_code ignored;
    std::filesystem::remove_all(staging.path(), ignored);
    return moved;
}

} // namespace

Expected<std::filesystem::path> cachedZooModel(std::string_view name, int64_t seq, int64_t batch) {
    if (findEntry(name) == nullptr)
        return Error("unknown model " + quote(name) + " (known: " + knownNames() + ")");
    SC_ASSIGN_OR_RETURN(PrivateDir cache, PrivateDir::open(StateKind::Cache));
    SC_ASSIGN_OR_RETURN(PrivateDir dir, cache.sub("zoo"));
    std::string stem = std::string(name) + "-seq" + std::to_string(seq) + "-b" +
                       std::to_string(batch) + ".v" + std::to_string(kCacheVersion);
    std::string model = stem + ".onnx", sums = stem + ".sha256";
    SC_ASSIGN_OR_RETURN(std::optional<std::string> kept, dir.read(sums, 4096));
    if (kept) {
        std::string weights = stem + ".weights";
        Expected<std::string> now = sumsOf(dir, model, weights);
        if (now.ok() && *now == *kept)
            return dir.path() / model;
        SC_RETURN_IF_ERROR(dir.remove(sums)); // changed or truncated: made again
    }
    SC_RETURN_IF_ERROR(writeCached(dir, name, seq, batch, model, sums));
    return dir.path() / model;
}

std::optional<std::string> cachedZooName(const std::filesystem::path& file) {
    std::string name = file.filename().string();
    std::string suffix = ".v" + std::to_string(kCacheVersion) + ".onnx";
    size_t seq = name.rfind("-seq");
    if (file.parent_path().filename() != "zoo" || seq == std::string::npos ||
        !name.ends_with(suffix) || findEntry(name.substr(0, seq)) == nullptr)
        return std::nullopt;
    return name.substr(0, seq);
}

} // namespace stagecraft::zoo
