#pragma once
/// \file
/// The graph inputs of an ONNX file as the file declares them, before any
/// binding: what the studio's dimension dialog shows and prefills. Reading
/// the declaration needs no import (no shape inference, no opset checks), so
/// it is fast even for large models.

#include "support/expected.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::onnxio {

/// One dimension of a declared input shape.
struct DeclaredDim {
    /// Set when the file fixes the dimension.
    std::optional<int64_t> value;
    /// The symbolic name (`dim_param`) when not fixed; empty when the file
    /// gives neither a value nor a name (an unknown dimension).
    std::string param;

    bool fixed() const { return value.has_value(); }
    bool symbolic() const { return !value && !param.empty(); }
    bool unknown() const { return !value && param.empty(); }

    bool operator==(const DeclaredDim&) const = default;
};

/// A graph input that is not an initializer.
struct DeclaredInput {
    std::string name;
    /// The element type as ir::dtypeName spells it ("f32", "i64"; "undefined"
    /// for types Stagecraft lacks).
    std::string dtype;
    /// False when the file declares no shape at all (not even the rank);
    /// then only a whole shape (`--input`) binds the input.
    bool hasShape = true;
    std::vector<DeclaredDim> dims;

    bool operator==(const DeclaredInput&) const = default;
};

/// The graph inputs of the model at \p path that are not initializers, in
/// the file's order. Errors name the file.
Expected<std::vector<DeclaredInput>> declaredInputs(const std::filesystem::path& path);

/// \returns true when some input has a dimension that is not fixed, or no
/// declared shape: the model cannot be imported without bindings.
bool needsBinding(const std::vector<DeclaredInput>& inputs);

} // namespace stagecraft::onnxio
