// Resize as a loop nest: output loops d0.., plus one reduction loop of taps
// t<dim> per resized dim for linear (2 taps) and cubic (4 taps) modes.
//
// A dim with scale 1 is the identity. Otherwise the scale is an exact ratio
// p/q (output per input: the `scales` attribute when it is a fraction with a
// denominator up to 4096, else out/in of the extents) and the coordinate
// transform gives the input coordinate x = (a*o + b) / d exactly:
//   asymmetric                 x = o*q/p
//   half_pixel                 x = (o + 1/2)*q/p - 1/2   (2q*o + q - p) / 2p
//   pytorch_half_pixel         as half_pixel; x = 0 when the output dim is 1
//   tf_half_pixel_for_nearest  x = (o + 1/2)*q/p
//   align_corners              x = o*(in - 1)/(out - 1); 0 when out is 1
// The index is then floor(x) (nearest floor), ceil(x) (nearest ceil),
// round-half-down / round-half-up (nearest round_prefer_floor / _ceil), each
// one floor division; linear reads floor(x) + t for t in {0, 1}, cubic
// floor(x) - 1 + t for t in {0, 1, 2, 3}. These are exact reads, not an
// approximation: ONNX clamps taps outside the input to the border, and the
// border element is read by another tap anyway. The one inexact case is
// nearest with a floor/ceil rounding that falls outside the input at the
// first/last output element (ONNX clamps it, the map reads nothing there).
// half_pixel_symmetric is read as half_pixel: within one element when
// out != in*scale. tf_crop_and_resize depends on a region of interest the
// canonical form does not keep, and an antialiased downscale widens the
// filter by the scale: both read the resized dim `full` (conservative).

#include "ops/internal/builders.h"
#include "support/strings.h"

#include <cmath>
#include <numeric>

