// Shape rules for ops whose outputs are known at import time because shapes
// are static: Shape, Size, ConstantOfShape, Range, EyeLike. Their values feed the
// shape computations of later ops.

#include "onnx/internal/infer_rules.h"
#include "onnx/onnx_types.h"

#include <algorithm>
#include <cmath>

namespace stagecraft::onnxio {

namespace {

/// Values up to this many elements are computed at import time.
constexpr int64_t kEagerElements = 1 << 16;

} // namespace

Status inferShape(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    int64_t rank = ctx.rank(0);
    int64_t start = ctx.attrs().getInt("start", 0), end = ctx.attrs().getInt("end", rank);
    start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
    end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
    std::vector<int64_t> dims;
    for (int64_t i = start; i < end; ++i)
        dims.push_back(ctx.shape(0)[static_cast<size_t>(i)]);
    ir::Shape shape{static_cast<int64_t>(dims.size())};
    ctx.setOutput(0, ir::DType::Int64, shape);
    ctx.setOutputValue(0, ir::ConstTensor::fromInt64s(ir::DType::Int64, shape, dims));
    return Status::success();
}

Status inferSize(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    ctx.setOutput(0, ir::DType::Int64, {});
    ctx.setOutputValue(
        0, ir::ConstTensor::fromInt64s(ir::DType::Int64, {},
                                       std::vector<int64_t>{ir::elementCount(ctx.shape(0))}));
    return Status::success();
}

Status inferConstantOfShape(InferContext& ctx) {
    SC_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ctx.intsInput(0, "shape"));
    ir::Shape shape(dims.begin(), dims.end());
    auto count = ir::checkedElementCount(shape);
    if (!count)
        return ctx.error("bad shape " + ir::formatShape(shape));
    const ir::ConstTensor* fill = ctx.attrs().getTensor("value");
    ir::DType dtype = fill != nullptr ? fill->dtype() : ir::DType::Float32;
    double value = fill != nullptr && fill->elementCount() > 0 ? fill->toDoubles()[0] : 0.0;
    ctx.setOutput(0, dtype, shape);
    if (*count <= kEagerElements)
        ctx.setOutputValue(
            0, ir::ConstTensor::fromDoubles(
                   dtype, shape, std::vector<double>(static_cast<size_t>(*count), value)));
    return Status::success();
}

Status inferRange(InferContext& ctx) {
    SC_ASSIGN_OR_RETURN(auto start, ctx.floatsInput(0, "start"));
    SC_ASSIGN_OR_RETURN(auto limit, ctx.floatsInput(1, "limit"));
    SC_ASSIGN_OR_RETURN(auto delta, ctx.floatsInput(2, "delta"));
    if (start.size() != 1 || limit.size() != 1 || delta.size() != 1 || delta[0] == 0.0)
        return ctx.error("start, limit and delta must be scalars and delta non-zero");
    double steps = std::ceil((limit[0] - start[0]) / delta[0]);
    auto count = static_cast<int64_t>(std::max(0.0, steps));
    if (count > kEagerElements)
        return ctx.error("ranges longer than " + std::to_string(kEagerElements) +
                         " are not supported");
    std::vector<double> values;
    for (int64_t i = 0; i < count; ++i)
        values.push_back(start[0] + static_cast<double>(i) * delta[0]);
    ir::DType dtype = ctx.dtype(0);
    ctx.setOutput(0, dtype, {count});
    ctx.setOutputValue(0, ir::ConstTensor::fromDoubles(dtype, {count}, values));
    return Status::success();
}

Status inferEyeLike(InferContext& ctx) {
    if (!ctx.hasInput(0))
        return ctx.error("needs an input");
    const ir::Shape shape = ctx.shape(0);
    if (shape.size() != 2)
        return ctx.error("input must be 2-D, not " + ir::formatShape(shape));
    ir::DType dtype = ctx.dtype(0);
    if (ctx.attrs().has("dtype"))
        dtype = fromOnnxType(static_cast<int32_t>(ctx.attrs().getInt("dtype", 0)));
    if (dtype == ir::DType::Undefined || ir::dtypeSize(dtype) == 0)
        return ctx.error("unsupported dtype");
    int64_t count = ir::elementCount(shape);
    if (count > kEagerElements)
        return ctx.error("its " + std::to_string(count) +
                         " elements are more than Stagecraft computes at import (65536)");
    int64_t k = ctx.attrs().getInt("k", 0);
    std::vector<double> values(static_cast<size_t>(count), 0.0);
    for (int64_t i = 0; i < shape[0]; ++i)
        if (i + k >= 0 && i + k < shape[1])
            values[static_cast<size_t>(i * shape[1] + i + k)] = 1.0;
    ctx.setOutput(0, dtype, shape);
    ctx.setOutputValue(0, ir::ConstTensor::fromDoubles(dtype, shape, values));
    return Status::success();
}

} // namespace stagecraft::onnxio
