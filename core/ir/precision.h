#pragma once
/// \file
/// Precision (docs/simulator.md, "Precision"): a model's floating-point
/// tensors, activations and weights alike, stored, moved and computed at
/// another width, as DSA compilers run an f32 model in FP16 (GraphTurbo §5,
/// Fig. 16). Graph inputs and outputs keep their element type: a Cast after
/// each such input and before each such output converts at the boundary, as
/// float16 converters do with "keep I/O types". Every later stage reads the
/// tensors' element types, so byte counts, capacities and unit rates follow.

#include "ir/graph.h"
#include "support/expected.h"

#include <optional>
#include <string>
#include <string_view>

namespace stagecraft::ir {

/// "f32", "f16" or "bf16"; anything else is an error naming the choices.
Expected<DType> parsePrecision(std::string_view text);

/// The element type most of \p graph's floating-point tensors have, bytes
/// weighted, graph inputs and outputs left out (a converted model keeps
/// them f32); nullopt when it has none: the precision the model runs at
/// without a --precision option.
std::optional<DType> modelPrecision(const Graph& graph);

/// \p graph with every f32, f16 and bf16 tensor (f64 stays) in \p precision,
/// weights converted when first read, boundaries cast as the file says.
/// Returns \p graph unchanged when nothing is to convert.
Expected<Graph> convertPrecision(const Graph& graph, DType precision);

} // namespace stagecraft::ir
