#pragma once
// Hand-made hostile input for the hardening suites: ONNX models edited at
// the protobuf level (what no exporter writes), deep JSON, special files.

#include "cli_helpers.h"
#include "onnx/model_builder.h"

#include <QString>
#include <QTemporaryDir>
#include <onnx/onnx_pb.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>

namespace stagecraft::test {

/// The model a ModelBuilder describes, as a protobuf to edit.
inline onnx::ModelProto toProto(const onnxio::ModelBuilder& builder,
                                const std::string& externalName = "weights.bin") {
    onnx::ModelProto model;
    model.ParseFromString(builder.serialize(externalName));
    return model;
}

inline void writeProto(const std::filesystem::path& path, const onnx::ModelProto& model) {
    std::ofstream(path, std::ios::binary) << model.SerializeAsString();
}

inline void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// A hostile suite's files, in a temporary directory of their own: a base
/// of the suites' test objects.
class SuiteFiles {
protected:
    QTemporaryDir dir_;

    std::filesystem::path path(const std::string& name) const {
        return std::filesystem::path(dir_.path().toStdString()) / name;
    }

    /// Writes \p text to the file \p name; its path.
    QString write(const std::string& name, const std::string& text) {
        writeText(path(name), text);
        return q(path(name));
    }
};

/// x[1,4] -> MatMul with a 4x4 f32 weight "w" stored as external data -> y.
inline onnxio::ModelBuilder matmulModel() {
    onnxio::ModelBuilder m("matmul", 13);
    m.addInput("x", ir::DType::Float32, {int64_t{1}, int64_t{4}});
    m.addExternalInitializer("w", ir::DType::Float32, {4, 4});
    m.addNode("MatMul", {"x", "w"}, {"y"}, "mm");
    m.addOutput("y", ir::DType::Float32, {int64_t{1}, int64_t{4}});
    return m;
}

/// Sets the external data entries of the initializer "w" of \p model.
inline void setExternal(onnx::ModelProto& model, const std::string& location,
                        const std::string& offset = "0") {
    for (auto& tensor : *model.mutable_graph()->mutable_initializer()) {
        if (tensor.name() != "w")
            continue;
        tensor.clear_external_data();
        auto* entry = tensor.add_external_data();
        entry->set_key("location");
        entry->set_value(location);
        entry = tensor.add_external_data();
        entry->set_key("offset");
        entry->set_value(offset);
        tensor.set_data_location(onnx::TensorProto::EXTERNAL);
    }
}

/// JSON nested \p depth arrays deep.
inline std::string deepJson(int depth) {
    return std::string(static_cast<size_t>(depth), '[') +
           std::string(static_cast<size_t>(depth), ']');
}

inline bool isCharacterDevice(const char* path) {
    struct stat info {};
    return ::stat(path, &info) == 0 && S_ISCHR(info.st_mode);
}

inline mode_t modeOf(const QString& path) {
    struct stat info {};
    return ::stat(path.toLocal8Bit().constData(), &info) == 0 ? (info.st_mode & 07777) : 0;
}

} // namespace stagecraft::test
