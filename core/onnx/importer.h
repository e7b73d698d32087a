#pragma once
/// \file
/// ONNX import: reads a model file (libonnx + protobuf) into an ir::Graph in
/// canonical form (docs/ir.md) with every tensor static. Dynamic dimensions
/// are bound by the user; shape inference and constant folding resolve the
/// shape-computation chains exporters emit; standard simplifications run
/// (each switchable). Weights stay lazy: nothing reads them.

#include "ir/const_tensor.h"
#include "ir/graph.h"
#include "support/expected.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace stagecraft::onnxio {

struct ImportOptions {
    /// Whole input shapes, from `--input name:1x3x224x224` (`name:scalar`
    /// for rank 0).
    std::map<std::string, ir::Shape> inputShapes;
    /// Symbolic dimension values, from `--dim batch=8`.
    std::map<std::string, int64_t> dims;
    /// Values the user gives for graph inputs (run's --inputs). Where the
    /// importer needs a constant (a shape-deciding input: Reshape's shape,
    /// Resize's scales, a reduction's axes; a Clip bound) and the tensor is
    /// such an input, its value is compiled in and the import warns so; the
    /// kernels then hold for that value only. Other inputs stay inputs.
    std::map<std::string, ir::ConstTensor> inputValues;
    /// Values of graph inputs from `--value NAME=V[,V...]`, as text, read at
    /// the input's element type (a scalar for one value, a vector for more,
    /// unless the shape is bound otherwise). They fold what inputValues fold
    /// and, before anything else, the conditions of If ops (docs/onnx-import.md,
    /// "Control flow"); they win over inputValues.
    std::map<std::string, std::string> values;
    /// Fold BatchNormalization into a preceding Conv/ConvTranspose.
    bool foldBatchNorm = true;
    /// Fold DequantizeLinear -> Conv or MatMul -> QuantizeLinear into
    /// QLinearConv or QLinearMatMul (docs/onnx-import.md, "QDQ").
    bool foldQdq = true;
    /// Store a u8 weight of an integer contraction whose zero point is 128
    /// as s8 less 128, zero point 0 (exact; docs/onnx-import.md, "Simplify").
    bool signWeights = true;
    /// Drop Identity and Dropout.
    bool dropIdentity = true;
    /// Replace ops whose inputs are all constant by their (lazily computed) result.
    bool foldConstants = true;
    /// Replace ops Stagecraft has no rule for by the bodies their ONNX schemas
    /// define them by (NegativeLogLikelihoodLoss, CastLike, ...).
    bool inlineFunctions = true;
    /// Run the ONNX checker; its findings become warnings.
    bool runChecker = true;
};

struct ImportResult {
    ir::Graph graph;
    /// Things the user should know that did not stop the import.
    std::vector<std::string> warnings;
    /// The ImportOptions::values as tensors, for a runner to feed the inputs
    /// the same values the kernels were compiled for.
    std::map<std::string, ir::ConstTensor> boundValues;
};

/// Imports \p path. Errors name the file and, where it applies, the op,
/// tensor or dimension at fault.
Expected<ImportResult> importModel(const std::filesystem::path& path,
                                   const ImportOptions& options = {});

/// Op types (default domain) whose shapes the importer infers and whose
/// attributes it canonicalizes; others are imported as opaque ops.
std::vector<std::string> supportedOpTypes();

/// Parses `name:1x3x224x224` into \p options.inputShapes.
Status addInputBinding(ImportOptions& options, const std::string& text);
/// Parses `name=8` into \p options.dims.
Status addDimBinding(ImportOptions& options, const std::string& text);
/// Parses `name=16000` or `name=1,2,3` into \p options.values.
Status addValueBinding(ImportOptions& options, const std::string& text);

} // namespace stagecraft::onnxio
