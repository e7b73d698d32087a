// Shape rules for data-movement ops. Slice parameters are resolved per ONNX's
// clamping rules into one start/end/step per dimension; Split sizes, Pad
// amounts and Tile repeats become attributes.

#include "onnx/internal/infer_rules.h"

#include <algorithm>
#include <climits>
#include <numeric>

namespace stagecraft::onnxio {

namespace {

Status needInput(InferContext& ctx, int i, const char* what) {
    if (!ctx.hasInput(i))
        return ctx.error(std::string("needs ") + what);
    return Status::success();
}

int64_t ceilDiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

} // namespace

Status inferTranspose(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInput(ctx, 0, "an input"));
    int64_t rank = ctx.rank(0);
    std::vector<int64_t> perm = ctx.attrs().getInts("perm");
    if (perm.empty())
        for (int64_t i = rank - 1; i >= 0; --i)
            perm.push_back(i);
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int64_t> identity(static_cast<size_t>(rank));
    std::iota(identity.begin(), identity.end(), 0);
    if (sorted != identity)
        return ctx.error("perm is not a permutation of the " + std::to_string(rank) +
                         " dimensions");
    ir::Shape out;
    for (int64_t p : perm)
        out.push_back(ctx.shape(0)[static_cast<size_t>(p)]);
    ctx.attrs().set("perm", perm);
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferConcat(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInput(ctx, 0, "an input"));
    SC_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.normalizeAxis(ctx.attrs().getInt("axis", 0), ctx.rank(0), "axis"));
    ir::Shape out = ctx.shape(0);
    out[static_cast<size_t>(axis)] = 0;
    for (int i = 0; i < ctx.inputCount(); ++i) {
        SC_RETURN_IF_ERROR(needInput(ctx, i, "every input"));
        const ir::Shape& in = ctx.shape(i);
        for (size_t d = 0; d < out.size(); ++d)
            if (in.size() != out.size() || (static_cast<int64_t>(d) != axis && in[d] != out[d]))
                return ctx.error("input " + std::to_string(i) + " " + ir::formatShape(in) +
                                 " does not match input 0 " + ir::formatShape(ctx.shape(0)) +
                                 " outside axis " + std::to_string(axis));
        out[static_cast<size_t>(axis)] += in[static_cast<size_t>(axis)];
    }
    ctx.attrs().set("axis", axis);
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferSplit(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInput(ctx, 0, "an input"));
    SC_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.normalizeAxis(ctx.attrs().getInt("axis", 0), ctx.rank(0), "axis"));
    int64_t extent = ctx.shape(0)[static_cast<size_t>(axis)];
    std::vector<int64_t> sizes = ctx.attrs().getInts("split");
    if (ctx.hasInput(1)) {
        SC_ASSIGN_OR_RETURN(sizes, ctx.intsInput(1, "split"));
    }
    int64_t parts = ctx.outputCount();
    if (sizes.empty()) {
        int64_t chunk = ceilDiv(extent, parts);
        for (int64_t i = 0; i < parts; ++i)
            sizes.push_back(std::max<int64_t>(0, std::min(chunk, extent - i * chunk)));
    }
    if (static_cast<int64_t>(sizes.size()) != parts ||
        std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) != extent ||
        std::any_of(sizes.begin(), sizes.end(), [](int64_t s) { return s < 0; }))
        return ctx.error("split sizes do not divide dimension " + std::to_string(axis) + " (" +
                         std::to_string(extent) + ") into " + std::to_string(parts) + " outputs");
    for (int64_t i = 0; i < parts; ++i) {
        ir::Shape out = ctx.shape(0);
        out[static_cast<size_t>(axis)] = sizes[static_cast<size_t>(i)];
        ctx.setOutput(static_cast<int>(i), ctx.dtype(0), out);
    }
    ctx.keepInputs(1);
    ctx.attrs().erase("num_outputs");
    ctx.attrs().set("axis", axis);
    ctx.attrs().set("split", sizes);
    return Status::success();
}

