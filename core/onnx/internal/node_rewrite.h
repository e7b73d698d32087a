#pragma once
// Internal to core/onnx: nodes that shape inference replaces in the model by
// other nodes once it knows enough (an If whose condition is known, a Loop
// to unroll, a Compress whose condition is given, an Einsum once its
// operands' shapes are known); the import then builds the graph again.

#include "onnx/internal/infer_context.h"

#include <map>
#include <string>
#include <vector>

namespace stagecraft::onnxio {

/// Decides on the op of \p ctx: true when a rewrite was recorded in the
/// session; else false, with \p because saying why the op stays as it is
/// ("has a condition computed at run time ...") and \p remedy what the user
/// can give ("; give --value sr=V ...").
using Rewriter = Expected<bool> (*)(InferContext& ctx, std::string& because, std::string& remedy);

/// The rewriter of \p opType (default domain), or null.
Rewriter findRewriter(const std::string& opType);

Expected<bool> rewriteIf(InferContext& ctx, std::string& because, std::string& remedy);
Expected<bool> rewriteLoop(InferContext& ctx, std::string& because, std::string& remedy);
Expected<bool> rewriteScan(InferContext& ctx, std::string& because, std::string& remedy);
Expected<bool> rewriteCompress(InferContext& ctx, std::string& because, std::string& remedy);
Expected<bool> rewriteEinsum(InferContext& ctx, std::string& because, std::string& remedy);
Expected<bool> rewriteRnn(InferContext& ctx, std::string& because, std::string& remedy);
Expected<bool> rewriteGru(InferContext& ctx, std::string& because, std::string& remedy);
Expected<bool> rewriteLstm(InferContext& ctx, std::string& because, std::string& remedy);
Expected<bool> rewriteLegacyPRelu(InferContext& ctx, std::string& because, std::string& remedy);

// Helpers for the rewriters.

using Renames = std::map<std::string, std::string>;

/// Renames every use and definition of the names in \p names in \p graph and
/// in the graphs nested in its nodes' attributes (ONNX names are unique
/// across scopes, so nothing shadows them).
void renameAll(onnx::GraphProto& graph, const Renames& names);

/// The node of the model's top graph that became op \p name, or null.
const onnx::NodeProto* nodeNamed(const ImportSession& session, const std::string& name);

/// The graph attribute \p attr of \p node, or null.
const onnx::GraphProto* graphAttribute(const onnx::NodeProto& node, const std::string& attr);

onnx::NodeProto makeNode(const std::string& type, const std::string& name,
                         std::vector<std::string> inputs, std::vector<std::string> outputs);
void setIntAttribute(onnx::NodeProto& node, const std::string& name, int64_t value);
void setIntsAttribute(onnx::NodeProto& node, const std::string& name,
                      const std::vector<int64_t>& values);

/// An initializer of \p type (INT64, INT32 or BOOL) holding \p values, of
/// shape \p dims (empty: a scalar).
onnx::TensorProto intInitializer(const std::string& name, int32_t type,
                                 const std::vector<int64_t>& values,
                                 const std::vector<int64_t>& dims);

/// Appends the nodes that make \p output an axis-\p axis Unsqueeze of
/// \p input (axes an input from opset 13, an attribute before).
void addUnsqueeze(NodeRewrite& rewrite, int64_t opset, const std::string& input, int64_t axis,
                  const std::string& output);

} // namespace stagecraft::onnxio
