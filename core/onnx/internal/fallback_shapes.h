#pragma once
// Internal to core/onnx: output shapes of ops Stagecraft has no rule for,
// from the shapes the file declares or from ONNX's own shape inference.

#include "ir/graph.h"
#include "onnx/internal/import_session.h"

#include <map>
#include <optional>
#include <string>

namespace stagecraft::onnxio {

class FallbackShapes {
public:
    explicit FallbackShapes(ImportSession& session)
        : session_(session) {}

    /// Sets the output types of op \p id, warning that it stays opaque.
    /// An error names the output whose shape cannot be made static. Both
    /// say the op \p because ("is unknown to Stagecraft") and end with
    /// \p remedy.
    Status apply(ir::OpId id, const std::string& because = "is unknown to Stagecraft",
                 const std::string& remedy = "");

private:
    struct Declared {
        ir::DType dtype = ir::DType::Undefined;
        std::optional<ir::Shape> shape;
    };

    std::optional<Declared> lookup(const std::string& name);
    void collect(const onnx::GraphProto& graph, std::map<std::string, Declared>& into) const;
    void runOnnxInference();
    /// Declares the shapes inferred so far as value_info of \p graph.
    void addKnownShapes(onnx::GraphProto& graph) const;
    size_t knownTensorCount() const;

    ImportSession& session_;
    std::optional<std::map<std::string, Declared>> declared_;
    std::optional<std::map<std::string, Declared>> inferred_;
    size_t knownWhenInferred_ = 0;
    int runs_ = 0;
};

} // namespace stagecraft::onnxio
