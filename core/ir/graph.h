#pragma once
/// \file
/// The computational graph every stage of Stagecraft reads: ops, tensors with
/// static shapes and element types, producer/consumer links, graph inputs and
/// outputs. Ops and tensors live in index-keyed vectors, so iteration order
/// is deterministic. After import (and after every compact()) op ids are a
/// stable topological order: iterating ops() visits producers first.

#include "ir/attribute.h"
#include "ir/dtype.h"
#include "ir/op_kind.h"
#include "ir/shape.h"
#include "ir/weight.h"
#include "support/expected.h"
#include "support/id.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stagecraft::ir {

struct OpTag;
struct TensorTag;
/// An op's index in its graph; after compact() also its topological rank.
using OpId = Id<OpTag>;
/// A tensor's index in its graph.
using TensorId = Id<TensorTag>;
inline constexpr OpId kNoOp{-1};
/// An omitted optional input of an op.
inline constexpr TensorId kNoTensor{-1};

/// One input slot of one op that reads a tensor.
struct Use {
    OpId op;
    int slot;
    bool operator==(const Use&) const = default;
};

struct Tensor {
    std::string name;
    DType dtype = DType::Undefined;
    Shape shape;
    /// The op writing this tensor; kNoOp for graph inputs and weights.
    OpId producer = kNoOp;
    /// Every op input that reads this tensor, in op order.
    std::vector<Use> uses;
    /// Constant data (weights, folded constants); null for activations.
    WeightPtr data;

    bool isConstant() const { return data != nullptr; }
    int64_t elementCount() const { return ir::elementCount(shape); }
    int64_t byteSize() const { return elementCount() * dtypeSize(dtype); }
};

struct Op {
    std::string name;
    /// ONNX op type, e.g. "Conv": for display and the importer.
    std::string type;
    /// ONNX domain; empty for the default domain.
    std::string domain;
    Attributes attrs;
    /// Input tensors in ONNX slot order; kNoTensor for an omitted optional input.
    std::vector<TensorId> inputs;
    std::vector<TensorId> outputs;
    /// What passes switch on: set from type and domain by Graph::addOp.
    OpKind kind = OpKind::Unknown;
};

/// Where a graph came from, for reports.
struct GraphInfo {
    std::string name;
    std::string sourcePath;
    std::string producer;
    int64_t irVersion = 0;
    /// Opset version of the default ONNX domain.
    int64_t opsetVersion = 0;
};

class Graph {
public:
    GraphInfo info;

    /// Adds a tensor; its name must be new.
    TensorId addTensor(std::string name, DType dtype, Shape shape, WeightPtr data = nullptr);
    /// Adds an op and links its tensors. Every referenced tensor must exist,
    /// and no output may already have a producer. Sets the op's kind from
    /// its type and domain.
    OpId addOp(Op op);

    void setInputs(std::vector<TensorId> inputs) { inputs_ = std::move(inputs); }
    void setOutputs(std::vector<TensorId> outputs) { outputs_ = std::move(outputs); }
    const std::vector<TensorId>& inputs() const { return inputs_; }
    const std::vector<TensorId>& outputs() const { return outputs_; }
    bool isGraphInput(TensorId id) const;
    bool isGraphOutput(TensorId id) const;

    size_t opCount() const { return ops_.size(); }
    size_t tensorCount() const { return tensors_.size(); }
    /// Every op id, ascending (topological after compact()), removed ones included.
    IdRange<OpId> opIds() const { return ops_.ids(); }
    /// Every tensor id, ascending.
    IdRange<TensorId> tensorIds() const { return tensors_.ids(); }
    /// True when \p id names an op (removed or not) of this graph.
    bool hasOp(OpId id) const { return ops_.contains(id); }
    /// True when \p id names a tensor of this graph.
    bool hasTensor(TensorId id) const { return tensors_.contains(id); }
    const Op& op(OpId id) const { return ops_[id]; }
    const Tensor& tensor(TensorId id) const { return tensors_[id]; }
    /// Mutable access for passes that set shapes, types, attributes or data.
    /// Links (inputs, outputs, producer, uses) must be changed through Graph.
    Tensor& mutableTensor(TensorId id) { return tensors_[id]; }
    Op& mutableOp(OpId id) { return ops_[id]; }

    /// All ops in topological order. Only valid when no op is pending removal.
    std::span<const Op> ops() const;
    std::span<const Tensor> tensors() const { return tensors_.values(); }

    std::optional<TensorId> findTensor(std::string_view name) const;
    std::optional<OpId> findOp(std::string_view name) const;

    // --- rewriting -------------------------------------------------------
    /// Makes every reader of \p from (op inputs and graph outputs) read \p to.
    void replaceUses(TensorId from, TensorId to);
    /// Points input \p slot of \p op at \p tensor (kNoTensor to drop it).
    void setOpInput(OpId op, int slot, TensorId tensor);
    /// Renames a tensor; the new name must be free.
    void renameTensor(TensorId id, std::string name);
    /// Marks \p op for removal; its outputs lose their producer now, the op
    /// disappears at the next compact().
    void removeOp(OpId op);
    bool isRemoved(OpId op) const { return removed_[op.index()]; }
    /// Drops removed ops and tensors nobody reads or writes (graph inputs and
    /// outputs stay), then renumbers ops in stable topological order.
    /// Fails, naming the ops, when the graph has a cycle.
    Status compact();

private:
    IdVector<OpId, Op> ops_;
    IdVector<TensorId, Tensor> tensors_;
    std::vector<bool> removed_;
    size_t removedCount_ = 0;
    std::vector<TensorId> inputs_;
    std::vector<TensorId> outputs_;
    std::unordered_map<std::string, TensorId> tensorByName_;
};

/// Stable topological order (Kahn's algorithm, lowest op id first among the
/// ready ops), ignoring removed ops. A cycle is an error naming its ops.
Expected<std::vector<OpId>> topologicalOrder(const Graph& graph);

/// The names of the graph inputs \p tensor is computed from (sorted; itself
/// when it is one), looking back through at most \p maxVisited tensors.
std::vector<std::string> graphInputsBehind(const Graph& graph, TensorId tensor,
                                           size_t maxVisited = 4096);

/// Checks the graph's invariants: links agree both ways, op ids are in
/// topological order, every tensor is written by exactly one of (op, graph
/// input, constant data), shapes are static, names are unique.
Status validateGraph(const Graph& graph);

} // namespace stagecraft::ir
