#pragma once
// What the code generation suites share: real models (zoo models written
// with seeded weights, the fetched PP-OCR and openWakeWord files) scheduled
// by a strategy and planned, a user split override that changes a schedule,
// and ONNX Runtime (tests/oracle/run-model.js) as the numerical oracle.

#include "codegen/code_plan.h"
#include "codegen/tensors.h"
#include "onnx/importer.h"
#include "onnx/model_builder.h"
#include "sim/compare.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::test {

/// A model file and how to import it.
struct ModelFile {
    std::filesystem::path path;
    onnxio::ImportOptions import;
};

/// Writes zoo model \p name with seeded weights into \p dir (created if
/// missing; seq 0: the default), stored at \p precision.
ModelFile writeZoo(const std::filesystem::path& dir, const std::string& name, int64_t seq = 0,
                   ir::DType precision = ir::DType::Float32);
/// The zoo model \p name written as int8 (zoo --precision i8 or i8-dynamic).
ModelFile writeQuantizedZoo(const std::filesystem::path& dir, const std::string& name,
                            onnxio::Quantization mode);

/// A model scheduled by a strategy and planned for code generation.
struct Planned {
    ir::Graph graph;
    sim::Evaluation evaluation;
    codegen::CodePlan plan;
};

/// Imports \p model and plans it under \p strategy on \p arch with
/// \p overrides; the error says which step failed.
Expected<std::unique_ptr<Planned>> plan(const ModelFile& model, const std::string& arch,
                                        const std::string& strategy,
                                        const schedule::Overrides& overrides = {});

/// A split override that changes the number of instances of the largest
/// group that accepts one (graphturbo on \p arch), or nullopt.
std::optional<schedule::Overrides> changedSplit(const ModelFile& model, const std::string& arch);

/// Copies \p model (into its own directory, so external weights stay found)
/// with the tensors \p names added as graph outputs.
std::filesystem::path withExtraOutputs(const std::filesystem::path& model,
                                       const std::vector<std::string>& names);

/// Copies \p model (beside it, so external weights stay found) with every
/// f32 initializer whose name ends in one of \p suffixes moved by one unit
/// in the last place, up or down at random (\p seed), and stored in the copy.
std::filesystem::path withNudgedWeights(const std::filesystem::path& model,
                                        const std::vector<std::string>& suffixes, uint32_t seed);

/// Runs ONNX Runtime on \p model with \p inputs; the error has its stderr.
/// With \p optimized its graph optimizations run (QDQ fusion among them, and
/// the rewrite that keeps its int8 GEMMs exact on CPUs without VNNI:
/// tests/oracle/run-model.js); a model with integer contractions needs it.
Expected<codegen::TensorSet> runOnnxRuntime(const std::filesystem::path& model,
                                            const codegen::TensorSet& inputs,
                                            bool optimized = false);

} // namespace stagecraft::test
