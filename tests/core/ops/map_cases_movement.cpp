// Exact maps of reshapes (blocks with div/mod), Transpose, Concat, Split,
// Slice, Pad, Tile, Expand, gathers, DepthToSpace, SpaceToDepth, Resize, TopK
// and the opaque fallback.

#include "map_cases.h"

namespace stagecraft::test {

using ir::Shape;

namespace {

OpGraph resize(std::string mode, std::string transform, std::string nearest, Shape in, Shape out,
               std::vector<double> scales) {
    return OpBuilder("Resize")
        .input(in)
        .output(out)
        .s("mode", mode)
        .s("coordinate_transformation_mode", transform)
        .s("nearest_mode", nearest)
        .floats("scales", scales)
        .build();
}

} // namespace

std::vector<MapCase> movementMapCases() {
    std::vector<MapCase> c;
    c.push_back({"Reshape non-aligned",
                 unaryOp("Reshape", {6, 4}, {4, 6}),
                 0,
                 "d0 d1",
                 {{0, "(6*d0 + d1)/4, (6*d0 + d1) % 4"}},
                 ""});
    c.push_back({"Reshape merge",
                 unaryOp("Reshape", {2, 3, 4}, {6, 4}),
                 0,
                 "d0 d1",
                 {{0, "d0/3, d0 % 3, d1"}},
                 ""});
    c.push_back({"Reshape split",
                 unaryOp("Reshape", {24}, {2, 3, 4}),
                 0,
                 "d0 d1 d2",
                 {{0, "12*d0 + 4*d1 + d2"}},
                 ""});
    c.push_back({"Reshape size-1 dims",
                 unaryOp("Reshape", {2, 1, 6}, {1, 2, 3, 2}),
                 0,
                 "d0 d1 d2 d3",
                 {{0, "d1, 0, 2*d2 + d3"}},
                 ""});
    c.push_back({"Reshape three-way",
                 unaryOp("Reshape", {4, 6, 5}, {3, 8, 5}),
                 0,
                 "d0 d1 d2",
                 {{0, "(8*d0 + d1)/6, (8*d0 + d1) % 6, d2"}},
                 ""});
    c.push_back(
        {"Transpose",
         OpBuilder("Transpose").input({2, 3, 4}).output({4, 2, 3}).ints("perm", {2, 0, 1}).build(),
         0,
         "d0 d1 d2",
         {{0, "d1, d2, d0"}},
         ""});
    c.push_back({"Concat",
                 OpBuilder("Concat")
                     .input({2, 3})
                     .input({2, 1})
                     .input({2, 4})
                     .output({2, 8})
                     .i("axis", 1)
                     .build(),
                 0,
                 "d0 d1",
                 {{0, "d0, d1"}, {1, "d0, d1 - 3"}, {2, "d0, d1 - 4"}},
                 ""});
    c.push_back({"Split output 2",
                 OpBuilder("Split")
                     .input({2, 9})
                     .output({2, 2})
                     .output({2, 3})
                     .output({2, 4})
                     .i("axis", 1)
                     .ints("split", {2, 3, 4})
                     .build(),
                 2,
                 "d0 d1",
                 {{0, "d0, d1 + 5"}},
                 ""});
    c.push_back({"Slice",
                 OpBuilder("Slice")
                     .input({5, 8, 6, 5})
                     .output({2, 4, 6, 3})
                     .ints("starts", {1, 7, 0, 4})
                     .ints("ends", {4, -1, 6, 1})
                     .ints("steps", {2, -2, 1, -1})
                     .build(),
                 0,
                 "d0 d1 d2 d3",
                 {{0, "2*d0 + 1, -2*d1 + 7, d2, -d3 + 4"}},
                 ""});
    c.push_back({"Pad constant",
                 OpBuilder("Pad")
                     .input({2, 3})
                     .output({5, 4})
                     .ints("pads", {1, 0, 2, 1})
                     .s("mode", "constant")
                     .f("value", 0)
                     .build(),
                 0,
                 "d0 d1",
                 {{0, "d0 - 1, d1"}},
                 ""});
    c.push_back({"Pad reflect",
                 OpBuilder("Pad")
                     .input({4, 3})
                     .output({7, 3})
                     .ints("pads", {1, 0, 2, 0})
                     .s("mode", "reflect")
                     .f("value", 0)
                     .build(),
                 0,
                 "d0 d1",
                 {{0, "all, d1"}},
                 ""});
    c.push_back(
        {"Tile",
         OpBuilder("Tile").input({2, 1, 3}).output({4, 3, 3}).ints("repeats", {2, 3, 1}).build(),
         0,
         "d0 d1 d2",
         {{0, "d0 % 2, 0, d2"}},
         ""});
    c.push_back(
        {"Expand", unaryOp("Expand", {3, 1}, {2, 3, 4}), 0, "d0 d1 d2", {{0, "d1, 0"}}, ""});
    c.push_back({"Gather axis 1",
                 OpBuilder("Gather")
                     .input({3, 5, 4})
                     .input({2, 2}, ir::DType::Int64)
                     .output({3, 2, 2, 4})
                     .i("axis", 1)
                     .build(),
                 0,
                 "d0 d1 d2 d3",
                 {{0, "d0, all, d3"}, {1, "d1, d2"}},
                 ""});
    c.push_back({"GatherElements",
                 OpBuilder("GatherElements")
                     .input({4, 3})
                     .input({2, 3}, ir::DType::Int64)
                     .output({2, 3})
                     .i("axis", 0)
                     .build(),
                 0,
                 "d0 d1",
                 {{0, "all, d1"}, {1, "d0, d1"}},
                 ""});
    c.push_back({"DepthToSpace DCR",
                 OpBuilder("DepthToSpace")
                     .input({1, 8, 2, 3})
                     .output({1, 2, 4, 6})
                     .i("blocksize", 2)
                     .s("mode", "DCR")
                     .build(),
                 0,
                 "d0 d1 d2 d3",
                 {{0, "d0, (d2 % 2)*4 + (d3 % 2)*2 + d1, d2/2, d3/2"}},
                 ""});
    c.push_back({"DepthToSpace CRD",
                 OpBuilder("DepthToSpace")
                     .input({1, 8, 2, 3})
                     .output({1, 2, 4, 6})
                     .i("blocksize", 2)
                     .s("mode", "CRD")
                     .build(),
                 0,
                 "d0 d1 d2 d3",
                 {{0, "d0, 4*d1 + (d2 % 2)*2 + d3 % 2, d2/2, d3/2"}},
                 ""});
    c.push_back({"SpaceToDepth",
                 OpBuilder("SpaceToDepth")
                     .input({1, 3, 4, 6})
                     .output({1, 12, 2, 3})
                     .i("blocksize", 2)
                     .build(),
                 0,
                 "d0 d1 d2 d3",
                 {{0, "d0, d1 % 3, 2*d2 + d1/6, 2*d3 + d1/3 % 2"}},
                 ""});
    c.push_back({"Resize nearest asymmetric",
                 resize("nearest", "asymmetric", "floor", {1, 1, 3, 4}, {1, 1, 6, 8}, {1, 1, 2, 2}),
                 0,
                 "d0 d1 d2 d3",
                 {{0, "d0, d1, d2/2, d3/2"}},
                 ""});
    c.push_back({"Resize nearest half_pixel round_prefer_floor",
                 resize("nearest", "half_pixel", "round_prefer_floor", {1, 1, 3, 4}, {1, 1, 6, 8},
                        {1, 1, 2, 2}),
                 0,
                 "d0 d1 d2 d3",
                 {{0, "d0, d1, d2/2, d3/2"}},
                 ""});
    c.push_back({"Resize linear half_pixel",
                 resize("linear", "half_pixel", "floor", {1, 2, 3, 4}, {1, 2, 6, 8}, {1, 1, 2, 2}),
                 0,
                 "d0 d1 d2 d3 | t2 t3",
                 {{0, "d0, d1, (d2 + 2*t2 - 1)/2, (d3 + 2*t3 - 1)/2"}},
                 ""});
    c.push_back({"Resize linear align_corners",
                 resize("linear", "align_corners", "floor", {1, 1, 3, 3}, {1, 1, 5, 5},
                        {1, 1, 5.0 / 3, 5.0 / 3}),
                 0,
                 "d0 d1 d2 d3 | t2 t3",
                 {{0, "d0, d1, (d2 + 2*t2)/2, (d3 + 2*t3)/2"}},
                 ""});
    c.push_back({"Resize cubic asymmetric",
                 resize("cubic", "asymmetric", "floor", {1, 1, 4, 3}, {1, 1, 8, 6}, {1, 1, 2, 2}),
                 0,
                 "d0 d1 d2 d3 | t2 t3",
                 {{0, "d0, d1, (d2 + 2*t2 - 2)/2, (d3 + 2*t3 - 2)/2"}},
                 ""});
    c.push_back(
        {"Resize tf_crop_and_resize",
         resize("linear", "tf_crop_and_resize", "floor", {1, 1, 4, 4}, {1, 1, 8, 8}, {1, 1, 2, 2}),
         0,
         "d0 d1 d2 d3",
         {{0, "d0, d1, all, all"}},
         ""});
    c.push_back({"TopK indices",
                 OpBuilder("TopK")
                     .input({2, 5})
                     .output({2, 3})
                     .output({2, 3}, ir::DType::Int64)
                     .i("axis", 1)
                     .i("k", 3)
                     .i("largest", 1)
                     .i("sorted", 1)
                     .build(),
                 1,
                 "d0 d1",
                 {{0, "d0, all"}},
                 "d1"});
    c.push_back({"unknown op",
                 OpBuilder("NonMaxSuppression").input({2, 3}).input({4}).output({5}).build(),
                 0,
                 "d0",
                 {{0, "all, all"}, {1, "all"}},
                 "d0"});
    c.push_back({"non-default domain",
                 OpBuilder("Gelu").domain("com.microsoft").input({2, 3}).output({2, 3}).build(),
                 0,
                 "d0 d1",
                 {{0, "all, all"}},
                 "d0 d1"});
    return c;
}

} // namespace stagecraft::test
