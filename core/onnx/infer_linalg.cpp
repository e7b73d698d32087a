// Shape rules for MatMul (numpy matmul: batch broadcasting, 1-D operands)
// and Gemm (transposes, C broadcast to [M, N]).

#include "onnx/internal/infer_rules.h"

namespace stagecraft::onnxio {

Status inferMatMul(InferContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1))
        return ctx.error("needs two inputs");
    return inferMatMulAt(ctx, 0, 1, ctx.dtype(0));
}

Status inferMatMulAt(InferContext& ctx, int slotA, int slotB, ir::DType type) {
    ir::Shape a = ctx.shape(slotA), b = ctx.shape(slotB);
    if (a.empty() || b.empty())
        return ctx.error("operands must not be scalars");
    bool vectorA = a.size() == 1, vectorB = b.size() == 1;
    if (vectorA)
        a.insert(a.begin(), 1);
    if (vectorB)
        b.push_back(1);
    if (a.back() != b[b.size() - 2])
        return ctx.error("inner dimensions differ: " + ir::formatShape(ctx.shape(slotA)) + " x " +
                         ir::formatShape(ctx.shape(slotB)));
    auto batch =
        broadcastShapes(ir::Shape(a.begin(), a.end() - 2), ir::Shape(b.begin(), b.end() - 2));
    if (!batch)
        return ctx.error("batch dimensions do not broadcast: " + ir::formatShape(ctx.shape(slotA)) +
                         " x " + ir::formatShape(ctx.shape(slotB)));
    ir::Shape out = *batch;
    if (!vectorA)
        out.push_back(a[a.size() - 2]);
    if (!vectorB)
        out.push_back(b.back());
    ctx.setOutput(0, type, out);
    return Status::success();
}

Status inferGemm(InferContext& ctx) {
    if (!ctx.hasInput(0) || !ctx.hasInput(1) || ctx.rank(0) != 2 || ctx.rank(1) != 2)
        return ctx.error("A and B must be matrices");
    bool transA = ctx.attrs().getInt("transA", 0) != 0;
    bool transB = ctx.attrs().getInt("transB", 0) != 0;
    const ir::Shape& a = ctx.shape(0);
    const ir::Shape& b = ctx.shape(1);
    int64_t m = transA ? a[1] : a[0], k = transA ? a[0] : a[1];
    int64_t kb = transB ? b[1] : b[0], n = transB ? b[0] : b[1];
    if (k != kb)
        return ctx.error("inner dimensions differ: A " + ir::formatShape(a) + ", B " +
                         ir::formatShape(b));
    if (ctx.hasInput(2)) {
        auto combined = broadcastShapes(ctx.shape(2), {m, n});
        if (!combined || *combined != ir::Shape{m, n})
            return ctx.error("C " + ir::formatShape(ctx.shape(2)) + " does not broadcast to " +
                             ir::formatShape({m, n}));
    }
    ctx.attrs().set("transA", int64_t{transA});
    ctx.attrs().set("transB", int64_t{transB});
    ctx.attrs().set("alpha", ctx.attrs().getFloat("alpha", 1.0));
    ctx.attrs().set("beta", ctx.attrs().getFloat("beta", 1.0));
    ctx.attrs().erase("broadcast");
    ctx.setOutput(0, ctx.dtype(0), {m, n});
    return Status::success();
}

} // namespace stagecraft::onnxio
