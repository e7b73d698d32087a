#include "onnx/model_builder.h"

#include "ir/const_tensor.h"
#include "onnx/internal/model_builder_impl.h"
#include "onnx/onnx_types.h"
#include "support/file.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace stagecraft::onnxio {

namespace {

using detail::alignUp;
using detail::ExternalWeight;
using detail::kExternalAlignment;

void setShape(onnx::ValueInfoProto* info, ir::DType dtype, const std::vector<Dim>& shape,
              bool declareShape) {
    auto* tensorType = info->mutable_type()->mutable_tensor_type();
    tensorType->set_elem_type(toOnnxType(dtype));
    if (!declareShape)
        return;
    auto* protoShape = tensorType->mutable_shape();
    for (const Dim& dim : shape) {
        auto* protoDim = protoShape->add_dim();
        if (const auto* value = std::get_if<int64_t>(&dim))
            protoDim->set_dim_value(*value);
        else
            protoDim->set_dim_param(std::get<std::string>(dim));
    }
}

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t fnv1a(const std::string& text) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (unsigned char c : text)
        hash = (hash ^ c) * 0x100000001b3ULL;
    return hash;
}

/// Streams seeded values of \p weight into \p out, a chunk at a time.
Status writeSeeded(const ExternalWeight& weight, AtomicFile& out) {
    int64_t count = ir::elementCount(weight.shape);
    int64_t fanIn = weight.shape.empty() || weight.shape[0] == 0 ? 1 : count / weight.shape[0];
    double bound = 1.0 / std::sqrt(static_cast<double>(std::max<int64_t>(fanIn, 1)));
    double low = weight.range == ValueRange::Positive ? 0.5 : -bound;
    double width = weight.range == ValueRange::Positive ? 1.0 : 2.0 * bound;
    bool floating = ir::isFloatingPoint(weight.dtype);
    // Quantized weights (model_builder_quantize.cpp): uniform integers over
    // the type's range (i8 and u8) or over +-1024 (i32 biases).
    if (!floating) {
        low = weight.dtype == ir::DType::UInt8  ? 0.0
              : weight.dtype == ir::DType::Int8 ? -127.0
                                                : -1024.0;
        width = weight.dtype == ir::DType::UInt8  ? 256.0
                : weight.dtype == ir::DType::Int8 ? 255.0
                                                  : 2049.0;
    }
    uint64_t state = fnv1a(weight.name);
    int64_t size = ir::dtypeSize(weight.dtype);
    constexpr int64_t kChunk = 1 << 16;
    std::vector<std::byte> bytes(static_cast<size_t>(kChunk * size));
    for (int64_t done = 0; done < count; done += kChunk) {
        int64_t n = std::min(kChunk, count - done);
        for (int64_t i = 0; i < n; ++i) {
            double unit = static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53; // [0,1)
            double value = low + unit * width;
            ir::writeDouble(weight.dtype, bytes, i, floating ? value : std::floor(value));
        }
        SC_RETURN_IF_ERROR(out.write(std::string_view(reinterpret_cast<const char*>(bytes.data()),
                                                      static_cast<size_t>(n * size))));
    }
    return Status::success();
}

/// Writes every external weight with seeded values, each at its aligned offset.
Status writeSeededFile(const std::filesystem::path& path,
                       const std::vector<ExternalWeight>& weights, int64_t total) {
    SC_ASSIGN_OR_RETURN(AtomicFile out, AtomicFile::create(path));
    int64_t offset = 0;
    static const std::string padding(kExternalAlignment, '\0');
    for (const ExternalWeight& weight : weights) {
        SC_RETURN_IF_ERROR(writeSeeded(weight, out));
        int64_t end = offset + ir::elementCount(weight.shape) * ir::dtypeSize(weight.dtype);
        int64_t next = std::min(alignUp(end), total);
        SC_RETURN_IF_ERROR(
            out.write(std::string_view(padding).substr(0, static_cast<size_t>(next - end))));
        offset = next;
    }
    return out.commit();
}

Status writeSparseZeros(const std::filesystem::path& path, int64_t size) {
    SC_ASSIGN_OR_RETURN(AtomicFile out, AtomicFile::create(path));
    SC_RETURN_IF_ERROR(out.truncate(size));
    return out.commit();
}

