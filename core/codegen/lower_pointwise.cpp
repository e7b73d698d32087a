// Ops computed point by point over their output (elementwise and injective
// ops): the input elements come from the loop-nest model's access maps
// (docs/op-semantics.md), so broadcasting, transposes, reshapes, slices,
// tiles and depth/space shuffles need no code of their own. The `full`
// dims the model cannot express as an index get one: Gather's and
// GatherElements' data axis (the index read from the indices tensor,
// negative indices wrapped, out-of-range ones clamped), Pad's reflect, edge
// and wrap modes. Concat copies each input over its part of the axis.

#include "codegen/internal/blocked_plan.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace stagecraft::codegen::detail {

Error OpCall::error(const std::string& what) const {
    return Error("op '" + op().name + "' (" + op().type + "): " + what);
}

ir::DType inputType(const OpCall& call, int slot) {
    return call.graph->tensor(call.op().inputs[static_cast<size_t>(slot)]).dtype;
}

ir::DType outputType(const OpCall& call, size_t index) {
    return call.graph->tensor(call.op().outputs[index]).dtype;
}

Value* loadMapped(Emitter& e, const OpCall& call, size_t nest, int slot,
                  std::span<Value* const> loops) {
    const ops::AccessMap* map = call.semantics->nests[nest].accessFor(slot);
    std::vector<Value*> index;
    for (const ops::IndexExpr& expr : map->dims)
        index.push_back(e.evalIndex(expr, loops));
    return e.load(call.inputs[static_cast<size_t>(slot)], index);
}

Value* readsInside(Emitter& e, const OpCall& call, int slot, const std::vector<int>& dims,
                   std::span<Value* const> loops) {
    const ops::AccessMap* map = call.semantics->nests[0].accessFor(slot);
    const ir::Shape& shape = call.inputs[static_cast<size_t>(slot)].shape;
    std::vector<Value*> tests;
    for (int d : dims) {
        const ops::IndexExpr& expr = map->dims[static_cast<size_t>(d)];
        tests.push_back(e.inBounds(e.evalIndex(expr, loops), shape[static_cast<size_t>(d)]));
        if (expr.div > 1 && expr.mod == 0) {
            ops::IndexExpr whole = expr;
            whole.div = 1;
            Value* rest = e.floorMod(e.evalIndex(whole, loops), expr.div);
            tests.push_back(e.b().CreateICmpEQ(rest, e.i64(0)));
        }
    }
    return e.all(tests);
}

namespace {

bool isMovement(ir::OpKind kind) {
    using enum ir::OpKind;
    for (ir::OpKind k : {Transpose, Reshape, Flatten, Squeeze, Unsqueeze, Expand, Tile, Slice,
                         DepthToSpace, SpaceToDepth, Split, Identity, Dropout})
        if (k == kind)
            return true;
    return false;
}

} // namespace

/// The width of output \p o's last loop when its last two loops can run as
/// one: both ranges constant, the rows back to back in the output, and every
/// input read at addresses linear in the joined position (the same layout,
/// or a broadcast along them); 0 otherwise. A loop of 14 or 7 would be
/// unrolled and the loop above vectorized across rows with gathers and
/// scatters (ResNet-50's residual Add and ReLU after its 14x14 and 7x7
/// convolutions took a third of those layers so).
int64_t joinedRowWidth(const OpCall& call, size_t o) {
    const std::vector<Range>& region = call.regions[o];
    const Access& out = call.outputs[o];
    if (region.size() < 2 || call.semantics->nests.size() <= o)
        return 0;
    const int row = static_cast<int>(region.size()) - 1;
    std::optional<int64_t> width = constantExtent(region.back());
    std::optional<int64_t> rows = constantExtent(region[region.size() - 2]);
    if (!width || !rows || *rows < 2 || out.strides.back() != 1 ||
        out.strides[region.size() - 2] != *width)
        return 0;
    const ops::LoopNest& nest = call.semantics->nests[o];
    for (const ops::AccessMap& map : nest.inputs) {
        const Access& in = call.inputs[static_cast<size_t>(map.operand)];
        int64_t perRow = 0, perElement = 0;
        for (size_t d = 0; d < map.dims.size(); ++d) {
            const ops::IndexExpr& expr = map.dims[d];
            if (expr.full)
                return 0;
            for (const ops::IndexTerm& t : expr.terms) {
                if (t.loop != row && t.loop != row - 1)
                    continue;
                if (expr.div != 1 || expr.mod != 0 || t.div != 1 || t.mod != 0)
                    return 0;
                (t.loop == row ? perElement : perRow) += t.coeff * in.strides[d];
            }
        }
        if (perRow != *width * perElement)
            return 0;
    }
    return *width;
}

