#pragma once
// Building blocks of the seeded test graphs (random_graphs.h): a Builder that
// adds ops in canonical form (docs/ir.md) with fresh tensors, and one function
// per op kind that computes the output shape the way the importer would.
// Internal to tests/support.

#include "ir/graph.h"
#include "ir/weight.h"

#include <cstddef>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace stagecraft::test::graphops {

using ir::Shape;
using ir::TensorId;
using Ints = std::vector<int64_t>;

/// Adds ops with their output tensors; names are "<Type>_<n>" and "t<n>".
class Builder {
public:
    explicit Builder(ir::Graph& graph)
        : g_(graph) {}

    TensorId input(const Shape& shape) {
        TensorId id =
            g_.addTensor("input" + std::to_string(inputs_.size()), ir::DType::Float32, shape);
        inputs_.push_back(id);
        return id;
    }

    /// A float weight that reads as zeros, computed (allocated) only when read.
    TensorId weight(const Shape& shape) {
        int64_t bytes = ir::elementCount(shape) * ir::dtypeSize(ir::DType::Float32);
        auto zeros = [bytes]() -> Expected<std::vector<std::byte>> {
            return std::vector<std::byte>(static_cast<size_t>(bytes));
        };
        return g_.addTensor("w" + std::to_string(weights_++), ir::DType::Float32, shape,
                            ir::makeDerivedWeight(bytes, "zeros", zeros));
    }

    /// A copy: references into the graph die when tensors are added.
    Shape shape(TensorId id) const { return g_.tensor(id).shape; }
    int ops() const { return static_cast<int>(g_.opCount()); }

    std::vector<TensorId> emit(const std::string& type, std::vector<TensorId> inputs,
                               const std::vector<Shape>& outputs, ir::Attributes attrs = {}) {
        ir::Op op;
        op.name = type + "_" + std::to_string(g_.opCount());
        op.type = type;
        op.attrs = std::move(attrs);
        op.inputs = std::move(inputs);
        for (const Shape& shape : outputs) {
            std::string name = std::to_string(g_.tensorCount());
            name.insert(name.begin(), 't'); // "t" + ... trips GCC 12's -Wrestrict
            op.outputs.push_back(g_.addTensor(std::move(name), ir::DType::Float32, shape));
        }
        std::vector<TensorId> results = op.outputs;
        g_.addOp(std::move(op));
        return results;
    }
    TensorId emit1(const std::string& type, std::vector<TensorId> inputs, const Shape& output,
                   ir::Attributes attrs = {}) {
        return emit(type, std::move(inputs), {output}, std::move(attrs))[0];
    }

    /// Graph inputs as added; outputs: every op output nobody reads.
    void finish() {
        g_.setInputs(inputs_);
        std::vector<TensorId> outputs;
        for (TensorId id : g_.tensorIds()) {
            const ir::Tensor& t = g_.tensor(id);
            if (t.producer != ir::kNoOp && t.uses.empty())
                outputs.push_back(id);
        }
        g_.setOutputs(std::move(outputs));
    }

private:
    ir::Graph& g_;
    std::vector<TensorId> inputs_;
    int weights_ = 0;
};

ir::Attributes attrs(std::initializer_list<std::pair<const char*, ir::AttrValue>> entries);
/// The NumPy broadcast of two shapes (asserts that they broadcast).
Shape broadcast(const Shape& a, const Shape& b);
/// Output extent of a window (Conv, pooling) without dilation.
int64_t windowOut(int64_t in, int64_t kernel, int64_t stride, int64_t pad);

// One op each (attentionBlock: 17).
TensorId conv(Builder& b, TensorId x, int64_t cout, int64_t k, int64_t stride, int64_t pad,
              int64_t group, bool bias);
/// MaxPool or AveragePool; with ceil_mode the last window may hang over
/// (and is dropped when it would start in the end padding, as ONNX does).
TensorId pool(Builder& b, TensorId x, bool isMax, int64_t k, int64_t stride, int64_t pad,
              bool ceil);
TensorId unary(Builder& b, const char* type, TensorId x);
TensorId binary(Builder& b, const char* type, TensorId x, TensorId y);
TensorId batchNorm(Builder& b, TensorId x);
TensorId globalAveragePool(Builder& b, TensorId x);
/// MatMul of [.., M, K] by [.., K, N] (batch dims broadcast).
TensorId matmul(Builder& b, TensorId x, TensorId y);
TensorId gemm(Builder& b, TensorId x, int64_t n, bool transB);
TensorId reshape(Builder& b, TensorId x, const Shape& shape);
TensorId flatten(Builder& b, TensorId x, int64_t axis);
TensorId transpose(Builder& b, TensorId x, const Ints& perm);
TensorId concat(Builder& b, const std::vector<TensorId>& parts, int64_t axis);
std::vector<TensorId> split(Builder& b, TensorId x, int64_t axis, const Ints& sizes);
/// Slice of one axis: [start, end) with a positive step; other dims whole.
TensorId slice(Builder& b, TensorId x, int64_t axis, int64_t start, int64_t end, int64_t step);
TensorId softmax(Builder& b, TensorId x, int64_t axis);
TensorId reduceMean(Builder& b, TensorId x, const Ints& axes, bool keepdims);
/// Resize of the spatial dims of an image by \p scale (2 or 0.5).
TensorId resize(Builder& b, TensorId x, double scale, bool linear);
/// Multi-head self-attention with a residual Add on [N, S, H]: 17 ops
/// (projections, heads split by Reshape/Transpose, scaled scores, Softmax).
TensorId attentionBlock(Builder& b, TensorId x, int64_t heads);

} // namespace stagecraft::test::graphops
