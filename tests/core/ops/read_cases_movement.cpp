// Brute-force cases for data movement: reshapes by flat-index equality,
// Transpose, Concat, Split, Slice, Pad, Tile, Expand, Gather, and ONNX's
// reshape-transpose-reshape statement of DepthToSpace and SpaceToDepth.

#include "read_cases.h"

namespace stagecraft::test {

using ir::Shape;

namespace {

// --- reshapes ------------------------------------------------------------------------------------

ReadCase reshapeCase(std::string type, std::string name, Shape in, Shape out) {
    OpGraph g = OpBuilder(type, "reshape").input(in).output(out).build();
    return {std::move(name), std::move(g), 0, {{0, sameFlatRef(in, out)}}};
}

// --- data movement -------------------------------------------------------------------------------

ReadCase transposeCase() {
    OpGraph g = OpBuilder("Transpose", "t")
                    .input({2, 3, 4})
                    .output({4, 2, 3})
                    .ints("perm", {2, 0, 1})
                    .build();
    // out[i][j][k] = in[j][k][i]
    return {"Transpose", std::move(g), 0, {{0, pickRef([](const Coord& o) {
                                                return Coord{o[1], o[2], o[0]};
                                            })}}};
}

ReadCase concatCase() {
    OpGraph g = OpBuilder("Concat", "concat")
                    .input({2, 3})
                    .input({2, 1})
                    .input({2, 4})
                    .output({2, 8})
                    .i("axis", 1)
                    .build();
    auto part = [](int64_t begin, int64_t width) {
        return Reference([=](const Coord& o, const Read& read) {
            if (o[1] >= begin && o[1] < begin + width)
                read({o[0], o[1] - begin});
        });
    };
    return {"Concat", std::move(g), 0, {{0, part(0, 3)}, {1, part(3, 1)}, {2, part(4, 4)}}};
}

ReadCase splitCase(int output) {
    static const int64_t offsets[] = {0, 2, 5};
    OpGraph g = OpBuilder("Split", "split")
                    .input({2, 9})
                    .output({2, 2})
                    .output({2, 3})
                    .output({2, 4})
                    .i("axis", 1)
                    .ints("split", {2, 3, 4})
                    .build();
    int64_t offset = offsets[output];
    return {"Split output " + std::to_string(output),
            std::move(g),
            output,
            {{0, pickRef([offset](const Coord& o) {
                  return Coord{o[0], o[1] + offset};
              })}}};
}

ReadCase sliceCase() {
    // dim 0: 1, 3 (step 2); dim 1: 7, 5, 3, 1 (step -2); dim 2: all 6; dim 3: 4, 3, 2 (step -1)
    std::vector<int64_t> starts{1, 7, 0, 4}, steps{2, -2, 1, -1};
    OpGraph g = OpBuilder("Slice", "slice")
                    .input({5, 8, 6, 5})
                    .output({2, 4, 6, 3})
                    .ints("starts", starts)
                    .ints("ends", {4, -1, 6, 1})
                    .ints("steps", steps)
                    .build();
    Reference ref = [=](const Coord& o, const Read& read) {
        Coord c;
        for (size_t i = 0; i < o.size(); ++i)
            c.push_back(starts[i] + o[i] * steps[i]);
        read(c);
    };
    return {"Slice with steps", std::move(g), 0, {{0, ref}}};
}

ReadCase padCase() {
    // begins {1, 0}, ends {2, 1}
    OpGraph g = OpBuilder("Pad", "pad")
                    .input({2, 3})
                    .output({5, 4})
                    .ints("pads", {1, 0, 2, 1})
                    .s("mode", "constant")
                    .f("value", 0.0)
                    .build();
    Reference ref = [](const Coord& o, const Read& read) {
        int64_t h = o[0] - 1, w = o[1];
        if (h >= 0 && h < 2 && w >= 0 && w < 3)
            read({h, w});
    };
    return {"Pad", std::move(g), 0, {{0, ref}}};
}

/// Reflect mode mirrors the input without repeating the border: index -1 reads
/// 1, index n reads n - 2. The map reads padded dims whole (conservative).
ReadCase padReflectCase() {
    // [4, 3] padded by 2 before and 1 after on dim 0, 1 before on dim 1
    OpGraph g = OpBuilder("Pad", "pad")
                    .input({4, 3})
                    .output({7, 4})
                    .ints("pads", {2, 1, 1, 0})
                    .s("mode", "reflect")
                    .f("value", 0.0)
                    .build();
    auto reflect = [](int64_t i, int64_t n) {
        return i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i;
    };
    Reference ref = [reflect](const Coord& o, const Read& read) {
        read({reflect(o[0] - 2, 4), reflect(o[1] - 1, 3)});
    };
    return {"Pad reflect (conservative)", std::move(g), 0, {{0, ref}}, true};
}

ReadCase tileCase() {
    OpGraph g = OpBuilder("Tile", "tile")
                    .input({2, 1, 3})
                    .output({4, 3, 3})
                    .ints("repeats", {2, 3, 1})
                    .build();
    return {"Tile", std::move(g), 0, {{0, pickRef([](const Coord& o) {
                                           return Coord{o[0] % 2, o[1] % 1, o[2] % 3};
                                       })}}};
}

ReadCase expandCase() {
    OpGraph g = OpBuilder("Expand", "expand").input({3, 1}).output({2, 3, 4}).build();
    return {"Expand", std::move(g), 0, {{0, broadcastRef({3, 1})}}};
}

// --- gathers -------------------------------------------------------------------------------------

/// out = data[:a] + indices + data[a+1:]: any row of the axis may be picked.
ReadCase gatherCase(std::string name, Shape data, Shape indices, int64_t axis) {
    Shape out(data.begin(), data.begin() + axis);
    out.insert(out.end(), indices.begin(), indices.end());
    out.insert(out.end(), data.begin() + axis + 1, data.end());
    OpGraph g = OpBuilder("Gather", "gather")
                    .input(data)
                    .input(indices, ir::DType::Int64)
                    .output(out)
                    .i("axis", axis)
                    .build();
    auto a = static_cast<size_t>(axis), q = indices.size();
    Reference refData = [=](const Coord& o, const Read& read) {
        for (int64_t row = 0; row < data[a]; ++row) {
            Coord c(o.begin(), o.begin() + axis);
            c.push_back(row);
            c.insert(c.end(), o.begin() + static_cast<long>(a + q), o.end());
            read(c);
        }
    };
    Reference refIndices = pickRef([=](const Coord& o) {
        return Coord(o.begin() + axis, o.begin() + static_cast<long>(a + q));
    });
    return {std::move(name), std::move(g), 0, {{0, refData}, {1, refIndices}}};
}

// --- DepthToSpace / SpaceToDepth: ONNX's reshape, transpose, reshape -----------------------------

Reference reshapeTransposeRef(Shape in, Shape staged, std::vector<size_t> perm, Shape out) {
    return [=](const Coord& o, const Read& read) {
        Shape transposed;
        for (size_t p : perm)
            transposed.push_back(staged[p]);
        Coord t = unflatten(flatIndex(o, out), transposed);
        Coord s(staged.size());
        for (size_t d = 0; d < perm.size(); ++d)
            s[perm[d]] = t[d];
        read(unflatten(flatIndex(s, staged), in));
    };
}

ReadCase depthToSpaceCase(std::string mode) {
    int64_t n = 1, c = 8, h = 2, w = 3, b = 2, cc = c / (b * b);
    Shape in{n, c, h, w}, out{n, cc, h * b, w * b};
    OpGraph g = OpBuilder("DepthToSpace", "d2s")
                    .input(in)
                    .output(out)
                    .i("blocksize", b)
                    .s("mode", mode)
                    .build();
    Reference ref = mode == "DCR"
                        ? reshapeTransposeRef(in, {n, b, b, cc, h, w}, {0, 3, 4, 1, 5, 2}, out)
                        : reshapeTransposeRef(in, {n, cc, b, b, h, w}, {0, 1, 4, 2, 5, 3}, out);
    return {"DepthToSpace " + mode, std::move(g), 0, {{0, ref}}};
}

ReadCase spaceToDepthCase() {
    int64_t n = 1, c = 3, h = 4, w = 6, b = 2;
    Shape in{n, c, h, w}, out{n, c * b * b, h / b, w / b};
    OpGraph g = OpBuilder("SpaceToDepth", "s2d").input(in).output(out).i("blocksize", b).build();
    return {"SpaceToDepth",
            std::move(g),
            0,
            {{0, reshapeTransposeRef(in, {n, c, h / b, b, w / b, b}, {0, 3, 5, 1, 2, 4}, out)}}};
}

} // namespace

std::vector<ReadCase> movementReadCases() {
    std::vector<ReadCase> cases;
    cases.push_back(reshapeCase("Reshape", "Reshape merge", {2, 3, 4}, {6, 4}));
    cases.push_back(reshapeCase("Reshape", "Reshape split", {24}, {2, 3, 4}));
    cases.push_back(reshapeCase("Reshape", "Reshape non-aligned", {6, 4}, {4, 6}));
    cases.push_back(reshapeCase("Reshape", "Reshape three-way block", {4, 6, 5}, {3, 8, 5}));
    cases.push_back(reshapeCase("Reshape", "Reshape size-1 dims", {2, 1, 6}, {1, 2, 3, 2}));
    cases.push_back(reshapeCase("Flatten", "Flatten", {2, 3, 4}, {2, 12}));
    cases.push_back(reshapeCase("Squeeze", "Squeeze", {1, 3, 1, 4}, {3, 4}));
    cases.push_back(reshapeCase("Unsqueeze", "Unsqueeze", {3, 4}, {1, 3, 1, 4}));
    cases.push_back(transposeCase());
    cases.push_back(concatCase());
    for (int output = 0; output < 3; ++output)
        cases.push_back(splitCase(output));
    cases.push_back(sliceCase());
    cases.push_back(padCase());
    cases.push_back(padReflectCase());
    cases.push_back(tileCase());
    cases.push_back(expandCase());
    cases.push_back(gatherCase("Gather axis 0", {5, 4}, {2, 3}, 0));
    cases.push_back(gatherCase("Gather axis 1", {3, 5, 4}, {2, 2}, 1));
    cases.push_back(depthToSpaceCase("DCR"));
    cases.push_back(depthToSpaceCase("CRD"));
    cases.push_back(spaceToDepthCase());
    return cases;
}

} // namespace stagecraft::test
