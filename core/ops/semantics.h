#pragma once
/// \file
/// What the core knows about each op: its category, its loop nest per output
/// with access maps, and its cost (MACs, FLOPs, bytes). Read from a graph in
/// canonical form (docs/ir.md): attributes explicit, shapes static.

#include "ir/graph.h"
#include "ir/op_category.h"
#include "ops/loop_nest.h"
#include "support/expected.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace stagecraft::ops {

/// Op categories (ir/op_category.h), shared with the architecture's units.
using Category = ir::OpCategory;

inline std::string_view categoryName(Category category) {
    return ir::opCategoryName(category);
}

/// The op families whose generated kernels differ enough to be calibrated
/// apart (docs/simulator.md, "Fidelity"): "conv", "conv_transpose",
/// "matmul", "normalization", "transcendental".
std::span<const std::string_view> familyNames();

/// The family of an op kind ("conv" for Conv, "conv_transpose" for
/// ConvTranspose, "matmul" for MatMul and Gemm, "normalization" for Softmax
/// and the normalizations, "transcendental" for elementwise ops computing
/// exp, log, tanh, erf, powers or roots), or its category's name for
/// every other op.
std::string_view familyOf(ir::OpKind kind, Category category);

/// The dtype whose unit rate an op runs at: its first output's (f32 when it
/// has none), but an integer contraction (ConvInteger, MatMulInteger,
/// QLinearConv, QLinearMatMul) multiplies its 8-bit operands, u8 at the i8
/// rate.
ir::DType computeTypeOf(const ir::Graph& graph, ir::OpId op);

/// Category of an op kind; Opaque for Unknown.
Category categoryOf(ir::OpKind kind);
/// Category of an op type in \p domain; Opaque when unknown.
Category categoryOf(std::string_view opType, std::string_view domain = {});

/// True when Stagecraft has semantics (loop nests) for this op type.
bool isKnownOp(std::string_view opType, std::string_view domain = {});

/// All op types with semantics, sorted.
std::vector<std::string_view> knownOpTypes();

struct OpCost {
    /// Multiply-accumulates of complex ops (0 for the others).
    int64_t macs = 0;
    /// Floating-point (or integer) operations: 2 per MAC for complex ops,
    /// a per-element or per-visited-element count for the others, 0 for
    /// injective and opaque ops (docs/op-semantics.md has the table).
    int64_t flops = 0;
    /// Bytes of every present input and every output, each counted once.
    int64_t bytesRead = 0;
    int64_t bytesWritten = 0;
};

struct OpSemantics {
    Category category = Category::Opaque;
    /// One loop nest per output, in output order.
    std::vector<LoopNest> nests;
    OpCost cost;
};

/// Semantics of op \p id of \p graph. Unknown ops (and ops of a non-default
/// domain) are Opaque and get a nest per output over its dims, none bindable,
/// with `full` accesses to every input; TopK, the one opaque op Stagecraft
/// knows, reads only its axis `full`. Fails only when the op's attributes or
/// shapes contradict its canonical form; the Error names the op.
Expected<OpSemantics> semanticsOf(const ir::Graph& graph, ir::OpId id);

} // namespace stagecraft::ops
