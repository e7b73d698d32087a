#pragma once
// Internal to core/onnx: evaluation of canonical ops on constant inputs, for
// constant folding (shape computations, constant sub-graphs).

#include "ir/const_tensor.h"
#include "ir/graph.h"
#include "support/expected.h"

#include <string_view>
#include <utility>
#include <vector>

namespace stagecraft::onnxio {

struct OutputType {
    ir::DType dtype;
    ir::Shape shape;
};

/// True when evaluateOp knows \p opType (default domain).
bool canEvaluate(std::string_view opType);

/// The outputs of canonical \p op from its constant inputs (one pointer per
/// input slot, null for omitted ones) and its inferred output types.
Expected<std::vector<ir::ConstTensor>> evaluateOp(const ir::Op& op,
                                                  const std::vector<const ir::ConstTensor*>& inputs,
                                                  const std::vector<OutputType>& outputs);

} // namespace stagecraft::onnxio
