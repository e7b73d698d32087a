// Ops that scan an axis or move elements by index, as loop nests over their
// output dims (docs/op-semantics.md).
//
// CumSum (axis, canonical): the output has the input's shape; a reduction
// loop over the axis reads the input's axis (each element sums a prefix or
// suffix of it, a subset of the loop), the other dims in place.
// OneHot (axis, depth, values as attributes): the output is the indices'
// shape with depth inserted at the axis; the indices are read on the other
// dims, in place.
// GatherND (batch_dims b): the output is indices.shape[:-1] followed by
// data.shape[b + k:], k = indices.shape[-1]; data's first b dims are read in
// place, the next k are data-dependent (`full`), the rest follow the output's
// last dims; the indices are read on their leading dims, their last `full`.
// ScatterElements and ScatterND: the output has the data's shape and reads
// it in place; any update may land on any element, so indices and updates
// are read `full` and no output dim is bindable (opaque, as TVM's scatter).

#include "ops/internal/builders.h"

namespace stagecraft::ops::detail {

Nests buildCumSum(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& x = ctx.inputShape(0);
    SC_ASSIGN_OR_RETURN(int64_t axis, ctx.axisAttr("axis", static_cast<int64_t>(x.size())));
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, x));
    LoopNest nest;
    nest.loops = outputLoops(x);
    nest.outputRank = static_cast<int>(x.size());
    AccessMap map{0, {}};
    for (size_t j = 0; j < x.size(); ++j)
        map.dims.push_back(static_cast<int64_t>(j) == axis
                               ? loopIndex(static_cast<int>(nest.loops.size()))
                               : loopIndex(static_cast<int>(j)));
    nest.loops.push_back(reductionLoop("scan", x[static_cast<size_t>(axis)]));
    nest.inputs.push_back(std::move(map));
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildOneHot(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& indices = ctx.inputShape(0);
    auto rank = static_cast<int64_t>(indices.size()) + 1;
    SC_ASSIGN_OR_RETURN(int64_t axis, ctx.axisAttr("axis", rank));
    SC_ASSIGN_OR_RETURN(int64_t depth, ctx.intAttr("depth"));
    if (depth < 1)
        return ctx.error("attribute 'depth' is " + str(depth) + ", expected at least 1");
    ir::Shape out = indices;
    out.insert(out.begin() + axis, depth);
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));
    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    AccessMap map{0, {}};
    for (int64_t j = 0; j < rank; ++j)
        if (j != axis)
            map.dims.push_back(loopIndex(static_cast<int>(j)));
    nest.inputs.push_back(std::move(map));
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildGatherNd(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 2));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& data = ctx.inputShape(0);
    const ir::Shape& indices = ctx.inputShape(1);
    SC_ASSIGN_OR_RETURN(int64_t batch, ctx.intAttr("batch_dims"));
    if (indices.empty())
        return ctx.error("indices must have rank 1 or more");
    int64_t k = indices.back();
    auto q = static_cast<int64_t>(indices.size());
    auto r = static_cast<int64_t>(data.size());
    if (batch < 0 || batch >= q || batch + k > r)
        return ctx.error("batch_dims " + str(batch) + " and an index length of " + str(k) +
                         " do not fit data of rank " + str(r));
    ir::Shape out(indices.begin(), indices.end() - 1);
    out.insert(out.end(), data.begin() + batch + k, data.end());
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));
    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    AccessMap dataMap{0, {}}, indexMap{1, {}};
    for (int64_t j = 0; j < r; ++j)
        dataMap.dims.push_back(j < batch ? loopIndex(static_cast<int>(j))
                               : j < batch + k
                                   ? fullIndex()
                                   : loopIndex(static_cast<int>(q - 1 + j - batch - k)));
    for (int64_t j = 0; j < q; ++j)
        indexMap.dims.push_back(j + 1 < q ? loopIndex(static_cast<int>(j)) : fullIndex());
    nest.inputs.push_back(std::move(dataMap));
    nest.inputs.push_back(std::move(indexMap));
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildScatter(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(3, 3));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& data = ctx.inputShape(0);
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, data));
    LoopNest nest;
    nest.loops = outputLoops(data);
    for (LoopDim& loop : nest.loops)
        loop.bindable = false;
    nest.outputRank = static_cast<int>(data.size());
    AccessMap dataMap{0, {}};
    for (size_t j = 0; j < data.size(); ++j)
        dataMap.dims.push_back(loopIndex(static_cast<int>(j)));
    nest.inputs.push_back(std::move(dataMap));
    nest.inputs.push_back(fullMap(ctx, 1));
    nest.inputs.push_back(fullMap(ctx, 2));
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
