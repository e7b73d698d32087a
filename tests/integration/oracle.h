#pragma once
// Figures about ONNX models computed independently of Stagecraft's importer:
// from the raw protobuf and from ONNX Runtime (tests/oracle/run-model.js).

#include "ir/shape.h"

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace stagecraft::test {

std::optional<onnx::ModelProto> readRawModel(const std::filesystem::path& path);

/// The op-type histogram the import should give, re-derived from the raw
/// nodes: Constant nodes, constant sub-graphs (and Shape/Size, static here),
/// Identity/Dropout, BatchNormalization after a single-use Conv or
/// ConvTranspose, and dead nodes are removed; Upsample counts as Resize.
std::map<std::string, int> expectedHistogram(const onnx::ModelProto& model);

struct OracleMacs {
    bool ok = false;
    std::string error;
    long long macs = 0;
};

/// MACs of the Conv, ConvTranspose, MatMul and Gemm nodes that survive
/// import, from weight dims in the protobuf and activation dims ONNX Runtime
/// reports when it runs the model on inputs of the bound shapes.
OracleMacs oracleMacs(const onnx::ModelProto& model,
                      const std::map<std::string, ir::Shape>& inputShapes);

} // namespace stagecraft::test
