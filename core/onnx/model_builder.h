#pragma once
/// \file
/// Writes ONNX models: the model zoo and the tests build their models with it.
/// Weights can be inline or go to one external data file, filled with zeros
/// (a sparse file: nothing is written) or with seeded pseudo-random values.
/// Output is deterministic: the same calls give byte-identical files.

#include "ir/dtype.h"
#include "ir/shape.h"
#include "support/expected.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace stagecraft::onnxio {

/// A dimension in a declared input/output shape: a number or a symbolic name.
using Dim = std::variant<int64_t, std::string>;

/// How external weights are filled when the model is saved.
enum class WeightFill {
    /// All zeros, written as a sparse file: fast, takes no disk space.
    Zeros,
    /// Seeded uniform values in [-1/sqrt(fan_in), 1/sqrt(fan_in)] (fan_in =
    /// elements / first dimension), the same for the same model every time.
    Seeded,
};

/// The values a seeded external weight gets.
enum class ValueRange {
    /// Uniform in [-1/sqrt(fan_in), 1/sqrt(fan_in)]: weights, biases.
    Symmetric,
    /// Uniform in [0.5, 1.5]: variances and other quantities that must be positive.
    Positive,
};

class NodeBuilder;

/// How ModelBuilder::quantize writes a model as int8.
enum class Quantization {
    /// QDQ: QuantizeLinear/DequantizeLinear around Conv and MatMul (static
    /// activation scales), as ONNX Runtime's quantize_static writes.
    Static,
    /// DynamicQuantizeLinear with ConvInteger/MatMulInteger, as
    /// quantize_dynamic writes.
    Dynamic,
};

class ModelBuilder {
public:
    /// \p opset is the version of the default ONNX domain.
    ModelBuilder(std::string graphName, int64_t opset);
    ~ModelBuilder();
    ModelBuilder(const ModelBuilder&) = delete;
    ModelBuilder& operator=(const ModelBuilder&) = delete;
    ModelBuilder(ModelBuilder&&) noexcept;
    ModelBuilder& operator=(ModelBuilder&&) noexcept;

    void setIrVersion(int64_t version);
    void setProducer(std::string name, std::string version);
    void addOpsetImport(std::string domain, int64_t version);
    /// The model's doc_string: what it is, where its configuration comes from.
    void setDocString(std::string text);

    void addInput(const std::string& name, ir::DType dtype, const std::vector<Dim>& shape);
    /// An output with a declared shape; an empty \p shape with \p declareShape
    /// false leaves the shape undeclared.
    void addOutput(const std::string& name, ir::DType dtype, const std::vector<Dim>& shape,
                   bool declareShape = true);
    /// Declares the type of an intermediate tensor (value_info).
    void addValueInfo(const std::string& name, ir::DType dtype, const std::vector<Dim>& shape);

    /// An initializer whose bytes are stored in the model file.
    void addInlineInitializer(const std::string& name, ir::DType dtype, const ir::Shape& shape,
                              const std::vector<std::byte>& bytes);
    void addFloatInitializer(const std::string& name, const ir::Shape& shape,
                             const std::vector<float>& values);
    void addInt64Initializer(const std::string& name, const ir::Shape& shape,
                             const std::vector<int64_t>& values);
    /// A weight whose bytes go to the external data file on save.
    void addExternalInitializer(const std::string& name, ir::DType dtype, const ir::Shape& shape,
                                ValueRange range = ValueRange::Symmetric);
    /// Parameters whose count is known: sum of the initializers' elements.
    int64_t initializerElementCount() const;

    /// Adds a node; set its attributes through the returned builder.
    NodeBuilder addNode(const std::string& opType, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = {});
    /// A Constant node producing \p values with \p shape.
    void addConstantInt64(const std::string& output, const ir::Shape& shape,
                          const std::vector<int64_t>& values);
    void addConstantFloat(const std::string& output, const ir::Shape& shape,
                          const std::vector<float>& values);

    /// Stores the model's f32 tensors (weights, constants, value infos) as
    /// \p precision (f16 or bf16), with graph inputs and outputs kept f32
    /// and cast at the boundary, as float16 converters do with "keep I/O
    /// types". Resize and Upsample scales stay f32, as ONNX requires.
    void convertFloats(ir::DType precision);
    /// Stores the model as int8 (zoo --precision i8 and i8-dynamic; see
    /// model_builder_quantize.cpp): BatchNormalization after a Conv folded
    /// into its bias, weights seeded integers at the f32 weights' range.
    void quantize(Quantization mode);

    /// Writes the model to \p path; external weights go to a file named
    /// \p externalDataName next to it (default "<stem>.weights").
    Status save(const std::filesystem::path& path, WeightFill fill = WeightFill::Zeros,
                const std::string& externalDataName = {}) const;
    /// The serialized model (external weights get offsets but no file).
    std::string serialize(const std::string& externalDataName = "weights.bin") const;

private:
    friend class NodeBuilder;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Sets attributes of one node of a ModelBuilder.
class NodeBuilder {
public:
    NodeBuilder& attr(const std::string& name, int64_t value);
    NodeBuilder& attr(const std::string& name, int value) { return attr(name, int64_t{value}); }
    NodeBuilder& attr(const std::string& name, float value);
    NodeBuilder& attr(const std::string& name, const std::string& value);
    NodeBuilder& attr(const std::string& name, const char* value) {
        return attr(name, std::string(value));
    }
    NodeBuilder& attr(const std::string& name, const std::vector<int64_t>& values);
    NodeBuilder& attr(const std::string& name, const std::vector<float>& values);
    /// A graph attribute (an If's branch, a Loop's body): \p body's graph,
    /// its inputs, outputs, nodes and inline initializers.
    NodeBuilder& attr(const std::string& name, const ModelBuilder& body);
    NodeBuilder& domain(const std::string& domain);

private:
    friend class ModelBuilder;
    NodeBuilder(ModelBuilder::Impl* impl, int index)
        : impl_(impl)
        , index_(index) {}
    ModelBuilder::Impl* impl_;
    int index_;
};

} // namespace stagecraft::onnxio
