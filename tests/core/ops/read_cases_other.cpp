// Brute-force cases for Resize (ONNX's coordinate formulas in floating
// point), reductions, normalizations and broadcasting elementwise ops.

#include "read_cases.h"

#include <algorithm>
#include <cmath>

namespace stagecraft::test {

using ir::Shape;

namespace {

// --- reductions and normalizations ----------------------------------------------------

ReadCase reduceMeanCase(std::string name, Shape in, std::vector<int64_t> axes, bool keepdims) {
    Shape out;
    for (size_t j = 0; j < in.size(); ++j) {
        bool reduced = std::find(axes.begin(), axes.end(), int64_t(j)) != axes.end();
        if (!reduced)
            out.push_back(in[j]);
        else if (keepdims)
            out.push_back(1);
    }
    OpGraph g = OpBuilder("ReduceMean", "mean")
                    .input(in)
                    .output(out)
                    .ints("axes", axes)
                    .i("keepdims", keepdims)
                    .build();
    Reference ref = [=](const Coord& o, const Read& read) {
        forEachIndex(in, [&](const Coord& c) {
            // c contributes to the output element that drops (or zeroes) its reduced dims
            Coord target;
            for (size_t j = 0; j < in.size(); ++j) {
                bool reduced = std::find(axes.begin(), axes.end(), int64_t(j)) != axes.end();
                if (!reduced)
                    target.push_back(c[j]);
                else if (keepdims)
                    target.push_back(0);
            }
            if (target == o)
                read(c);
        });
    };
    return {std::move(name), std::move(g), 0, {{0, ref}}};
}

/// Every input element that agrees with the output element outside \p normalized dims.
Reference sameOutsideRef(Shape in, std::vector<size_t> normalized) {
    return [=](const Coord& o, const Read& read) {
        forEachIndex(in, [&](const Coord& c) {
            for (size_t j = 0; j < in.size(); ++j)
                if (std::find(normalized.begin(), normalized.end(), j) == normalized.end() &&
                    c[j] != o[j])
                    return;
            read(c);
        });
    };
}

ReadCase softmaxCase() {
    OpGraph g = OpBuilder("Softmax", "softmax")
                    .input({2, 3, 4})
                    .output({2, 3, 4})
                    .ints("axes", {2})
                    .build();
    return {"Softmax", std::move(g), 0, {{0, sameOutsideRef({2, 3, 4}, {2})}}};
}

ReadCase layerNormCase() {
    OpGraph g = OpBuilder("LayerNormalization", "ln")
                    .input({2, 3, 4})
                    .input({3, 4})
                    .input({4})
                    .output({2, 3, 4})
                    .i("axis", 1)
                    .f("epsilon", 1e-5)
                    .build();
    return {"LayerNormalization",
            std::move(g),
            0,
            {{0, sameOutsideRef({2, 3, 4}, {1, 2})},
             {1, broadcastRef({3, 4})},
             {2, broadcastRef({4})}}};
}

// --- elementwise -------------------------------------------------------------------------------

ReadCase addCase() {
    OpGraph g = OpBuilder("Add", "add").input({2, 1, 4}).input({3, 1}).output({2, 3, 4}).build();
    return {"Add broadcast",
            std::move(g),
            0,
            {{0, broadcastRef({2, 1, 4})}, {1, broadcastRef({3, 1})}}};
}

ReadCase whereCase() {
    OpGraph g = OpBuilder("Where", "where")
                    .input({3, 1}, ir::DType::Bool)
                    .input({2, 3, 4})
                    .input({4})
                    .output({2, 3, 4})
                    .build();
    return {"Where",
            std::move(g),
            0,
            {{0, broadcastRef({3, 1})}, {1, broadcastRef({2, 3, 4})}, {2, broadcastRef({4})}}};
}

// --- Resize: ONNX's coordinate formulas in floating point ----------------------------------------

/// Reads the cartesian product of per-dim candidate indices (clamped to the
/// input, as ONNX does) for the resized dims; other dims copy.
Reference resizeRef(Shape in, std::vector<double> scales,
                    std::function<std::vector<int64_t>(double x)> taps,
                    std::function<double(int64_t o, double scale)> coordinate) {
    return [=](const Coord& o, const Read& read) {
        Shape counts;
        std::vector<std::vector<int64_t>> picks;
        for (size_t d = 0; d < in.size(); ++d) {
            std::vector<int64_t> p;
            if (scales[d] == 1.0) {
                p = {o[d]};
            } else {
                for (int64_t i : taps(coordinate(o[d], scales[d])))
                    p.push_back(std::clamp<int64_t>(i, 0, in[d] - 1));
            }
            picks.push_back(p);
            counts.push_back(static_cast<int64_t>(p.size()));
        }
        forEachIndex(counts, [&](const Coord& which) {
            Coord c;
            for (size_t d = 0; d < in.size(); ++d)
                c.push_back(picks[d][static_cast<size_t>(which[d])]);
            read(c);
        });
    };
}

ReadCase resizeCase(std::string name, std::string mode, std::string transform, Shape in,
                    std::vector<double> scales) {
    Shape out;
    for (size_t d = 0; d < in.size(); ++d)
        out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(in[d]) * scales[d])));
    OpGraph g = OpBuilder("Resize", "resize")
                    .input(in)
                    .output(out)
                    .s("mode", mode)
                    .s("coordinate_transformation_mode", transform)
                    .s("nearest_mode", "floor")
                    .f("cubic_coeff_a", -0.75)
                    .i("exclude_outside", 0)
                    .f("extrapolation_value", 0.0)
                    .floats("scales", scales)
                    .build();
    std::function<double(int64_t, double)> coordinate = [transform](int64_t o, double scale) {
        double x = static_cast<double>(o);
        return transform == "half_pixel" ? (x + 0.5) / scale - 0.5 : x / scale;
    };
    std::function<std::vector<int64_t>(double)> taps = [mode](double x) {
        auto x0 = static_cast<int64_t>(std::floor(x));
        if (mode == "nearest")
            return std::vector<int64_t>{x0};
        if (mode == "linear")
            return std::vector<int64_t>{x0, x0 + 1};
        return std::vector<int64_t>{x0 - 1, x0, x0 + 1, x0 + 2};
    };
    return {std::move(name), std::move(g), 0, {{0, resizeRef(in, scales, taps, coordinate)}}};
}

} // namespace

std::vector<ReadCase> otherReadCases() {
    std::vector<ReadCase> cases;
    cases.push_back(
        resizeCase("Resize nearest x2", "nearest", "asymmetric", {1, 1, 3, 4}, {1, 1, 2, 2}));
    cases.push_back(
        resizeCase("Resize linear x2", "linear", "half_pixel", {1, 2, 3, 4}, {1, 1, 2, 2}));
    cases.push_back(
        resizeCase("Resize linear x0.5", "linear", "half_pixel", {1, 1, 6, 8}, {1, 1, 0.5, 0.5}));
    cases.push_back(
        resizeCase("Resize cubic x2", "cubic", "asymmetric", {1, 1, 4, 3}, {1, 1, 2, 2}));
    cases.push_back(reduceMeanCase("ReduceMean keepdims 0", {2, 3, 4}, {1}, false));
    cases.push_back(reduceMeanCase("ReduceMean keepdims 1", {2, 3, 4}, {0, 2}, true));
    cases.push_back(softmaxCase());
    cases.push_back(layerNormCase());
    cases.push_back(addCase());
    cases.push_back(whereCase());
    return cases;
}

} // namespace stagecraft::test
