// Shape rules for ops that only reinterpret the shape: Reshape (0 copies a
// dimension unless allowzero, -1 is inferred), Flatten, Squeeze, Unsqueeze,
// Expand. Their shape-describing inputs are resolved and dropped.

#include "onnx/internal/infer_rules.h"

#include <algorithm>
#include <set>

namespace stagecraft::onnxio {

namespace {

Expected<std::vector<int64_t>> axesFromAttrOrInput(InferContext& ctx) {
    if (ctx.hasInput(1))
        return ctx.intsInput(1, "axes");
    return ctx.attrs().getInts("axes");
}

} // namespace

Status inferReshape(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs data");
    std::vector<int64_t> target = ctx.attrs().getInts("shape");
    if (ctx.hasInput(1)) {
        SC_ASSIGN_OR_RETURN(target, ctx.intsInput(1, "shape"));
    }
    bool allowZero = ctx.attrs().getInt("allowzero", 0) != 0;
    const ir::Shape& in = ctx.shape(0);
    ir::Shape out;
    int inferred = -1;
    int64_t known = 1;
    for (size_t i = 0; i < target.size(); ++i) {
        int64_t dim = target[i];
        if (dim == 0 && !allowZero) {
            if (i >= in.size())
                return ctx.error("shape copies dimension " + std::to_string(i) +
                                 " that the input lacks");
            dim = in[i];
        } else if (dim == -1) {
            if (inferred >= 0)
                return ctx.error("shape has more than one -1");
            inferred = static_cast<int>(i);
            out.push_back(1);
            continue;
        } else if (dim < 0) {
            return ctx.error("shape has a negative dimension " + std::to_string(dim));
        }
        out.push_back(dim);
        if (__builtin_mul_overflow(known, dim, &known))
            return ctx.error("shape " + ir::formatShape(out) + " is too large");
    }
    int64_t total = ir::elementCount(in);
    if (inferred >= 0) {
        if (known == 0 || total % known != 0)
            return ctx.error("cannot reshape " + ir::formatShape(in) + " to " +
                             ir::formatShape(out) + " with -1");
        out[static_cast<size_t>(inferred)] = total / known;
    }
    if (ir::checkedElementCount(out) != total)
        return ctx.error("cannot reshape " + ir::formatShape(in) + " (" + std::to_string(total) +
                         " elements) to " + ir::formatShape(out));
    ctx.keepInputs(1);
    ctx.attrs().erase("allowzero");
    ctx.attrs().set("shape", std::vector<int64_t>(out.begin(), out.end()));
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferFlatten(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    int64_t rank = ctx.rank(0);
    int64_t axis = ctx.attrs().getInt("axis", 1);
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis > rank)
        return ctx.error("axis " + std::to_string(ctx.attrs().getInt("axis", 1)) +
                         " is out of range for rank " + std::to_string(rank));
    const ir::Shape& in = ctx.shape(0);
    int64_t outer = ir::elementCount(ir::Shape(in.begin(), in.begin() + axis));
    int64_t inner = ir::elementCount(ir::Shape(in.begin() + axis, in.end()));
    ctx.attrs().set("axis", axis);
    ctx.setOutput(0, ctx.dtype(0), {outer, inner});
    return Status::success();
}

Status inferSqueeze(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axesFromAttrOrInput(ctx));
    const ir::Shape& in = ctx.shape(0);
    int64_t rank = ctx.rank(0);
    std::set<int64_t> squeezed;
    if (axes.empty()) {
        for (int64_t i = 0; i < rank; ++i)
            if (in[static_cast<size_t>(i)] == 1)
                squeezed.insert(i);
    }
    for (int64_t axis : axes) {
        SC_ASSIGN_OR_RETURN(int64_t a, ctx.normalizeAxis(axis, rank, "axis"));
        if (in[static_cast<size_t>(a)] != 1)
            return ctx.error("cannot squeeze dimension " + std::to_string(a) + " of " +
                             ir::formatShape(in));
        squeezed.insert(a);
    }
    ir::Shape out;
    for (int64_t i = 0; i < rank; ++i)
        if (!squeezed.count(i))
            out.push_back(in[static_cast<size_t>(i)]);
    ctx.keepInputs(1);
    ctx.attrs().set("axes", std::vector<int64_t>(squeezed.begin(), squeezed.end()));
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferUnsqueeze(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, axesFromAttrOrInput(ctx));
    int64_t outRank = ctx.rank(0) + static_cast<int64_t>(axes.size());
    std::set<int64_t> inserted;
    for (int64_t axis : axes) {
        SC_ASSIGN_OR_RETURN(int64_t a, ctx.normalizeAxis(axis, outRank, "axis"));
        if (!inserted.insert(a).second)
            return ctx.error("axis " + std::to_string(axis) + " is repeated");
    }
    ir::Shape out;
    size_t next = 0;
    for (int64_t i = 0; i < outRank; ++i)
        out.push_back(inserted.count(i) ? 1 : ctx.shape(0)[next++]);
    ctx.keepInputs(1);
    ctx.attrs().set("axes", std::vector<int64_t>(inserted.begin(), inserted.end()));
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferExpand(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ctx.intsInput(1, "shape"));
    auto out = broadcastShapes(ctx.shape(0), ir::Shape(shape.begin(), shape.end()));
    if (!out)
        return ctx.error("cannot expand " + ir::formatShape(ctx.shape(0)) + " to " +
                         ir::formatShape(ir::Shape(shape.begin(), shape.end())));
    ctx.keepInputs(1);
    ctx.setOutput(0, ctx.dtype(0), *out);
    return Status::success();
}

} // namespace stagecraft::onnxio