namespace stagecraft::ops::detail {

namespace {

struct Ratio {
    int64_t p = 1, q = 1;
};

/// \p scale as p/q with q <= 4096, when it is one (up to rounding noise).
std::optional<Ratio> exactRatio(double scale) {
    for (int64_t q = 1; q <= 4096; ++q) {
        double product = scale * static_cast<double>(q);
        double p = std::round(product);
        if (p >= 1 && std::abs(product - p) <= 1e-9 * product) {
            auto whole = static_cast<int64_t>(p);
            int64_t g = std::gcd(whole, q);
            return Ratio{whole / g, q / g};
        }
    }
    return std::nullopt;
}

/// The input coordinate x = (a*o + b) / d.
struct Coordinate {
    int64_t a = 0, b = 0, d = 1;
};

Expected<Coordinate> coordinate(const OpContext& ctx, const std::string& mode, Ratio r, int64_t in,
                                int64_t out) {
    if (mode == "asymmetric")
        return Coordinate{r.q, 0, r.p};
    if (mode == "half_pixel" || mode == "half_pixel_symmetric" ||
        (mode == "pytorch_half_pixel" && out > 1))
        return Coordinate{2 * r.q, r.q - r.p, 2 * r.p};
    if (mode == "pytorch_half_pixel")
        return Coordinate{0, 0, 1};
    if (mode == "tf_half_pixel_for_nearest")
        return Coordinate{2 * r.q, r.q, 2 * r.p};
    if (mode == "align_corners")
        return out > 1 ? Coordinate{in - 1, 0, out - 1} : Coordinate{0, 0, 1};
    return ctx.error("attribute 'coordinate_transformation_mode' is " + quote(mode) +
                     ", which is not supported");
}

/// floor of the rounded coordinate, as (a*o + b) / d.
Expected<Coordinate> rounded(const OpContext& ctx, const std::string& nearestMode, Coordinate x) {
    if (nearestMode == "floor")
        return x;
    if (nearestMode == "ceil")
        return Coordinate{x.a, x.b + x.d - 1, x.d};
    if (nearestMode == "round_prefer_floor")
        return Coordinate{2 * x.a, 2 * x.b + x.d - 1, 2 * x.d};
    if (nearestMode == "round_prefer_ceil")
        return Coordinate{2 * x.a, 2 * x.b + x.d, 2 * x.d};
    return ctx.error("attribute 'nearest_mode' is " + quote(nearestMode) +
                     ", expected floor, ceil, round_prefer_floor or round_prefer_ceil");
}

/// floor((a*o + b)/d) = floor((a/g*o + floor(b/g)) / (d/g)) with g = gcd(a, d).
Coordinate reduced(Coordinate x) {
    int64_t g = std::gcd(x.a, x.d);
    int64_t b = x.b / g - (x.b % g != 0 && x.b < 0 ? 1 : 0);
    return {x.a / g, b, x.d / g};
}

struct ResizeAttrs {
    std::string mode, transform, nearestMode;
    std::vector<double> scales;
    bool antialias = false;
};

Expected<ResizeAttrs> readAttrs(const OpContext& ctx, int64_t rank) {
    ResizeAttrs attrs;
    SC_ASSIGN_OR_RETURN(attrs.mode, ctx.stringAttr("mode"));
    if (attrs.mode != "nearest" && attrs.mode != "linear" && attrs.mode != "cubic")
        return ctx.error("attribute 'mode' is " + quote(attrs.mode) +
                         ", expected nearest, linear or cubic");
    SC_ASSIGN_OR_RETURN(attrs.transform, ctx.stringAttr("coordinate_transformation_mode"));
    if (attrs.mode == "nearest") {
        SC_ASSIGN_OR_RETURN(attrs.nearestMode, ctx.stringAttr("nearest_mode"));
    }
    SC_ASSIGN_OR_RETURN(attrs.scales, ctx.floatsAttr("scales", rank));
    SC_ASSIGN_OR_RETURN(int64_t antialias, ctx.intAttrOr("antialias", 0));
    attrs.antialias = antialias != 0;
    return attrs;
}

Status checkExtent(const OpContext& ctx, size_t i, int64_t in, int64_t out, double scale) {
    double expected = static_cast<double>(in) * scale;
    double gap = expected - static_cast<double>(out);
    if (!(scale > 0) || gap <= -1e-6 || gap >= 1 + 1e-6)
        return ctx.error("output dim " + str(static_cast<int64_t>(i)) + " is " + str(out) +
                         " but input extent " + str(in) + " times scale " + std::to_string(scale) +
                         " does not give it");
    return Status::success();
}

/// The index of resized dim \p i; linear and cubic modes append their tap loop.
Expected<IndexExpr> resizedIndex(const OpContext& ctx, const ResizeAttrs& attrs, size_t i,
                                 int64_t in, int64_t out, LoopNest& nest) {
    int64_t taps = attrs.mode == "linear" ? 2 : attrs.mode == "cubic" ? 4 : 0;
    if (in < 1 || out < 1)
        return ctx.error("dim " + str(static_cast<int64_t>(i)) + " resizes " + str(in) + " to " +
                         str(out) + ": resizing from or to an empty dim is not supported");
    Ratio r = exactRatio(attrs.scales[i]).value_or(Ratio{out, in});
    auto o = static_cast<int>(i);
    if (r.p == r.q && in == out)
        return loopIndex(o);
    if (attrs.transform == "tf_crop_and_resize" || (attrs.antialias && taps != 0 && r.p < r.q))
        return fullIndex();
    SC_ASSIGN_OR_RETURN(Coordinate x, coordinate(ctx, attrs.transform, r, in, out));
    if (taps == 0) {
        SC_ASSIGN_OR_RETURN(x, rounded(ctx, attrs.nearestMode, x));
    }
    x = reduced(x);
    IndexExpr index = affineIndex(o, x.a, x.b);
    index.div = x.d;
    if (taps != 0) {
        index.terms.push_back({static_cast<int>(nest.loops.size()), x.d, 1, 0});
        if (taps == 4)
            index.offset -= x.d;
        nest.loops.push_back(reductionLoop("t" + std::to_string(i), taps));
    }
    return index;
}

} // namespace

Nests buildResize(const OpContext& ctx) {
    SC_RETURN_IF_ERROR(ctx.expectInputs(1, 1));
    SC_RETURN_IF_ERROR(ctx.expectOutputs(1, 1));
    const ir::Shape& in = ctx.inputShape(0);
    const ir::Shape& out = ctx.outputShape(0);
    SC_ASSIGN_OR_RETURN(ResizeAttrs attrs, readAttrs(ctx, static_cast<int64_t>(in.size())));
    if (out.size() != in.size())
        return ctx.error("output shape " + ir::formatShape(out) + " and input shape " +
                         ir::formatShape(in) + " differ in rank");

    LoopNest nest;
    nest.loops = outputLoops(out);
    nest.outputRank = static_cast<int>(out.size());
    AccessMap map{0, {}};
    for (size_t i = 0; i < in.size(); ++i) {
        SC_RETURN_IF_ERROR(checkExtent(ctx, i, in[i], out[i], attrs.scales[i]));
        SC_ASSIGN_OR_RETURN(IndexExpr index, resizedIndex(ctx, attrs, i, in[i], out[i], nest));
        map.dims.push_back(std::move(index));
    }
    nest.inputs.push_back(std::move(map));
    return std::vector<LoopNest>{std::move(nest)};
}

} // namespace stagecraft::ops::detail