/// forBox over \p region, its last two loops run as one where
/// joinedRowWidth allows: the row loop held at its first value, the last
/// loop running over all the rows' elements (the addresses are the same).
void forJoinedBox(Emitter& e, const std::vector<Range>& region, int64_t width,
                  const std::function<void(const std::vector<Value*>&)>& body) {
    if (width == 0) {
        e.forBox(region, body);
        return;
    }
    const Range& rows = region[region.size() - 2];
    const Range& row = region.back();
    const int64_t count = *constantExtent(rows) * width;
    std::vector<Range> outer(region.begin(), region.end() - 2);
    outer.push_back({row.lo, e.b().CreateAdd(row.lo, e.i64(count))});
    e.forBox(outer, [&](const std::vector<Value*>& idx) {
        std::vector<Value*> index(idx.begin(), idx.end() - 1);
        index.push_back(rows.lo);
        index.push_back(idx.back());
        body(index);
    });
}

Status lowerPointwise(Emitter& e, const OpCall& call) {
    ir::OpKind kind = call.op().kind;
    bool scalar = isScalarOp(kind);
    if (!scalar && !isMovement(kind))
        return call.error("code generation does not support this op type");
    Status failure = Status::success();
    for (size_t o = 0; o < call.outputs.size(); ++o) {
        if (call.outputs[o].base == nullptr)
            continue;
        ir::DType out = outputType(call, o);
        const int64_t width = scalar ? joinedRowWidth(call, o) : 0;
        forJoinedBox(e, call.regions[o], width, [&](const std::vector<Value*>& idx) {
            if (kind == ir::OpKind::Dropout &&
                o == 1) { // the mask: nothing is dropped at inference
                e.store(call.outputs[o], idx, e.constant(out, 1));
                return;
            }
            std::vector<Value*> args;
            std::vector<ir::DType> types;
            for (int slot = 0; slot < static_cast<int>(call.op().inputs.size()); ++slot) {
                bool present = call.hasInput(slot);
                args.push_back(present ? loadMapped(e, call, o, slot, idx) : nullptr);
                types.push_back(present ? inputType(call, slot) : ir::DType::Undefined);
            }
            Value* value = args.front();
            if (scalar) {
                auto computed = scalarOp(e, call, args, types, out);
                if (!computed.ok()) {
                    failure = computed.error();
                    value = e.constant(out, 0);
                } else {
                    value = *computed;
                }
            }
            e.store(call.outputs[o], idx, value);
        });
    }
    return failure;
}

Status lowerConcat(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    auto axis = static_cast<size_t>(call.op().attrs.getInt("axis", 0));
    int64_t offset = 0;
    for (int slot = 0; slot < static_cast<int>(call.op().inputs.size()); ++slot) {
        int64_t extent =
            call.graph->tensor(call.op().inputs[static_cast<size_t>(slot)]).shape[axis];
        std::vector<Range> ranges = call.regions[0];
        ranges[axis].lo = e.max(ranges[axis].lo, e.i64(offset));
        ranges[axis].hi = e.min(ranges[axis].hi, e.i64(offset + extent));
        e.forBox(ranges, [&](const std::vector<Value*>& idx) {
            e.store(call.outputs[0], idx, loadMapped(e, call, 0, slot, idx));
        });
        offset += extent;
    }
    return Status::success();
}

