#pragma once
/// \file
/// Tensors with their data, as the host runner takes and gives them, and
/// their file format (docs/codegen.md, "stagecraft-tensors" JSON: name,
/// dtype, shape, data per tensor) that the ONNX Runtime oracle reads and
/// writes too. Seeded inputs are reproducible pseudo-random data.

#include "ir/graph.h"
#include "support/expected.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::codegen {

struct HostTensor {
    std::string name;
    ir::DType dtype = ir::DType::Float32;
    ir::Shape shape;
    std::vector<std::byte> data;

    int64_t elementCount() const { return ir::elementCount(shape); }
    double at(int64_t index) const;
};

using TensorSet = std::vector<HostTensor>;

const HostTensor* findTensor(const TensorSet& set, std::string_view name);

/// The file text, deterministic: shortest round-trip decimals for floats.
std::string writeTensorsJson(const TensorSet& tensors);
/// Reads a tensors file; errors name \p file and the field.
Expected<TensorSet> readTensorsJson(std::string_view text, const std::string& file);

/// Reproducible inputs for every graph input: floats uniform in [-1, 1),
/// integers and booleans in {0, 1} (valid token ids, types and masks),
/// seeded by the input's name and \p seed. An input of another element type
/// (string) or larger than the memory cap is an error.
Expected<TensorSet> seededInputs(const ir::Graph& graph, uint64_t seed = 0);

/// The graph's inputs from \p given, in graph order; an error names an
/// input that is missing or has another dtype or shape.
Expected<TensorSet> matchInputs(const ir::Graph& graph, const TensorSet& given);

/// How far \p actual is from \p expected (same name, shape and dtype).
struct Difference {
    /// The normwise relative error max|a - e| / max|e| (docs/codegen.md
    /// explains the choice); 0 when both are zero.
    double relative = 0;
    double maxAbsolute = 0;
    /// Flat index of the element with the largest absolute error.
    int64_t worstIndex = -1;
    /// Empty when the two are comparable; else why not (shape, NaN).
    std::string mismatch;
};
Difference compareTensors(const HostTensor& actual, const HostTensor& expected);

/// Element by element, as numpy.allclose: how many elements of \p actual
/// lie farther than atol + rtol * |e| from \p expected (NaN matches NaN, an
/// infinity matches the same infinity), and the first of them.
struct Closeness {
    int64_t failing = 0;
    int64_t firstIndex = -1;
    /// Non-empty when the two are not comparable (shape).
    std::string mismatch;
};
Closeness checkClose(const HostTensor& actual, const HostTensor& expected, double rtol,
                     double atol);

} // namespace stagecraft::codegen
