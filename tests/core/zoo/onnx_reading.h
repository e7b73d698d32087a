#pragma once
// Reading the zoo's files back with libonnx for the zoo tests: parsing, node
// histograms, parameter counts, external-data layout, dims as text.

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace stagecraft::test {

/// Parses \p path; an empty model (no graph) when it cannot be read.
inline onnx::ModelProto loadModel(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    onnx::ModelProto model;
    if (!model.ParseFromString(bytes.str()))
        model.Clear();
    return model;
}

inline std::map<std::string, int> opHistogram(const onnx::ModelProto& model) {
    std::map<std::string, int> counts;
    for (const auto& node : model.graph().node())
        ++counts[node.op_type()];
    return counts;
}

inline bool endsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

inline int64_t elements(const onnx::TensorProto& tensor) {
    int64_t count = 1;
    for (int64_t dim : tensor.dims())
        count *= dim;
    return count;
}

/// Learnable parameters: elements of the float initializers, BatchNorm
/// running statistics (buffers, not parameters) excluded.
inline int64_t learnableParameters(const onnx::ModelProto& model) {
    int64_t count = 0;
    for (const auto& tensor : model.graph().initializer()) {
        if (tensor.data_type() != onnx::TensorProto::FLOAT)
            continue;
        if (endsWith(tensor.name(), ".running_mean") || endsWith(tensor.name(), ".running_var"))
            continue;
        count += elements(tensor);
    }
    return count;
}

/// "2x3x4" for tensor dims or a declared value shape; "?" for unknown dims.
inline std::string dimsText(const onnx::TensorShapeProto& shape) {
    std::string text;
    for (const auto& dim : shape.dim()) {
        if (!text.empty())
            text += 'x';
        text += dim.has_dim_value() ? std::to_string(dim.dim_value()) : std::string("?");
    }
    return text;
}

inline std::string dimsText(const onnx::TensorProto& tensor) {
    std::string text;
    for (int64_t dim : tensor.dims()) {
        if (!text.empty())
            text += 'x';
        text += std::to_string(dim);
    }
    return text;
}

/// One external initializer's place in the data file.
struct ExternalRange {
    std::string name;
    std::string location;
    int64_t offset = -1;
    int64_t length = -1;
    int64_t expectedLength = 0;
};

inline std::vector<ExternalRange> externalRanges(const onnx::ModelProto& model) {
    std::vector<ExternalRange> ranges;
    for (const auto& tensor : model.graph().initializer()) {
        if (tensor.data_location() != onnx::TensorProto::EXTERNAL)
            continue;
        ExternalRange range;
        range.name = tensor.name();
        range.expectedLength =
            elements(tensor) *
            (tensor.data_type() == onnx::TensorProto::FLOAT ? 4 : -1); // the zoo stores only floats
        for (const auto& entry : tensor.external_data()) {
            if (entry.key() == "location")
                range.location = entry.value();
            else if (entry.key() == "offset")
                range.offset = std::stoll(entry.value());
            else if (entry.key() == "length")
                range.length = std::stoll(entry.value());
        }
        ranges.push_back(range);
    }
    return ranges;
}

} // namespace stagecraft::test
