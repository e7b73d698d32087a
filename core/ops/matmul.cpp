// MatMul and Gemm as loop nests.
//
// MatMul follows numpy: loops b0.., m, n | k. The batch dims of A and B are
// broadcast against the output's batch dims (aligned right, size 1 reads
// index 0, missing leading dims absent). A 1-D A has no m loop and is read
// [k]; a 1-D B has no n loop and is read [k]; both 1-D gives a scalar output
// and the single loop k. A is [.., m, k], B is [.., k, n]: splitting n never
// touches A, splitting m never touches B (match_dim, GraphTurbo §3.1).
//
// Gemm: loops m, n | k; A read [m, k] or [k, m] with transA, B [k, n] or
// [n, k] with transB, C broadcast onto [m, n] (unidirectionally).

#include "ops/internal/builders.h"

namespace stagecraft::ops::detail {

namespace {

/// Maps the batch dims \p in of one operand onto the output batch loops.
std::vector<IndexExpr> batchIndices(const ir::Shape& in, const ir::Shape& batch) {
    std::vector<IndexExpr> dims;
    size_t lead = batch.size() - in.size();
    for (size_t j = 0; j < in.size(); ++j)
        dims.push_back(in[j] == batch[lead + j] ? loopIndex(static_cast<int>(lead + j))
                                                : constantIndex(0));
    return dims;
}

} // namespace

Nests buildMatMul(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 2));
    return buildMatMulAt(ctx, 0, 1);
}

Nests buildMatMulAt(const OpContext& ctx, int slotA, int slotB) {
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectRank(slotA, 1, kUnbounded, "A"));
    SC_RETURN_IF_ERROR(ctx.expectRank(slotB, 1, kUnbounded, "B"));
    const ir::Shape& a = ctx.inputShape(slotA);
    const ir::Shape& b = ctx.inputShape(slotB);
    bool aMatrix = a.size() >= 2, bMatrix = b.size() >= 2;
    int64_t k = a.back();
    if (k != (bMatrix ? b[b.size() - 2] : b[0]))
        return ctx.error("the inner dimensions of A " + ir::formatShape(a) + " and B " +
                         ir::formatShape(b) + " differ");
    ir::Shape batchA(a.begin(), a.end() - (aMatrix ? 2 : 1));
    ir::Shape batchB(b.begin(), b.end() - (bMatrix ? 2 : 1));
    std::optional<ir::Shape> batch = broadcastShapes(batchA, batchB);
    if (!batch)
        return ctx.error("the batch dimensions of A " + ir::formatShape(a) + " and B " +
                         ir::formatShape(b) + " do not broadcast");
    ir::Shape out = *batch;
    if (aMatrix)
        out.push_back(a[a.size() - 2]);
    if (bMatrix)
        out.push_back(b.back());
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));

    LoopNest nest;
    for (size_t i = 0; i < batch->size(); ++i)
        nest.loops.push_back(parallelLoop("b" + std::to_string(i), out[i]));
    auto m = static_cast<int>(batch->size());
    int n = m + (aMatrix ? 1 : 0);
    auto kLoop = static_cast<int>(out.size());
    if (aMatrix)
        nest.loops.push_back(parallelLoop("m", out[static_cast<size_t>(m)]));
    if (bMatrix)
        nest.loops.push_back(parallelLoop("n", out[static_cast<size_t>(n)]));
    nest.loops.push_back(reductionLoop("k", k));
    nest.outputRank = static_cast<int>(out.size());

    AccessMap mapA{slotA, batchIndices(batchA, *batch)};
    if (aMatrix)
        mapA.dims.push_back(loopIndex(m));
    mapA.dims.push_back(loopIndex(kLoop));
    AccessMap mapB{slotB, batchIndices(batchB, *batch)};
    mapB.dims.push_back(loopIndex(kLoop));
    if (bMatrix)
        mapB.dims.push_back(loopIndex(n));
    nest.inputs.push_back(std::move(mapA));
    nest.inputs.push_back(std::move(mapB));
    return std::vector<LoopNest>{std::move(nest)};
}

Nests buildGemm(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(2, 3));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectRank(0, 2, 2, "A"));
    SC_RETURN_IF_ERROR(ctx.expectRank(1, 2, 2, "B"));
    SC_ASSIGN_OR_RETURN(int64_t transA, ctx.intAttr("transA"));
    SC_ASSIGN_OR_RETURN(int64_t transB, ctx.intAttr("transB"));
    const ir::Shape& a = ctx.inputShape(0);
    const ir::Shape& b = ctx.inputShape(1);
    int64_t m = transA ? a[1] : a[0], k = transA ? a[0] : a[1];
    int64_t kB = transB ? b[1] : b[0], n = transB ? b[0] : b[1];
    if (k != kB)
        return ctx.error("the inner dimensions of A " + ir::formatShape(a) + " and B " +
                         ir::formatShape(b) + " differ (transA " + str(transA) + ", transB " +
                         str(transB) + ")");
    ir::Shape out{m, n};
    SC_RETURN_IF_ERROR(ctx.expectOutputShape(0, out));

    LoopNest nest;
    nest.loops = {parallelLoop("m", m), parallelLoop("n", n), reductionLoop("k", k)};
    nest.outputRank = 2;
    nest.inputs.push_back({0, transA ? std::vector{loopIndex(2), loopIndex(0)}
                                     : std::vector{loopIndex(0), loopIndex(2)}});
    nest.inputs.push_back({1, transB ? std::vector{loopIndex(1), loopIndex(2)}
                                     : std::vector{loopIndex(2), loopIndex(1)}});
    if (ctx.hasInput(2)) {
        SC_ASSIGN_OR_RETURN(AccessMap bias, broadcastMap(ctx, 2, out));
        nest.inputs.push_back(std::move(bias));
    }
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
