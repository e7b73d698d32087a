#pragma once
/// \file
/// The model zoo: writes, as real ONNX files, the models the GraphTurbo paper
/// evaluates (§5, Table 2) in their standard configurations, plus the two
/// models of its figures (Fig. 2 ResNet blocks, Fig. 3 down-sampling chain).
/// The files look like what torch.onnx exports at opset 13: torchvision /
/// HuggingFace initializer names, BatchNormalization after convs, decomposed
/// LayerNorm and GELU, Reshape with constant shapes. Shapes are static: batch
/// and sequence length are fixed when the file is written. Weights go to one
/// external data file "<stem>.weights" next to the model. The same options give
/// byte-identical files.

#include "onnx/model_builder.h"
#include "support/expected.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::zoo {

/// How to write a zoo model. 0 means the model's default.
struct ZooOptions {
    /// Batch size N (1..kMaxBatch); 0 = the model's default.
    int64_t batch = 0;
    /// Sequence length (BERT tokens, Conformer frames); 0 = the model's
    /// default. An error for models without a sequence dimension.
    int64_t seq = 0;
    /// Zeros (a sparse file) or seeded pseudo-random values.
    onnxio::WeightFill weights = onnxio::WeightFill::Zeros;
    /// f16 or bf16: weights and activations stored at that width, inputs and
    /// outputs f32 (ModelBuilder::convertFloats); f32 (the default) as built.
    ir::DType precision = ir::DType::Float32;
    /// int8, static (QDQ) or dynamic (ModelBuilder::quantize); instead of
    /// \ref precision.
    std::optional<onnxio::Quantization> quantization = std::nullopt;
};

/// The largest batch size the zoo accepts.
inline constexpr int64_t kMaxBatch = 65536;

/// The configuration a paper figure's model is shown in: Studio opens the
/// model so unless the user chose an architecture or level (docs/zoo.md,
/// "Models of the paper's figures").
struct ZooSetup {
    /// An architecture preset.
    std::string arch;
    /// The buffer level: "lb", "gb" or "auto".
    std::string level;
    /// A few words: what the setup shows, citing the figure.
    std::string why;
};

/// One model of the zoo.
struct ZooModelInfo {
    std::string name;
    /// One line: what the model is and where its configuration comes from.
    std::string description;
    int64_t defaultBatch = 1;
    /// The default sequence length of models that have one.
    std::optional<int64_t> defaultSeq;
    /// The accepted sequence lengths (meaningful when defaultSeq is set).
    int64_t minSeq = 0;
    int64_t maxSeq = 0;
    /// The figure's configuration, for the models of the paper's figures.
    std::optional<ZooSetup> setup;
};

/// \returns the models of the zoo, in a fixed order.
const std::vector<ZooModelInfo>& zooModels();

/// \returns the model named \p name, or nullptr.
const ZooModelInfo* findZooModel(std::string_view name);

/// What writeZooModel wrote.
struct ZooWriteResult {
    std::filesystem::path modelPath;
    std::filesystem::path weightsPath;
    /// The batch and sequence length used (seq is 0 for models without one).
    int64_t batch = 0;
    int64_t seq = 0;
    /// Learnable parameters (BatchNorm running statistics excluded).
    int64_t parameters = 0;
    /// Size of the external weights file in bytes.
    int64_t weightBytes = 0;
};

/// Writes the model \p name to \p out and its weights to "<stem>.weights" in
/// the same directory. An unknown name gives an error listing the known
/// names; a bad batch or sequence length gives an error naming the option.
Expected<ZooWriteResult> writeZooModel(std::string_view name, const ZooOptions& options,
                                       const std::filesystem::path& out);

/// The model \p name (zero weights) at sequence length \p seq and batch
/// \p batch (0: the defaults), written once into the user's private cache
/// directory (support/private_dir.h), zoo/"<name>-seq<S>-b<B>.v<version>.onnx"
/// and its weights, for programs that open files (Studio, sweep sessions).
/// Written in a directory of its own and moved in, weights first, then the
/// SHA-256 of both; a file that no longer matches them (replaced,
/// truncated) is written again, never trusted.
Expected<std::filesystem::path> cachedZooModel(std::string_view name, int64_t seq, int64_t batch);

/// The NAME of a model \p file of the zoo's cache, as cachedZooModel names
/// it ("zoo/<name>-seq<S>-b<B>.v<version>.onnx"), or nothing for another file.
std::optional<std::string> cachedZooName(const std::filesystem::path& file);

} // namespace stagecraft::zoo