namespace {

struct SliceParams {
    std::vector<int64_t> starts, ends, axes, steps;
};

Expected<SliceParams> readSlice(InferContext& ctx) {
    SliceParams p;
    if (ctx.opset() < 10) {
        p.starts = ctx.attrs().getInts("starts");
        p.ends = ctx.attrs().getInts("ends");
        p.axes = ctx.attrs().getInts("axes");
    } else {
        SC_ASSIGN_OR_RETURN(p.starts, ctx.intsInput(1, "starts"));
        SC_ASSIGN_OR_RETURN(p.ends, ctx.intsInput(2, "ends"));
        if (ctx.hasInput(3)) {
            SC_ASSIGN_OR_RETURN(p.axes, ctx.intsInput(3, "axes"));
        }
        if (ctx.hasInput(4)) {
            SC_ASSIGN_OR_RETURN(p.steps, ctx.intsInput(4, "steps"));
        }
    }
    if (p.axes.empty())
        for (size_t i = 0; i < p.starts.size(); ++i)
            p.axes.push_back(static_cast<int64_t>(i));
    if (p.steps.empty())
        p.steps.assign(p.starts.size(), 1);
    if (p.ends.size() != p.starts.size() || p.axes.size() != p.starts.size() ||
        p.steps.size() != p.starts.size())
        return ctx.error("starts, ends, axes and steps differ in length");
    return p;
}

} // namespace

Status inferSlice(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInput(ctx, 0, "data"));
    SC_ASSIGN_OR_RETURN(SliceParams p, readSlice(ctx));
    const ir::Shape& in = ctx.shape(0);
    std::vector<int64_t> starts(in.size(), 0), ends(in.begin(), in.end()), steps(in.size(), 1);
    ir::Shape out = in;
    for (size_t i = 0; i < p.axes.size(); ++i) {
        SC_ASSIGN_OR_RETURN(int64_t axis, ctx.normalizeAxis(p.axes[i], ctx.rank(0), "axis"));
        auto a = static_cast<size_t>(axis);
        int64_t dim = in[a], step = p.steps[i];
        if (step == 0 || step == INT64_MIN)
            return ctx.error("bad step " + std::to_string(step) + " on axis " +
                             std::to_string(axis));
        int64_t start = p.starts[i] < 0 ? std::max<int64_t>(p.starts[i], -dim) + dim : p.starts[i];
        int64_t end = p.ends[i] < 0 ? std::max<int64_t>(p.ends[i], -dim - 1) + dim : p.ends[i];
        if (step > 0) {
            start = std::clamp<int64_t>(start, 0, dim);
            end = std::clamp<int64_t>(end, 0, dim);
            out[a] = end > start ? ceilDiv(end - start, step) : 0;
        } else {
            start = std::clamp<int64_t>(start, 0, dim - 1);
            end = std::clamp<int64_t>(end, -1, dim - 1);
            out[a] = start > end ? ceilDiv(start - end, -step) : 0;
        }
        starts[a] = start;
        ends[a] = end;
        steps[a] = step;
    }
    ctx.keepInputs(1);
    ctx.attrs().erase("axes");
    ctx.attrs().set("starts", starts);
    ctx.attrs().set("ends", ends);
    ctx.attrs().set("steps", steps);
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferPad(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInput(ctx, 0, "data"));
    int64_t rank = ctx.rank(0);
    std::vector<int64_t> pads = ctx.attrs().getInts("pads");
    double value = ctx.attrs().getFloat("value", 0.0);
    std::string mode = ctx.attrs().getString("mode", "constant");
    // A constant_value computed at run time decides no shape: it stays an
    // input (slot 2), read once by the kernel.
    bool runtimeValue = false;
    if (ctx.opset() >= 11) {
        SC_ASSIGN_OR_RETURN(pads, ctx.intsInput(1, "pads"));
        if (ctx.hasInput(2)) {
            const ir::ConstTensor* v = ctx.value(2);
            if (v != nullptr && v->elementCount() > 0)
                value = v->toDoubles()[0];
            runtimeValue = v == nullptr && mode == "constant";
            if (runtimeValue && ir::elementCount(ctx.shape(2)) != 1)
                return ctx.error("constant_value (input 2) must have one element");
        }
        if (ctx.hasInput(3)) { // opset 18: pads cover only these axes
            SC_ASSIGN_OR_RETURN(auto axes, ctx.intsInput(3, "axes"));
            std::vector<int64_t> full(static_cast<size_t>(2 * rank), 0);
            for (size_t i = 0; i < axes.size() && 2 * axes.size() == pads.size(); ++i) {
                SC_ASSIGN_OR_RETURN(int64_t a, ctx.normalizeAxis(axes[i], rank, "axis"));
                full[static_cast<size_t>(a)] = pads[i];
                full[static_cast<size_t>(a + rank)] = pads[i + axes.size()];
            }
            pads = full;
        }
    }
    if (static_cast<int64_t>(pads.size()) != 2 * rank)
        return ctx.error("pads must have " + std::to_string(2 * rank) + " values");
    ir::Shape out = ctx.shape(0);
    for (int64_t i = 0; i < rank; ++i) {
        out[static_cast<size_t>(i)] +=
            pads[static_cast<size_t>(i)] + pads[static_cast<size_t>(i + rank)];
        if (out[static_cast<size_t>(i)] < 0)
            return ctx.error("pads remove more than dimension " + std::to_string(i) + " holds");
    }
    if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
        return ctx.error("unknown mode " + mode);
    ctx.keepInputs(runtimeValue ? 3 : 1);
    if (runtimeValue)
        ctx.dropInput(1);
    ctx.attrs().erase("paddings");
    ctx.attrs().set("pads", pads);
    ctx.attrs().set("mode", mode);
    ctx.attrs().set("value", value);
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferTile(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInput(ctx, 0, "an input"));
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> repeats, ctx.intsInput(1, "repeats"));
    if (static_cast<int64_t>(repeats.size()) != ctx.rank(0))
        return ctx.error("repeats must have one value per dimension");
    ir::Shape out = ctx.shape(0);
    for (size_t i = 0; i < out.size(); ++i) {
        if (repeats[i] < 0 || __builtin_mul_overflow(out[i], repeats[i], &out[i]))
            return ctx.error("bad repeats");
    }
    ctx.keepInputs(1);
    ctx.attrs().set("repeats", repeats);
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferGather(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInput(ctx, 1, "data and indices"));
    SC_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.normalizeAxis(ctx.attrs().getInt("axis", 0), ctx.rank(0), "axis"));
    const ir::Shape& data = ctx.shape(0);
    ir::Shape out(data.begin(), data.begin() + axis);
    out.insert(out.end(), ctx.shape(1).begin(), ctx.shape(1).end());
    out.insert(out.end(), data.begin() + axis + 1, data.end());
    ctx.attrs().set("axis", axis);
    ctx.setOutput(0, ctx.dtype(0), out);
    return Status::success();
}

