// Brute-force cases for Conv (window loops with padding checks), ConvTranspose
// (the textbook scatter), pools, MatMul (numpy broadcasting) and Gemm.

#include "read_cases.h"

#include <algorithm>

namespace stagecraft::test {

using ir::Shape;

namespace {

// --- Conv and ConvTranspose ----------------------------------------------------

struct ConvSpec {
    int64_t n = 1, cin = 1, cout = 1, group = 1;
    Shape in, kernel, strides, dilations, padBegin, padEnd, outputPadding;
    bool bias = false;
};

Shape convOutput(const ConvSpec& c, bool transposed) {
    Shape out{c.n, c.cout};
    for (size_t d = 0; d < c.in.size(); ++d) {
        int64_t span = c.dilations[d] * (c.kernel[d] - 1) + 1;
        if (transposed)
            out.push_back(c.strides[d] * (c.in[d] - 1) + c.outputPadding[d] + span - c.padBegin[d] -
                          c.padEnd[d]);
        else
            out.push_back((c.in[d] + c.padBegin[d] + c.padEnd[d] - span) / c.strides[d] + 1);
    }
    return out;
}

OpGraph convGraph(const ConvSpec& c, bool transposed) {
    Shape x{c.n, c.cin},
        w = transposed ? Shape{c.cin, c.cout / c.group} : Shape{c.cout, c.cin / c.group};
    x.insert(x.end(), c.in.begin(), c.in.end());
    w.insert(w.end(), c.kernel.begin(), c.kernel.end());
    Shape pads = c.padBegin;
    pads.insert(pads.end(), c.padEnd.begin(), c.padEnd.end());
    OpBuilder b(transposed ? "ConvTranspose" : "Conv", "conv");
    b.input(x).input(w);
    if (c.bias)
        b.input({c.cout});
    b.output(convOutput(c, transposed))
        .ints("kernel_shape", c.kernel)
        .ints("strides", c.strides)
        .ints("dilations", c.dilations)
        .ints("pads", pads)
        .i("group", c.group);
    if (transposed)
        b.ints("output_padding", c.outputPadding);
    return b.build();
}

ReadCase convCase(std::string name, const ConvSpec& c) {
    ReadCase rc{std::move(name), convGraph(c, false), 0, {}, false};
    Reference x = [c](const Coord& out, const Read& read) {
        int64_t inPerGroup = c.cin / c.group, outPerGroup = c.cout / c.group;
        int64_t group = out[1] / outPerGroup;
        for (int64_t ic = 0; ic < inPerGroup; ++ic) {
            forEachIndex(c.kernel, [&](const Coord& k) {
                Coord at{out[0], group * inPerGroup + ic};
                for (size_t d = 0; d < c.in.size(); ++d) {
                    int64_t pos = out[2 + d] * c.strides[d] - c.padBegin[d] + k[d] * c.dilations[d];
                    if (pos < 0 || pos >= c.in[d])
                        return; // padding
                    at.push_back(pos);
                }
                read(at);
            });
        }
    };
    Reference w = [c](const Coord& out, const Read& read) {
        for (int64_t ic = 0; ic < c.cin / c.group; ++ic)
            forEachIndex(c.kernel, [&](const Coord& k) {
                Coord at{out[1], ic};
                at.insert(at.end(), k.begin(), k.end());
                read(at);
            });
    };
    rc.checks = {{0, x}, {1, w}};
    if (c.bias)
        rc.checks.push_back({2, pickRef([](const Coord& o) { return Coord{o[1]}; })});
    return rc;
}

/// ConvTranspose as the textbook scatter: every input element, times every
/// weight of its group, adds into out[i*stride - pad + k*dilation]. Like the
/// Conv reference, an output element reads every weight of its group.
ReadCase convTransposeCase(std::string name, const ConvSpec& c) {
    Shape out = convOutput(c, true);
    auto xs = std::make_shared<std::map<int64_t, std::vector<Coord>>>();
    Shape x{c.n, c.cin};
    x.insert(x.end(), c.in.begin(), c.in.end());
    int64_t inPerGroup = c.cin / c.group, outPerGroup = c.cout / c.group;
    forEachIndex(x, [&](const Coord& i) {
        for (int64_t col = 0; col < outPerGroup; ++col)
            forEachIndex(c.kernel, [&](const Coord& k) {
                Coord o{i[0], i[1] / inPerGroup * outPerGroup + col};
                for (size_t d = 0; d < c.in.size(); ++d) {
                    int64_t pos = i[2 + d] * c.strides[d] - c.padBegin[d] + k[d] * c.dilations[d];
                    if (pos < 0 || pos >= out[2 + d])
                        return;
                    o.push_back(pos);
                }
                (*xs)[flatIndex(o, out)].push_back(i);
            });
    });
    Reference w = [c, inPerGroup, outPerGroup](const Coord& o, const Read& read) {
        int64_t group = o[1] / outPerGroup;
        for (int64_t ic = 0; ic < inPerGroup; ++ic)
            forEachIndex(c.kernel, [&](const Coord& k) {
                Coord at{group * inPerGroup + ic, o[1] % outPerGroup};
                at.insert(at.end(), k.begin(), k.end());
                read(at);
            });
    };
    bool exact = std::all_of(c.strides.begin(), c.strides.end(), [](int64_t s) { return s == 1; });
    ReadCase rc{std::move(name), convGraph(c, true), 0, {{0, scatterRef(xs, out)}, {1, w}}, !exact};
    if (c.bias)
        rc.checks.push_back({2, pickRef([](const Coord& o) { return Coord{o[1]}; })});
    return rc;
}

// --- pools -----------------------------------------------------------------------

ReadCase maxPoolCeilCase() {
    // [1,2,7,7], kernel 3, stride 2, pads 0/1, ceil: (7 + 1 - 3)/2 = 2.5 -> 3 + 1 = 4.
    Shape x{1, 2, 7, 7}, out{1, 2, 4, 4};
    OpGraph g = OpBuilder("MaxPool", "pool")
                    .input(x)
                    .output(out)
                    .ints("kernel_shape", {3, 3})
                    .ints("strides", {2, 2})
                    .ints("dilations", {1, 1})
                    .ints("pads", {0, 0, 1, 1})
                    .i("ceil_mode", 1)
                    .build();
    Reference ref = [](const Coord& o, const Read& read) {
        for (int64_t kh = 0; kh < 3; ++kh)
            for (int64_t kw = 0; kw < 3; ++kw) {
                int64_t h = o[2] * 2 + kh, w = o[3] * 2 + kw;
                if (h < 7 && w < 7)
                    read({o[0], o[1], h, w});
            }
    };
    return {"MaxPool ceil_mode", std::move(g), 0, {{0, ref}}};
}

ReadCase globalPoolCase() {
    OpGraph g =
        OpBuilder("GlobalAveragePool", "gap").input({2, 3, 4, 5}).output({2, 3, 1, 1}).build();
    Reference ref = [](const Coord& o, const Read& read) {
        for (int64_t h = 0; h < 4; ++h)
            for (int64_t w = 0; w < 5; ++w)
                read({o[0], o[1], h, w});
    };
    return {"GlobalAveragePool", std::move(g), 0, {{0, ref}}};
}

// --- MatMul and Gemm -----------------------------------------------------------------

/// numpy matmul: batch dims broadcast, 1-D operands promoted and the added
/// dim removed from the output.
ReadCase matmulCase(std::string name, Shape a, Shape b, Shape out) {
    OpGraph g = OpBuilder("MatMul", "matmul").input(a).input(b).output(out).build();
    int64_t k = a.back();
    bool aVector = a.size() == 1, bVector = b.size() == 1;
    size_t batchRank = out.size() - (aVector ? 0 : 1) - (bVector ? 0 : 1);
    auto batchOf = [batchRank](const Shape& operand, size_t matrixDims, const Coord& o) {
        Coord c;
        size_t rank = operand.size() - matrixDims;
        for (size_t j = 0; j < rank; ++j)
            c.push_back(operand[j] == 1 ? 0 : o[batchRank - rank + j]);
        return c;
    };
    Reference refA = [=](const Coord& o, const Read& read) {
        for (int64_t kk = 0; kk < k; ++kk) {
            Coord c = batchOf(a, aVector ? 1 : 2, o);
            if (!aVector)
                c.push_back(o[batchRank]);
            c.push_back(kk);
            read(c);
        }
    };
    Reference refB = [=](const Coord& o, const Read& read) {
        for (int64_t kk = 0; kk < k; ++kk) {
            Coord c = batchOf(b, bVector ? 1 : 2, o);
            c.push_back(kk);
            if (!bVector)
                c.push_back(o.back());
            read(c);
        }
    };
    return {std::move(name), std::move(g), 0, {{0, refA}, {1, refB}}};
}

ReadCase gemmCase() {
    // A' = A^T with A [K, M]; B' = B^T with B [N, K]; C [N] broadcast over rows.
    OpGraph g = OpBuilder("Gemm", "gemm")
                    .input({5, 3})
                    .input({4, 5})
                    .input({4})
                    .output({3, 4})
                    .i("transA", 1)
                    .i("transB", 1)
                    .f("alpha", 1.0)
                    .f("beta", 1.0)
                    .build();
    Reference a = [](const Coord& o, const Read& read) {
        for (int64_t k = 0; k < 5; ++k)
            read({k, o[0]});
    };
    Reference b = [](const Coord& o, const Read& read) {
        for (int64_t k = 0; k < 5; ++k)
            read({o[1], k});
    };
    return {"Gemm transposed", std::move(g), 0, {{0, a}, {1, b}, {2, broadcastRef({4})}}};
}

} // namespace

std::vector<ReadCase> computeReadCases() {
    std::vector<ReadCase> cases;
    ConvSpec grouped{1, 4, 6, 2, {7, 8}, {3, 3}, {2, 2}, {2, 2}, {1, 1}, {1, 2}, {}, true};
    cases.push_back(convCase("Conv 2-D stride pad dilation groups", grouped));
    ConvSpec depthwise{1, 3, 3, 3, {5, 5}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {}, false};
    cases.push_back(convCase("Conv depthwise", depthwise));
    ConvSpec multiplier{1, 2, 4, 2, {5, 4}, {3, 2}, {1, 2}, {1, 1}, {0, 1}, {2, 0}, {}, true};
    cases.push_back(convCase("Conv depthwise multiplier 2", multiplier));
    ConvSpec conv1d{2, 3, 4, 1, {9}, {3}, {2}, {1}, {1}, {0}, {}, true};
    cases.push_back(convCase("Conv 1-D", conv1d));
    ConvSpec up{1, 4, 4, 2, {3, 3}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, true};
    cases.push_back(convTransposeCase("ConvTranspose stride 2", up));
    ConvSpec upDilated{1, 2, 3, 1, {4, 3}, {2, 3}, {3, 2}, {2, 1}, {0, 1}, {1, 0}, {0, 1}, false};
    cases.push_back(convTransposeCase("ConvTranspose stride 3 dilation 2", upDilated));
    ConvSpec same{1, 2, 2, 1, {4, 4}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0, 0}, false};
    cases.push_back(convTransposeCase("ConvTranspose stride 1 (exact)", same));
    cases.push_back(matmulCase("MatMul batch broadcast", {2, 1, 3, 4}, {5, 4, 6}, {2, 5, 3, 6}));
    cases.push_back(matmulCase("MatMul 1-D A", {4}, {2, 4, 3}, {2, 3}));
    cases.push_back(matmulCase("MatMul 1-D B", {2, 3, 4}, {4}, {2, 3}));
    cases.push_back(matmulCase("MatMul 1-D both", {4}, {4}, {}));
    cases.push_back(gemmCase());
    cases.push_back(maxPoolCeilCase());
    cases.push_back(globalPoolCase());
    return cases;
}

} // namespace stagecraft::test
