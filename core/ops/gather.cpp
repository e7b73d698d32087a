// Gather and GatherElements as loop nests over the output dims d0...
//
// Gather (axis a, data rank r, indices rank q): the output is
// data[:a] + indices + data[a+1:]. Data dims before a read loops 0..a-1,
// the axis is data-dependent and read `full` (any row may be picked), the
// dims after it read the loops shifted by q - 1. The indices read loops
// a..a+q-1, elementwise.
// GatherElements: the output has the shape of the indices, read
// elementwise; data is read in place on every dim but the axis, which is
// `full`.

#include "ops/internal/builders.h"

namespace stagecraft::ops::detail {

Nests buildGather(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 2));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectRank(0, 1, kUnbounded, "data"));
    const ir::Shape& data = ctx.inputShape(0);
    const ir::Shape& indices = ctx.inputShape(1);
    SC_ASSIGN_OR_RETURN(int64_t axis, ctx.axisAttr("axis", static_cast<int64_t>(data.size())));
    auto a = static_cast<size_t>(axis);
    ir::Shape out(data.begin(), data.begin() + axis);
    out.insert(out.end(), indices.begin(), indices.end());
    out.insert(out.end(), data.begin() + axis + 1, data.end());
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));

    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    auto shift = static_cast<int>(indices.size()) - 1;
    AccessMap dataMap{0, {}};
    for (size_t j = 0; j < data.size(); ++j)
        dataMap.dims.push_back(j < a    ? loopIndex(static_cast<int>(j))
                               : j == a ? fullIndex()
                                        : loopIndex(static_cast<int>(j) + shift));
    AccessMap indexMap{1, {}};
    for (size_t t = 0; t < indices.size(); ++t)
        indexMap.dims.push_back(loopIndex(static_cast<int>(a + t)));
    nest.inputs.push_back(std::move(dataMap));
    nest.inputs.push_back(std::move(indexMap));
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildGatherElements(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 2));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectRank(0, 1, kUnbounded, "data"));
    const ir::Shape& data = ctx.inputShape(0);
    const ir::Shape& indices = ctx.inputShape(1);
    SC_ASSIGN_OR_RETURN(int64_t axis, ctx.axisAttr("axis", static_cast<int64_t>(data.size())));
    bool fits = indices.size() == data.size();
    for (size_t j = 0; fits && j < data.size(); ++j)
        fits = static_cast<int64_t>(j) == axis || indices[j] <= data[j];
    if (!fits)
        return ctx.error("indices shape " + ir::formatShape(indices) + " does not fit data shape " +
                         ir::formatShape(data));
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, indices));

    LoopNest nest;
    nest.loops = outputLoops(indices);
    nest.outputRank = static_cast<int>(indices.size());
    AccessMap dataMap{0, {}}, indexMap{1, {}};
    for (size_t j = 0; j < data.size(); ++j) {
        dataMap.dims.push_back(static_cast<int64_t>(j) == axis ? fullIndex()
                                                               : loopIndex(static_cast<int>(j)));
        indexMap.dims.push_back(loopIndex(static_cast<int>(j)));
    }
    nest.inputs.push_back(std::move(dataMap));
    nest.inputs.push_back(std::move(indexMap));
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