Status inferGatherElements(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInput(ctx, 1, "data and indices"));
    if (ctx.rank(0) != ctx.rank(1))
        return ctx.error("data and indices must have the same rank");
    SC_ASSIGN_OR_RETURN(int64_t axis,
                        ctx.normalizeAxis(ctx.attrs().getInt("axis", 0), ctx.rank(0), "axis"));
    ctx.attrs().set("axis", axis);
    ctx.setOutput(0, ctx.dtype(0), ctx.shape(1));
    return Status::success();
}

Status inferDepthToSpace(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInput(ctx, 0, "an input"));
    int64_t b = ctx.attrs().getInt("blocksize", 0);
    const ir::Shape& in = ctx.shape(0);
    if (in.size() != 4 || b < 1 || in[1] % (b * b) != 0)
        return ctx.error("needs a 4-D input whose channels divide by blocksize^2");
    ctx.attrs().set("mode", ctx.attrs().getString("mode", "DCR"));
    ctx.setOutput(0, ctx.dtype(0), {in[0], in[1] / (b * b), in[2] * b, in[3] * b});
    return Status::success();
}

Status inferSpaceToDepth(InferContext& ctx) {
    SC_RETURN_IF_ERROR(needInput(ctx, 0, "an input"));
    int64_t b = ctx.attrs().getInt("blocksize", 0);
    const ir::Shape& in = ctx.shape(0);
    if (in.size() != 4 || b < 1 || in[2] % b != 0 || in[3] % b != 0)
        return ctx.error("needs a 4-D input whose spatial dims divide by blocksize");
    ctx.setOutput(0, ctx.dtype(0), {in[0], in[1] * b * b, in[2] / b, in[3] / b});
    return Status::success();
}

} // namespace stagecraft::onnxio
