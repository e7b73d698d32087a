// Ops that scan an axis or move elements by index (codegen/internal/
// lowering.h). CumSum sums each output element's prefix (or suffix) of the
// axis directly, as its loop nest counts it. OneHot compares each output's
// axis position with the wrapped index. GatherND reads the data element its
// index tuple names (negative indices wrapped, out-of-range ones clamped, as
// Gather's). ScatterElements and ScatterND copy the data over the region
// computed, then apply every update whose target lies in it, in order, by
// the op's reduction (none, add, mul, max, min); an out-of-range index
// writes nothing.

#include "codegen/internal/lowering.h"

#include <algorithm>

namespace stagecraft::codegen::detail {

namespace {

using llvm::Intrinsic::maxnum;
using llvm::Intrinsic::minnum;

Value* add(Emitter& e, Value* a, Value* b, ir::DType t) {
    return ir::isFloatingPoint(t) ? e.b().CreateFAdd(a, b) : e.b().CreateAdd(a, b);
}

/// \p old combined with \p update by a scatter's reduction.
Value* reduce(Emitter& e, const std::string& reduction, Value* old, Value* update, ir::DType t) {
    bool fp = ir::isFloatingPoint(t);
    if (reduction == "add")
        return add(e, old, update, t);
    if (reduction == "mul")
        return fp ? e.b().CreateFMul(old, update) : e.b().CreateMul(old, update);
    if (reduction == "max" || reduction == "min") {
        bool max = reduction == "max";
        if (fp) {
            Value* args[] = {old, update};
            return e.intrinsic(max ? maxnum : minnum, args);
        }
        Value* greater =
            isUnsigned(t) ? e.b().CreateICmpUGT(update, old) : e.b().CreateICmpSGT(update, old);
        return max ? e.b().CreateSelect(greater, update, old)
                   : e.b().CreateSelect(greater, old, update);
    }
    return update;
}

/// An index read from a tensor of \p type, as i64, negative ones wrapped by
/// \p extent.
Value* wrapped(Emitter& e, Value* raw, ir::DType type, int64_t extent) {
    Value* v = e.convert(raw, type, ir::DType::Int64);
    return e.b().CreateSelect(e.b().CreateICmpSLT(v, e.i64(0)), e.b().CreateAdd(v, e.i64(extent)),
                              v);
}

std::vector<Range> wholeShape(Emitter& e, const ir::Shape& shape) {
    std::vector<Range> ranges;
    for (int64_t extent : shape)
        ranges.push_back({e.i64(0), e.i64(extent)});
    return ranges;
}

/// Whether \p index lies in \p region.
Value* inRegion(Emitter& e, const std::vector<Range>& region, const std::vector<Value*>& index) {
    std::vector<Value*> inside;
    for (size_t d = 0; d < region.size(); ++d) {
        inside.push_back(e.b().CreateICmpSGE(index[d], region[d].lo));
        inside.push_back(e.b().CreateICmpSLT(index[d], region[d].hi));
    }
    return e.all(inside);
}

/// The data over the region, then the updates at \p targetOf(update index)
/// whose target is valid and in the region.
void scatter(
    Emitter& e, const OpCall& call,
    const std::function<std::pair<std::vector<Value*>, Value*>(const std::vector<Value*>&)>&
        targetOf) {
    ir::DType type = outputType(call, 0);
    std::string reduction = call.op().attrs.getString("reduction", "none");
    const std::vector<Range>& region = call.regions[0];
    e.forBox(region, [&](const std::vector<Value*>& idx) {
        e.store(call.outputs[0], idx, e.load(call.inputs[0], idx));
    });
    e.forBox(wholeShape(e, call.inputs[2].shape), [&](const std::vector<Value*>& u) {
        std::pair<std::vector<Value*>, Value*> aimed = targetOf(u);
        const std::vector<Value*>& target = aimed.first;
        e.ifThen(e.b().CreateAnd(aimed.second, inRegion(e, region, target)), [&] {
            Value* update = e.load(call.inputs[2], u);
            Value* old = e.load(call.outputs[0], target);
            e.store(call.outputs[0], target, reduce(e, reduction, old, update, type));
        });
    });
}

Status lowerCumSum(Emitter& e, const OpCall& call) {
    ir::DType type = outputType(call, 0);
    auto axis = static_cast<size_t>(call.op().attrs.getInt("axis", 0));
    bool exclusive = call.op().attrs.getInt("exclusive", 0) != 0;
    bool reverse = call.op().attrs.getInt("reverse", 0) != 0;
    int64_t extent = call.inputs[0].shape[axis];
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        Value* j = idx[axis];
        Value* one = e.i64(1);
        Range terms = reverse ? Range{exclusive ? e.b().CreateAdd(j, one) : j, e.i64(extent)}
                              : Range{e.i64(0), exclusive ? j : e.b().CreateAdd(j, one)};
        Value* sum = e.slot(e.valueType(type), e.constant(type, 0));
        e.forRange(terms, [&](Value* k) {
            std::vector<Value*> at = idx;
            at[axis] = k;
            Value* acc = e.b().CreateLoad(e.valueType(type), sum);
            e.b().CreateStore(add(e, acc, e.load(call.inputs[0], at), type), sum);
        });
        e.store(call.outputs[0], idx, e.b().CreateLoad(e.valueType(type), sum));
    });
    return Status::success();
}

