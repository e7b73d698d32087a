// GridSample as a loop nest over its output (N, C, D1..Dr): X is read in
// place on N and C and `full` on its spatial dims (the grid's values choose
// the pixels), the grid on N and the output's spatial dims with its last
// dim (the r coordinates) `full`. Like Resize it is injective: the
// interpolation weights are arithmetic on the coordinates, counted as data
// movement (ops/cost.cpp).

#include "ops/internal/builders.h"

namespace stagecraft::ops::detail {

Nests buildGridSample(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 2));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& x = ctx.inputShape(0);
    const ir::Shape& grid = ctx.inputShape(1);
    if (x.size() < 3 || grid.size() != x.size())
        return ctx.error("X " + ir::formatShape(x) + " and grid " + ir::formatShape(grid) +
                         " must have one rank of at least 3");
    ir::Shape out = {x[0], x[1]};
    out.insert(out.end(), grid.begin() + 1, grid.end() - 1);
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));
    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    AccessMap xMap{0, {loopIndex(0), loopIndex(1)}};
    AccessMap gridMap{1, {loopIndex(0)}};
    for (size_t j = 2; j < x.size(); ++j) {
        xMap.dims.push_back(fullIndex());
        gridMap.dims.push_back(loopIndex(static_cast<int>(j)));
    }
    gridMap.dims.push_back(fullIndex());
    nest.inputs.push_back(std::move(xMap));
    nest.inputs.push_back(std::move(gridMap));
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
