#pragma once
// Internal to core/onnx: the state shared by the import stages.

#include "ir/graph.h"
#include "onnx/importer.h"

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace stagecraft::onnxio {

/// What replaces one node of the model's top graph.
struct NodeRewrite {
    std::vector<onnx::NodeProto> nodes;
    /// Added to the top graph's initializers and value_info.
    std::vector<onnx::TensorProto> initializers;
    std::vector<onnx::ValueInfoProto> valueInfo;
    /// The warning that tells the user what was done.
    std::string note;
};

struct ImportSession {
    const ImportOptions& options;
    std::filesystem::path modelPath;
    /// The file name used to prefix messages.
    std::string source;
    onnx::ModelProto model;
    /// Version of the default domain the file imports.
    int64_t opset = 0;
    /// The opset the file declares when it was converted to \ref opset
    /// (legacy behaviours depend on it), else the same.
    int64_t fileOpset = 0;
    ir::Graph graph;
    std::vector<std::string> warnings;
    /// ImportOptions::values read at their inputs' types (build_graph.cpp).
    std::map<std::string, ir::ConstTensor> boundValues;
    /// The op name build gave each node of the top graph, by node index.
    std::vector<std::string> nodeOpNames;
    /// Nodes inference decided to replace, by op name (an If by its branch,
    /// a Loop unrolled, a Compress whose condition is known: node_rewrite.cpp);
    /// the import splices them in and starts again.
    std::map<std::string, NodeRewrite> rewrites;
    /// Whether inference stopped at a node to rewrite.
    bool rewritesPending() const { return !rewrites.empty(); }

    ImportSession(const ImportOptions& opts, std::filesystem::path path)
        : options(opts)
        , modelPath(std::move(path))
        , source(modelPath.string()) {}

    std::filesystem::path modelDir() const { return modelPath.parent_path(); }
    /// An error about the model file: "<file>: <message>".
    Error error(const std::string& message) const { return Error(source + ": " + message); }
    void warn(std::string message) { warnings.push_back(std::move(message)); }

    /// The value the user gave for graph input \p id (ImportOptions::
    /// inputValues) when its type and shape match; null otherwise. A value
    /// handed out is remembered for compiledInValues().
    const ir::ConstTensor* suppliedValue(ir::TensorId id);
    /// Whether the user gave any input value (inputValues or values).
    bool hasGivenValues() const { return !options.inputValues.empty() || !boundValues.empty(); }
    /// Names of the inputs whose given values were compiled in.
    const std::set<std::string>& compiledInValues() const { return compiledIn_; }

private:
    std::set<std::string> compiledIn_;
};

/// Reads and parses the file, checks the opset (converting files older than
/// opset 9 with the ONNX version converter) and runs the checker.
Status loadModelProto(ImportSession& session);

/// Replaces ops that no rule knows, but whose ONNX schema defines them as a
/// function of other ops, by the function's body (inline_functions.cpp).
Status inlineFunctions(ImportSession& session);

/// Builds session.graph from the parsed model: tensors for inputs (shapes
/// bound), initializers and Constant nodes (lazy weights), ops with their
/// attributes checked against the ONNX schemas and defaults filled in.
/// Output shapes are not known yet.
Status buildGraph(ImportSession& session);

/// Gives every tensor a static shape and type, canonicalizes attributes and
/// folds constant sub-graphs (docs/ir.md).
Status inferShapes(ImportSession& session);

/// The simplifications of ImportOptions, then dead-code removal and compaction.
Status simplifyGraph(ImportSession& session);

/// Whether the top graph of the session's model has an op that may be
/// rewritten (If, Loop, Scan, Compress, Einsum, RNN, GRU, LSTM, a legacy
/// PRelu).
bool mayRewrite(const ImportSession& session);

/// Replaces each node of session.rewrites in session.model (node_rewrite.cpp);
/// the graph is then built again.
Status spliceRewrites(ImportSession& session);

/// Folds QDQ-wrapped Conv and MatMul into QLinearConv and QLinearMatMul
/// (fold_qdq.cpp); returns how many were folded.
int foldQdq(ir::Graph& graph);

/// Stores the u8 weights of zero point 128 of ConvInteger, MatMulInteger,
/// QLinearConv and QLinearMatMul as s8 (signed_weights.cpp); returns how
/// many ops read a weight so rewritten.
int signWeights(ir::Graph& graph);

} // namespace stagecraft::onnxio