/// True when the ONNX file \p model stores initializers in \p location: the
/// weights file next to it is then that model's, and saving the model again
/// may replace it.
bool modelUsesWeightsFile(const std::filesystem::path& model, const std::string& location) {
    auto mapped = MappedFile::open(model);
    onnx::ModelProto proto;
    if (!mapped.ok() || (*mapped)->bytes().size() > static_cast<size_t>(INT32_MAX) ||
        !proto.ParseFromArray((*mapped)->bytes().data(),
                              static_cast<int>((*mapped)->bytes().size())))
        return false;
    for (const auto& tensor : proto.graph().initializer())
        for (const auto& entry : tensor.external_data())
            if (entry.key() == "location" && entry.value() == location)
                return true;
    return false;
}

/// An error when \p dataPath exists and is not the weights file of the model
/// at \p modelPath: saving must not replace a file the user did not name.
Status checkWeightsFileIsOurs(const std::filesystem::path& modelPath,
                              const std::filesystem::path& dataPath, const std::string& location) {
    std::error_code ec;
    if (!std::filesystem::exists(dataPath, ec) || modelUsesWeightsFile(modelPath, location))
        return Status::success();
    return Error(dataPath.string() + ": exists and is not the weights file of " +
                 modelPath.string() +
                 "; refusing to replace it (remove it or write the model elsewhere)");
}

} // namespace

ModelBuilder::ModelBuilder(std::string graphName, int64_t opset)
    : impl_(std::make_unique<Impl>()) {
    impl_->model.set_ir_version(8);
    impl_->model.set_producer_name("stagecraft");
    impl_->graph()->set_name(std::move(graphName));
    addOpsetImport("", opset);
}

ModelBuilder::~ModelBuilder() = default;
ModelBuilder::ModelBuilder(ModelBuilder&&) noexcept = default;
ModelBuilder& ModelBuilder::operator=(ModelBuilder&&) noexcept = default;

void ModelBuilder::setIrVersion(int64_t version) {
    impl_->model.set_ir_version(version);
}

void ModelBuilder::setProducer(std::string name, std::string version) {
    impl_->model.set_producer_name(std::move(name));
    impl_->model.set_producer_version(std::move(version));
}

void ModelBuilder::addOpsetImport(std::string domain, int64_t version) {
    auto* opset = impl_->model.add_opset_import();
    opset->set_domain(std::move(domain));
    opset->set_version(version);
}

void ModelBuilder::setDocString(std::string text) {
    impl_->model.set_doc_string(std::move(text));
}

void ModelBuilder::addInput(const std::string& name, ir::DType dtype,
                            const std::vector<Dim>& shape) {
    auto* info = impl_->graph()->add_input();
    info->set_name(name);
    setShape(info, dtype, shape, true);
}

void ModelBuilder::addOutput(const std::string& name, ir::DType dtype,
                             const std::vector<Dim>& shape, bool declareShape) {
    auto* info = impl_->graph()->add_output();
    info->set_name(name);
    setShape(info, dtype, shape, declareShape);
}

void ModelBuilder::addValueInfo(const std::string& name, ir::DType dtype,
                                const std::vector<Dim>& shape) {
    auto* info = impl_->graph()->add_value_info();
    info->set_name(name);
    setShape(info, dtype, shape, true);
}

void ModelBuilder::addInlineInitializer(const std::string& name, ir::DType dtype,
                                        const ir::Shape& shape,
                                        const std::vector<std::byte>& bytes) {
    auto* tensor = impl_->graph()->add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(toOnnxType(dtype));
    for (int64_t dim : shape)
        tensor->add_dims(dim);
    tensor->set_raw_data(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    impl_->initializerElements += ir::elementCount(shape);
}

void ModelBuilder::addFloatInitializer(const std::string& name, const ir::Shape& shape,
                                       const std::vector<float>& values) {
    std::vector<std::byte> bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    addInlineInitializer(name, ir::DType::Float32, shape, bytes);
}

void ModelBuilder::addInt64Initializer(const std::string& name, const ir::Shape& shape,
                                       const std::vector<int64_t>& values) {
    std::vector<std::byte> bytes(values.size() * sizeof(int64_t));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    addInlineInitializer(name, ir::DType::Int64, shape, bytes);
}

void ModelBuilder::addExternalInitializer(const std::string& name, ir::DType dtype,
                                          const ir::Shape& shape, ValueRange range) {
    impl_->externals.push_back({name, dtype, shape, range});
    impl_->initializerElements += ir::elementCount(shape);
}

int64_t ModelBuilder::initializerElementCount() const {
    return impl_->initializerElements;
}

NodeBuilder ModelBuilder::addNode(const std::string& opType, const std::vector<std::string>& inputs,
                                  const std::vector<std::string>& outputs,
                                  const std::string& name) {
    auto* node = impl_->graph()->add_node();
    node->set_op_type(opType);
    node->set_name(name);
    for (const auto& input : inputs)
        node->add_input(input);
    for (const auto& output : outputs)
        node->add_output(output);
    return NodeBuilder(impl_.get(), impl_->graph()->node_size() - 1);
}

void ModelBuilder::addConstantInt64(const std::string& output, const ir::Shape& shape,
                                    const std::vector<int64_t>& values) {
    auto* node = impl_->graph()->add_node();
    node->set_op_type("Constant");
    node->set_name(output + "_constant");
    node->add_output(output);
    auto* attr = node->add_attribute();
    attr->set_name("value");
    attr->set_type(onnx::AttributeProto::TENSOR);
    auto* tensor = attr->mutable_t();
    tensor->set_data_type(onnx::TensorProto::INT64);
    for (int64_t dim : shape)
        tensor->add_dims(dim);
    for (int64_t v : values)
        tensor->add_int64_data(v);
}

void ModelBuilder::addConstantFloat(const std::string& output, const ir::Shape& shape,
                                    const std::vector<float>& values) {
    auto* node = impl_->graph()->add_node();
    node->set_op_type("Constant");
    node->set_name(output + "_constant");
    node->add_output(output);
    auto* attr = node->add_attribute();
    attr->set_name("value");
    attr->set_type(onnx::AttributeProto::TENSOR);
    auto* tensor = attr->mutable_t();
    tensor->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t dim : shape)
        tensor->add_dims(dim);
    for (float v : values)
        tensor->add_float_data(v);
}

