#pragma once
// Internal to core/onnx: static shapes for graph inputs from user bindings.

#include "onnx/internal/import_session.h"

#include <vector>

namespace stagecraft::onnxio {

/// The static shape of graph input \p input after applying --input/--dim.
/// An unbound dimension is an error naming it and the flags to pass.
Expected<ir::Shape> bindInputShape(const ImportSession& session, const onnx::ValueInfoProto& input);

/// The --value given for input \p name, read at \p dtype; an error naming
/// the flag when the count or a value does not fit.
Expected<ir::ConstTensor> readBoundValue(const ImportSession& session, const std::string& name,
                                         ir::DType dtype, const ir::Shape& shape);

/// Fails when an --input or --dim binding matches no graph input (a typo).
Status checkBindingsUsed(const ImportSession& session,
                         const std::vector<const onnx::ValueInfoProto*>& inputs);

} // namespace stagecraft::onnxio
