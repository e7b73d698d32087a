#pragma once
/// \file
/// Internal to core/ops: what the per-family nest builders share. OpContext
/// reads one op's shapes and canonical attributes and turns every problem into
/// an Error naming the op; the helpers build loops and access maps.

#include "ir/graph.h"
#include "ops/loop_nest.h"
#include "support/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::ops::detail {

/// No upper bound, for expectRank and expectOutputs.
inline constexpr int kUnbounded = 1 << 30;

class OpContext {
public:
    OpContext(const ir::Graph& graph, ir::OpId id)
        : graph_(graph)
        , op_(graph.op(id)) {}

    const ir::Graph& graph() const { return graph_; }
    const ir::Op& op() const { return op_; }
    /// An Error "op 'name' (Type): <message>".
    Error error(const std::string& message) const;

    int inputSlots() const { return static_cast<int>(op_.inputs.size()); }
    bool hasInput(int slot) const;
    /// Shape of a present input.
    const ir::Shape& inputShape(int slot) const;
    int64_t inputRank(int slot) const { return static_cast<int64_t>(inputShape(slot).size()); }
    int outputCount() const { return static_cast<int>(op_.outputs.size()); }
    const ir::Shape& outputShape(int index) const;

    /// Slots [0, required) must be present and none from \p slots on.
    Status expectInputs(int required, int slots) const;
    Status expectOutputs(int minCount, int maxCount) const;
    /// Input \p slot must be present with a rank in [minRank, maxRank].
    Status expectRank(int slot, int64_t minRank, int64_t maxRank, std::string_view what) const;
    /// Output \p index must have shape \p expected.
    Status expectOutputShape(int index, const ir::Shape& expected) const;

    /// Canonical attributes: missing or mistyped ones are errors naming them.
    Expected<int64_t> intAttr(std::string_view name) const;
    /// An optional attribute: \p fallback when absent, an error when mistyped.
    Expected<int64_t> intAttrOr(std::string_view name, int64_t fallback) const;
    /// A list; \p size >= 0 requires exactly that many values.
    Expected<std::vector<int64_t>> intsAttr(std::string_view name, int64_t size = -1) const;
    Expected<std::vector<double>> floatsAttr(std::string_view name, int64_t size = -1) const;
    Expected<std::string> stringAttr(std::string_view name) const;
    /// An optional string attribute.
    Expected<std::string> stringAttrOr(std::string_view name, std::string_view fallback) const;
    /// An axis attribute, checked to lie in [0, rank).
    Expected<int64_t> axisAttr(std::string_view name, int64_t rank) const;

private:
    const ir::Graph& graph_;
    const ir::Op& op_;
};

/// "3" for error messages about input slots and dims.
std::string str(int64_t value);

LoopDim parallelLoop(std::string name, int64_t extent, bool bindable = true);
LoopDim reductionLoop(std::string name, int64_t extent);

/// d0, d1, ... for the dims of \p shape, parallel and bindable.
std::vector<LoopDim> outputLoops(const ir::Shape& shape);

/// Index = loop (identity).
IndexExpr loopIndex(int loop);
/// Index = coeff*loop + offset.
IndexExpr affineIndex(int loop, int64_t coeff, int64_t offset);
/// The whole dimension.
IndexExpr fullIndex();
/// A constant index (no terms).
IndexExpr constantIndex(int64_t value);

/// Multidirectional (numpy) broadcasting of input \p slot onto the output
/// loops [0, rank(out)): dims aligned right, equal dims identity, a size-1
/// dim against a larger one reads index 0, leading output dims are absent.
Expected<AccessMap> broadcastMap(const OpContext& ctx, int slot, const ir::Shape& out);

/// A map reading every dim of input \p slot whole.
AccessMap fullMap(const OpContext& ctx, int slot);

/// Broadcast shape of two shapes; nullopt when they do not broadcast.
std::optional<ir::Shape> broadcastShapes(const ir::Shape& a, const ir::Shape& b);

} // namespace stagecraft::ops::detail
