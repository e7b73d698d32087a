#pragma once
// Internal to core/onnx: ONNX node attributes as ir::Attributes.

#include "ir/attribute.h"
#include "support/expected.h"

#include <onnx/onnx_pb.h>

#include <string>

namespace onnx {
class OpSchema;
}

namespace stagecraft::onnxio {

/// Converts the attributes of \p node. With a \p schema, types are checked
/// (an error names the attribute) and missing attributes get the schema's
/// defaults; required ones must be present. \p opLabel prefixes messages.
Expected<ir::Attributes> convertAttributes(const onnx::NodeProto& node,
                                           const onnx::OpSchema* schema,
                                           const std::string& opLabel);

} // namespace stagecraft::onnxio
