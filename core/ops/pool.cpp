// Pools as loop nests: a window like a depthwise Conv without weights, so a
// split of a spatial output dim has the same halo as a Conv's (GraphTurbo §3.1).
//
// MaxPool, AveragePool, LpPool: n, c, spatial outputs | kernel taps, and
// X[n, c, o*stride + k*dilation - pad_begin]. With ceil_mode the output may
// have one more window whose taps partly fall past the end: those indices are
// out of range and read nothing. The importer drops a last window that would
// start in the end padding (as ONNX Runtime does); an output with or without
// that drop is accepted. MaxPool's optional Indices output gets the same nest.
//
// GlobalAveragePool, GlobalMaxPool, GlobalLpPool: n, c, size-1 spatial
// outputs | taps over the whole spatial extent; X[n, c, k...].

#include "ops/internal/builders.h"
#include "ops/internal/window.h"

namespace stagecraft::ops::detail {

namespace {

/// Output extent with ceil_mode: the ceiling, minus a last window starting
/// in the end padding; \p actual is accepted when it is the plain ceiling.
int64_t ceilWindowOutput(const Window& w, size_t i, int64_t in, int64_t actual) {
    int64_t span = in + w.padBegin(i) + w.padEnd(i) - w.effectiveKernel(i);
    int64_t ceiling = (span + w.strides[i] - 1) / w.strides[i] + 1;
    if (actual == ceiling)
        return ceiling;
    return (ceiling - 1) * w.strides[i] >= in + w.padBegin(i) ? ceiling - 1 : ceiling;
}

Expected<ir::Shape> poolOutput(const OpContext& ctx, const Window& w, bool ceilMode) {
    const ir::Shape& x = ctx.inputShape(0);
    ir::Shape out{x[0], x[1]};
    for (size_t i = 0; i < w.rank(); ++i) {
        if (!windowOutput(w, i, x[i + 2]))
            return ctx.error("the window does not fit the padded input in spatial dim " + str(i));
        const ir::Shape& actual = ctx.outputShape(0);
        int64_t given = actual.size() == x.size() ? actual[i + 2] : -1;
        out.push_back(ceilMode ? ceilWindowOutput(w, i, x[i + 2], given)
                               : *windowOutput(w, i, x[i + 2]));
    }
    return out;
}

std::vector<LoopDim> poolLoops(const ir::Shape& out, const std::vector<int64_t>& taps) {
    size_t spatial = taps.size();
    std::vector<std::string> outNames = spatialNames(spatial, 'o');
    std::vector<std::string> tapNames = spatialNames(spatial, 'k');
    std::vector<LoopDim> loops{parallelLoop("n", out[0]), parallelLoop("c", out[1])};
    for (size_t i = 0; i < spatial; ++i)
        loops.push_back(parallelLoop(outNames[i], out[i + 2]));
    for (size_t i = 0; i < spatial; ++i)
        loops.push_back(reductionLoop(tapNames[i], taps[i]));
    return loops;
}

} // namespace

Nests buildPool(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 2));
    SC_RETURN_IF_ERROR(ctx.expectRank(0, 3, kUnbounded, "X"));
    size_t spatial = ctx.inputShape(0).size() - 2;
    SC_ASSIGN_OR_RETURN(Window w, readWindow(ctx, spatial));
    SC_ASSIGN_OR_RETURN(int64_t ceilMode, ctx.intAttr("ceil_mode"));
    SC_ASSIGN_OR_RETURN(ir::Shape out, poolOutput(ctx, w, ceilMode != 0));

    std::vector<LoopNest> nests;
    for (int output = 0; output < ctx.outputCount(); ++output) {
        SC_RETURN_IF_ERROR(ctx.expectOutputShape(output, out));
        LoopNest nest;
        nest.loops = poolLoops(out, w.kernel);
        nest.outputRank = static_cast<int>(out.size());
        AccessMap input{0, {loopIndex(0), loopIndex(1)}};
        for (size_t i = 0; i < spatial; ++i) {
            IndexExpr index = affineIndex(static_cast<int>(2 + i), w.strides[i], -w.padBegin(i));
            index.terms.push_back({static_cast<int>(2 + spatial + i), w.dilations[i], 1, 0});
            input.dims.push_back(std::move(index));
        }
        nest.inputs.push_back(std::move(input));
        nests.push_back(std::move(nest));
    }
    return nests;
}

Nests buildGlobalPool(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectRank(0, 3, kUnbounded, "X"));
    const ir::Shape& x = ctx.inputShape(0);
    size_t spatial = x.size() - 2;
    ir::Shape out(x.size(), 1);
    out[0] = x[0];
    out[1] = x[1];
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));

    LoopNest nest;
    nest.loops = poolLoops(out, std::vector<int64_t>(x.begin() + 2, x.end()));
    nest.outputRank = static_cast<int>(out.size());
    AccessMap input{0, {loopIndex(0), loopIndex(1)}};
    for (size_t i = 0; i < spatial; ++i)
        input.dims.push_back(loopIndex(static_cast<int>(2 + spatial + i)));
    nest.inputs.push_back(std::move(input));
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
