#pragma once
// Internal to core/onnx: what a shape-inference rule sees of one op, and the
// table of known constant values that shape computations fold through.

#include "ir/const_tensor.h"
#include "onnx/internal/import_session.h"

#include <optional>
#include <string>
#include <vector>

namespace stagecraft::onnxio {

/// Constant values of tensors, by tensor id: small weights are read on
/// demand, folded results are stored. Large weights are never read.
class ValueTable {
public:
    explicit ValueTable(const ir::Graph& graph)
        : graph_(graph)
        , values_(graph.tensorCount()) {}

    /// The value of \p id if it is constant and small enough to read, else null.
    const ir::ConstTensor* get(ir::TensorId id);
    void set(ir::TensorId id, ir::ConstTensor value);
    /// True when \p id is constant (weight data or a folded value), read or not.
    bool isConstant(ir::TensorId id) const;

    /// Weights up to this size are read when a shape computation needs them.
    static constexpr int64_t kReadLimitBytes = 1 << 20;

private:
    const ir::Graph& graph_;
    IdVector<ir::TensorId, std::optional<ir::ConstTensor>> values_;
};

class InferContext {
public:
    InferContext(ImportSession& session, ValueTable& values, ir::OpId id)
        : session_(session)
        , values_(values)
        , id_(id) {}

    const ir::Op& op() const { return session_.graph.op(id_); }
    ImportSession& session() { return session_; }
    ir::OpId id() const { return id_; }
    ir::Attributes& attrs() { return session_.graph.mutableOp(id_).attrs; }
    int64_t opset() const { return session_.opset; }

    /// Input slots, omitted optional inputs included.
    int inputCount() const { return static_cast<int>(op().inputs.size()); }
    bool hasInput(int i) const {
        return i >= 0 && i < inputCount() && op().inputs[static_cast<size_t>(i)] != ir::kNoTensor;
    }
    const ir::Tensor& input(int i) const {
        return session_.graph.tensor(op().inputs[static_cast<size_t>(i)]);
    }
    const ir::Shape& shape(int i) const { return input(i).shape; }
    ir::DType dtype(int i) const { return input(i).dtype; }
    int64_t rank(int i) const { return static_cast<int64_t>(shape(i).size()); }

    /// The constant value of input \p i, or null when it is not a known constant.
    const ir::ConstTensor* value(int i);
    /// Input \p i as integers; an error naming \p what when it is not constant.
    Expected<std::vector<int64_t>> intsInput(int i, const std::string& what);
    /// Input \p i as doubles; an error naming \p what when it is not constant.
    Expected<std::vector<double>> floatsInput(int i, const std::string& what);

    int outputCount() const { return static_cast<int>(op().outputs.size()); }
    bool outputUsed(int i) const;
    void setOutput(int i, ir::DType dtype, ir::Shape shape);
    /// Records that output \p i has a value known at import time.
    void setOutputValue(int i, ir::ConstTensor value);
    /// Renames the op type (Upsample becomes Resize in canonical form); the
    /// kind follows.
    void setType(const std::string& type) {
        ir::Op& op = session_.graph.mutableOp(id_);
        op.type = type;
        op.kind = ir::opKindOf(type, op.domain);
    }
    /// Keeps only the first \p n inputs (the others became attributes).
    void keepInputs(int n);
    /// Omits input \p i (it became an attribute); later slots keep their place.
    void dropInput(int i);

    /// The graph inputs input \p i is computed from (itself if it is one), sorted.
    std::vector<std::string> graphInputsBehind(int i) const;

    /// "<file>: op 'name' (Type): <message>".
    Error error(const std::string& message) const;
    void warn(const std::string& message);
    /// \p axis made non-negative for \p rank; an error naming \p what if out of range.
    Expected<int64_t> normalizeAxis(int64_t axis, int64_t rank, const std::string& what) const;

private:
    /// The value of \p id: a constant, a given input value, or computed on
    /// demand from those through evaluable ops (\p depth ops deep so far).
    const ir::ConstTensor* valueOf(ir::TensorId id, int depth);
    /// Why input \p i is not the constant \p what needs: a graph input is
    /// named, with how to give its value.
    Error notConstant(int i, const std::string& what) const;

    ImportSession& session_;
    ValueTable& values_;
    ir::OpId id_;
};

/// A shape-inference and canonicalization rule for one op type.
using InferRule = Status (*)(InferContext&);

/// The rule for \p opType in the default domain, or null.
InferRule findInferRule(const std::string& opType);

/// Every op type with a rule, sorted.
std::vector<std::string> inferRuleOpTypes();

/// "input 'a'" or "inputs 'a', 'b'" for \p names.
std::string inputsPhrase(const std::vector<std::string>& names);

/// "--value a=V --value b=V" for \p inputs.
std::string valueFlags(const std::vector<std::string>& inputs);

/// Multidirectional (numpy) broadcasting of two shapes.
std::optional<ir::Shape> broadcastShapes(const ir::Shape& a, const ir::Shape& b);

} // namespace stagecraft::onnxio