namespace {

/// The input index of a padded dim in reflect, edge or wrap mode.
Value* paddedIndex(Emitter& e, const std::string& mode, Value* raw, int64_t n) {
    if (mode == "edge" || n == 1)
        return e.clamp(raw, 0, n - 1);
    if (mode == "wrap")
        return e.floorMod(raw, n);
    int64_t period = 2 * (n - 1);
    Value* r = e.floorMod(raw, period);
    return e.b().CreateSelect(e.b().CreateICmpSGE(r, e.i64(n)), e.b().CreateSub(e.i64(period), r),
                              r);
}

} // namespace

Status lowerPad(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    const ir::Op& op = call.op();
    std::string mode = op.attrs.getString("mode", "constant");
    std::vector<int64_t> pads = op.attrs.getInts("pads");
    const ir::Shape& in = call.inputs[0].shape;
    ir::DType type = outputType(call, 0);
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        // constant_value computed at run time (slot 2), else the attribute
        Value* padValue = call.hasInput(2)
                              ? e.convert(loadMapped(e, call, 0, 2, idx), inputType(call, 2), type)
                              : e.constant(type, op.attrs.getFloat("value", 0.0));
        std::vector<Value*> index, inside;
        for (size_t j = 0; j < in.size(); ++j) {
            Value* raw = e.b().CreateSub(idx[j], e.i64(pads[j]));
            if (mode == "constant") {
                inside.push_back(e.inBounds(raw, in[j]));
                index.push_back(e.clamp(raw, 0, std::max<int64_t>(in[j] - 1, 0)));
            } else {
                index.push_back(paddedIndex(e, mode, raw, in[j]));
            }
        }
        Value* value = e.load(call.inputs[0], index);
        if (!inside.empty())
            value = e.b().CreateSelect(e.all(inside), value, padValue);
        e.store(call.outputs[0], idx, value);
    });
    return Status::success();
}

Status lowerTrilu(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    const ir::Op& op = call.op();
    bool upper = op.attrs.getInt("upper", 1) != 0;
    int64_t k = op.attrs.getInt("k", 0);
    size_t rank = call.inputs[0].shape.size();
    ir::DType type = outputType(call, 0);
    auto& b = e.b();
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        // Kept: j - i >= k above the diagonal (upper), j - i <= k below it.
        Value* offset = b.CreateSub(idx[rank - 1], idx[rank - 2]);
        Value* keep = upper ? b.CreateICmpSGE(offset, e.i64(k)) : b.CreateICmpSLE(offset, e.i64(k));
        Value* value = loadMapped(e, call, 0, 0, idx);
        e.store(call.outputs[0], idx, b.CreateSelect(keep, value, e.constant(type, 0)));
    });
    return Status::success();
}

Status lowerGather(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    const ops::AccessMap* data = call.semantics->nests[0].accessFor(0);
    const ir::Shape& shape = call.inputs[0].shape;
    ir::DType indexType = inputType(call, 1);
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        Value* picked = e.convert(loadMapped(e, call, 0, 1, idx), indexType, ir::DType::Int64);
        std::vector<Value*> index;
        for (size_t j = 0; j < data->dims.size(); ++j) {
            if (!data->dims[j].full) {
                index.push_back(e.evalIndex(data->dims[j], idx));
                continue;
            }
            Value* wrapped = e.b().CreateSelect(e.b().CreateICmpSLT(picked, e.i64(0)),
                                                e.b().CreateAdd(picked, e.i64(shape[j])), picked);
            index.push_back(e.clamp(wrapped, 0, std::max<int64_t>(shape[j] - 1, 0)));
        }
        e.store(call.outputs[0], idx, e.load(call.inputs[0], index));
    });
    return Status::success();
}

} // namespace stagecraft::codegen::detail