std::string ModelBuilder::serialize(const std::string& externalDataName) const {
    int64_t total = 0;
    std::string bytes;
    impl_->withExternals(externalDataName, &total).SerializeToString(&bytes);
    return bytes;
}

Status ModelBuilder::save(const std::filesystem::path& path, WeightFill fill,
                          const std::string& externalDataName) const {
    std::string location =
        externalDataName.empty() ? path.stem().string() + ".weights" : externalDataName;
    int64_t total = 0;
    std::string bytes;
    if (!impl_->withExternals(location, &total).SerializeToString(&bytes))
        return Error(path.string() + ": cannot serialize the model");
    if (!impl_->externals.empty()) {
        std::filesystem::path dataPath = path.parent_path() / location;
        SC_RETURN_IF_ERROR(checkWeightsFileIsOurs(path, dataPath, location));
        SC_RETURN_IF_ERROR(fill == WeightFill::Zeros
                               ? writeSparseZeros(dataPath, total)
                               : writeSeededFile(dataPath, impl_->externals, total));
    }
    return writeFileAtomic(path, bytes);
}

namespace {

onnx::AttributeProto* newAttribute(onnx::NodeProto* node, const std::string& name,
                                   onnx::AttributeProto::AttributeType type) {
    auto* attr = node->add_attribute();
    attr->set_name(name);
    attr->set_type(type);
    return attr;
}

} // namespace

#define SC_NODE (impl_->graph()->mutable_node(index_))

NodeBuilder& NodeBuilder::attr(const std::string& name, int64_t value) {
    newAttribute(SC_NODE, name, onnx::AttributeProto::INT)->set_i(value);
    return *this;
}

NodeBuilder& NodeBuilder::attr(const std::string& name, const ModelBuilder& body) {
    *newAttribute(SC_NODE, name, onnx::AttributeProto::GRAPH)->mutable_g() =
        body.impl_->model.graph();
    return *this;
}

NodeBuilder& NodeBuilder::attr(const std::string& name, float value) {
    newAttribute(SC_NODE, name, onnx::AttributeProto::FLOAT)->set_f(value);
    return *this;
}

NodeBuilder& NodeBuilder::attr(const std::string& name, const std::string& value) {
    newAttribute(SC_NODE, name, onnx::AttributeProto::STRING)->set_s(value);
    return *this;
}

NodeBuilder& NodeBuilder::attr(const std::string& name, const std::vector<int64_t>& values) {
    auto* attr = newAttribute(SC_NODE, name, onnx::AttributeProto::INTS);
    for (int64_t v : values)
        attr->add_ints(v);
    return *this;
}

NodeBuilder& NodeBuilder::attr(const std::string& name, const std::vector<float>& values) {
    auto* attr = newAttribute(SC_NODE, name, onnx::AttributeProto::FLOATS);
    for (float v : values)
        attr->add_floats(v);
    return *this;
}

NodeBuilder& NodeBuilder::domain(const std::string& domain) {
    SC_NODE->set_domain(domain);
    return *this;
}

#undef SC_NODE

} // namespace stagecraft::onnxio
