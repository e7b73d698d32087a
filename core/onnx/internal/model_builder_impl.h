#pragma once
// Internal to core/onnx: the state behind ModelBuilder, shared by the files
// that write models (model_builder.cpp) and convert them
// (model_builder_precision.cpp).

#include "onnx/model_builder.h"
#include "onnx/onnx_types.h"

#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

namespace stagecraft::onnxio {

namespace detail {

inline constexpr int64_t kExternalAlignment = 64;

struct ExternalWeight {
    std::string name;
    ir::DType dtype;
    ir::Shape shape;
    ValueRange range;
};

inline int64_t alignUp(int64_t value) {
    return (value + kExternalAlignment - 1) / kExternalAlignment * kExternalAlignment;
}

} // namespace detail

struct ModelBuilder::Impl {
    onnx::ModelProto model;
    std::vector<detail::ExternalWeight> externals;
    int64_t initializerElements = 0;

    onnx::GraphProto* graph() { return model.mutable_graph(); }

    /// The model with external initializers appended, pointing at \p location.
    onnx::ModelProto withExternals(const std::string& location, int64_t* totalSize) const {
        onnx::ModelProto out = model;
        int64_t offset = 0;
        for (const detail::ExternalWeight& weight : externals) {
            int64_t length = ir::elementCount(weight.shape) * ir::dtypeSize(weight.dtype);
            auto* tensor = out.mutable_graph()->add_initializer();
            tensor->set_name(weight.name);
            tensor->set_data_type(toOnnxType(weight.dtype));
            for (int64_t dim : weight.shape)
                tensor->add_dims(dim);
            tensor->set_data_location(onnx::TensorProto::EXTERNAL);
            auto addEntry = [&](const char* key, const std::string& value) {
                auto* entry = tensor->add_external_data();
                entry->set_key(key);
                entry->set_value(value);
            };
            addEntry("location", location);
            addEntry("offset", std::to_string(offset));
            addEntry("length", std::to_string(length));
            offset = detail::alignUp(offset + length);
        }
        *totalSize = offset;
        return out;
    }
};

} // namespace stagecraft::onnxio