Status lowerOneHot(Emitter& e, const OpCall& call) {
    ir::DType type = outputType(call, 0);
    const ir::Attributes& attrs = call.op().attrs;
    auto axis = static_cast<size_t>(attrs.getInt("axis", 0));
    int64_t depth = attrs.getInt("depth", 1);
    Value* on = e.constant(type, attrs.getFloat("on_value", 1));
    Value* off = e.constant(type, attrs.getFloat("off_value", 0));
    ir::DType indexType = inputType(call, 0);
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        std::vector<Value*> at = idx;
        at.erase(at.begin() + static_cast<std::ptrdiff_t>(axis));
        Value* hot = wrapped(e, e.load(call.inputs[0], at), indexType, depth);
        e.store(call.outputs[0], idx,
                e.b().CreateSelect(e.b().CreateICmpEQ(hot, idx[axis]), on, off));
    });
    return Status::success();
}

Status lowerGatherNd(Emitter& e, const OpCall& call) {
    const ir::Shape& data = call.inputs[0].shape;
    const ir::Shape& indices = call.inputs[1].shape;
    auto batch = static_cast<size_t>(call.op().attrs.getInt("batch_dims", 0));
    auto k = static_cast<size_t>(indices.back());
    size_t q = indices.size();
    ir::DType indexType = inputType(call, 1);
    e.forBox(call.regions[0], [&](const std::vector<Value*>& idx) {
        std::vector<Value*> at(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(q - 1));
        std::vector<Value*> source(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(batch));
        for (size_t t = 0; t < k; ++t) {
            at.push_back(e.i64(static_cast<int64_t>(t)));
            int64_t extent = data[batch + t];
            Value* v = wrapped(e, e.load(call.inputs[1], at), indexType, extent);
            source.push_back(e.clamp(v, 0, std::max<int64_t>(extent - 1, 0)));
            at.pop_back();
        }
        source.insert(source.end(), idx.begin() + static_cast<std::ptrdiff_t>(q - 1), idx.end());
        e.store(call.outputs[0], idx, e.load(call.inputs[0], source));
    });
    return Status::success();
}

Status lowerScatterElements(Emitter& e, const OpCall& call) {
    const ir::Shape& data = call.inputs[0].shape;
    auto axis = static_cast<size_t>(call.op().attrs.getInt("axis", 0));
    ir::DType indexType = inputType(call, 1);
    scatter(e, call, [&](const std::vector<Value*>& u) {
        std::vector<Value*> target = u;
        target[axis] = wrapped(e, e.load(call.inputs[1], u), indexType, data[axis]);
        return std::pair{target, e.inBounds(target[axis], data[axis])};
    });
    return Status::success();
}

Status lowerScatterNd(Emitter& e, const OpCall& call) {
    const ir::Shape& data = call.inputs[0].shape;
    const ir::Shape& indices = call.inputs[1].shape;
    auto k = static_cast<size_t>(indices.back());
    size_t q = indices.size();
    ir::DType indexType = inputType(call, 1);
    scatter(e, call, [&](const std::vector<Value*>& u) {
        std::vector<Value*> at(u.begin(), u.begin() + static_cast<std::ptrdiff_t>(q - 1));
        std::vector<Value*> target, valid;
        for (size_t t = 0; t < k; ++t) {
            at.push_back(e.i64(static_cast<int64_t>(t)));
            target.push_back(wrapped(e, e.load(call.inputs[1], at), indexType, data[t]));
            valid.push_back(e.inBounds(target.back(), data[t]));
            at.pop_back();
        }
        target.insert(target.end(), u.begin() + static_cast<std::ptrdiff_t>(q - 1), u.end());
        return std::pair{target, e.all(valid)};
    });
    return Status::success();
}

} // namespace

Status lowerIndexed(Emitter& e, const OpCall& call) {
    if (call.outputs[0].base == nullptr)
        return Status::success();
    switch (call.op().kind) {
    case ir::OpKind::CumSum:
        return lowerCumSum(e, call);
    case ir::OpKind::OneHot:
        return lowerOneHot(e, call);
    case ir::OpKind::GatherND:
        return lowerGatherNd(e, call);
    case ir::OpKind::ScatterElements:
        return lowerScatterElements(e, call);
    case ir::OpKind::ScatterND:
        return lowerScatterNd(e, call);
    default:
        return call.error("code generation does not support this op type");
    }
}

} // namespace stagecraft::codegen::detail
