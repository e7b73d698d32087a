#pragma once
/// \file
/// A model of the CLI's schedule-based commands and of stagecraft-studio: an
/// ONNX file or `zoo:NAME`, loaded for a given per-cluster batch K. A zoo
/// model is written with batch K to a private temporary directory; for a file the batch is dim 0 of
/// the first graph input: a symbolic dim is bound to K (as --dim does), a fixed one must equal K.

#include "arch/arch.h"
#include "ir/graph.h"
#include "onnx/importer.h"
#include "onnx/model_builder.h"
#include "support/expected.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::driver {

struct ModelSpec {
    /// As the user wrote it: a path or "zoo:NAME".
    std::string text;
    /// The zoo model's name, empty for a file.
    std::string zooName;
    /// --seq for zoo models (0: the model's default).
    int64_t seq = 0;
    /// The batch of a zoo model when the command sets it (fidelity --batch).
    std::optional<int64_t> zooBatch;
    /// --input/--dim bindings for files.
    onnxio::ImportOptions import;
    /// A zoo model is written once into the user's cache
    /// (zoo::cachedZooModel, zero weights) rather than a private temporary
    /// directory: what stagecraft-studio opens.
    bool cachedZoo = false;
    /// How a zoo model's weights are written (seeded for host execution).
    onnxio::WeightFill weights = onnxio::WeightFill::Zeros;
    /// --precision: the floating-point type the model runs at; nullopt: the
    /// types the model stores (ir/precision.h).
    std::optional<ir::DType> precision;
};

/// A model loaded for one per-cluster batch.
struct LoadedModel {
    ir::Graph graph;
    std::vector<std::string> warnings;
    /// The --value values the kernels were compiled for, by input name.
    std::map<std::string, ir::ConstTensor> boundValues;
    /// Keeps a zoo model's files (its lazily read weights) while the graph lives.
    std::shared_ptr<const void> files;
};

/// The batch of the model when the user gives none: the zoo default, or the
/// file's dim 0 of its first input (fixed, or bound by --input/--dim). Fails
/// when the file leaves it open; the error suggests --per-cluster only when
/// \p perClusterOption (the command has that option).
Expected<int64_t> defaultBatch(const ModelSpec& spec, bool perClusterOption = true);

/// The batch a file is fixed to (declared, or bound by --input/--dim), or
/// nullopt when it can be loaded at any batch (a zoo model, an open dim).
Expected<std::optional<int64_t>> fixedBatch(const ModelSpec& spec);

/// \p error with the model put in front ("<model>: ..."), unless it names
/// the model already: every error of a command names the file it is about.
Error inModel(const ModelSpec& spec, const Error& error);

/// Loads \p spec with batch \p perCluster, at its precision.
Expected<LoadedModel> loadModel(const ModelSpec& spec, int64_t perCluster);

} // namespace stagecraft::driver
