// Reductions as loop nests: ReduceMean/Sum/Max/Min/Prod/L1/L2/LogSum/
// LogSumExp/SumSquare and ArgMax/ArgMin.
//
// Loops: the output dims d0.. (parallel), then one reduction loop r<axis>
// per reduced input axis, extent the input dim. Input dim j reads r<j> when
// j is reduced, else the output loop it became (itself with keepdims, the
// next kept position without). With keepdims the reduced output dims have
// extent 1 and nothing reads their loops.
//
// Canonical `axes` lists the reduced dims, sorted; the importer writes every
// dim when the model reduces all of them, and an empty list only for
// noop_with_empty_axes, which reduces nothing (an identity copy).

#include "ops/internal/builders.h"

#include <algorithm>

namespace stagecraft::ops::detail {

namespace {

Status checkAxes(const OpContext& ctx, const std::vector<int64_t>& axes, int64_t rank) {
    for (size_t i = 0; i < axes.size(); ++i) {
        if (axes[i] < 0 || axes[i] >= rank)
            return ctx.error("attribute 'axes' has " + str(axes[i]) + ", expected 0 to " +
                             str(rank - 1) + " (canonical axes are non-negative)");
        if (i > 0 && axes[i] <= axes[i - 1])
            return ctx.error("attribute 'axes' must be sorted without repeats");
    }
    return Status::success();
}

Nests reduceNest(const OpContext& ctx, const std::vector<int64_t>& axes, bool keepdims) {
    const ir::Shape& in = ctx.inputShape(0);
    SC_RETURN_IF_ERROR(checkAxes(ctx, axes, static_cast<int64_t>(in.size())));
    auto reduced = [&](size_t j) {
        return std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(j));
    };
    ir::Shape out;
    for (size_t j = 0; j < in.size(); ++j)
        if (!reduced(j))
            out.push_back(in[j]);
        else if (keepdims)
            out.push_back(1);
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));

    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    AccessMap data{0, {}};
    int nextOutput = 0;
    for (size_t j = 0; j < in.size(); ++j) {
        if (reduced(j)) {
            data.dims.push_back(loopIndex(static_cast<int>(nest.loops.size())));
            nest.loops.push_back(reductionLoop("r" + std::to_string(j), in[j]));
            if (keepdims)
                ++nextOutput;
        } else {
            data.dims.push_back(loopIndex(nextOutput++));
        }
    }
    nest.inputs.push_back(std::move(data));
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace

Nests buildReduce(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ctx.intsAttr("axes"));
    SC_ASSIGN_OR_RETURN(int64_t keepdims, ctx.intAttr("keepdims"));
    return reduceNest(ctx, axes, keepdims != 0);
}

Nests buildArgReduce(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_ASSIGN_OR_RETURN(int64_t axis, ctx.axisAttr("axis", ctx.inputRank(0)));
    SC_ASSIGN_OR_RETURN(int64_t keepdims, ctx.intAttr("keepdims"));
    return reduceNest(ctx, {axis}, keepdims != 0);
}

} // namespace stagecraft::ops::detail
