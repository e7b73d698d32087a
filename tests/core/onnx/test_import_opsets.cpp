// ONNX import across opsets: the same op written the way opset 9-11 and
// opset 13+ files write it ends in the same canonical form (docs/ir.md).

#include "import_helpers.h"

#include <climits>
#include <cmath>

using namespace stagecraft;
using namespace stagecraft::onnxio;
using ir::DType;
using stagecraft::test::contains;
using stagecraft::test::tensorNamed;

namespace {

const ir::Op& onlyOp(const ir::Graph& g, const std::string& type) {
    for (const ir::Op& op : g.ops())
        if (op.type == type)
            return op;
    test::fatal("no op of type %s", type.c_str());
}

} // namespace

test::ImportFixture fixture;
TEST(TestImportOpsets, sliceWithAttributesOpset9) {
    ModelBuilder m("slice9", 9);
    m.addInput("x", DType::Float32, {2, 10});
    m.addNode("Slice", {"x"}, {"y"})
        .attr("starts", std::vector<int64_t>{1})
        .attr("ends", std::vector<int64_t>{INT64_MAX})
        .attr("axes", std::vector<int64_t>{1});
    m.addOutput("y", DType::Float32, {}, false);
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    const ir::Op& slice = onlyOp(r->graph, "Slice");
    ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{2, 9}));
    ASSERT_EQ(slice.attrs.getInts("starts"), (std::vector<int64_t>{0, 1}));
    ASSERT_EQ(slice.attrs.getInts("ends"), (std::vector<int64_t>{2, 10}));
    ASSERT_EQ(slice.attrs.getInts("steps"), (std::vector<int64_t>{1, 1}));
    ASSERT_EQ(slice.inputs.size(), size_t(1));
}

struct SliceWithInputsOpset13Row {
    std::string rowLabel;
    std::vector<int64_t> starts;
    std::vector<int64_t> ends;
    std::vector<int64_t> steps;
    int64_t extent;
    int64_t start;
};

std::vector<SliceWithInputsOpset13Row> sliceWithInputsOpset13Rows() {
    std::vector<SliceWithInputsOpset13Row> rows;
    rows.push_back({"negative bounds", std::vector<int64_t>{-3}, std::vector<int64_t>{-1},
                    std::vector<int64_t>{1}, int64_t(2), int64_t(7)});
    rows.push_back({"negative step", std::vector<int64_t>{8}, std::vector<int64_t>{-100},
                    std::vector<int64_t>{-2}, int64_t(5), int64_t(8)});
    rows.push_back({"clamped", std::vector<int64_t>{-50}, std::vector<int64_t>{INT64_MAX},
                    std::vector<int64_t>{3}, int64_t(4), int64_t(0)});
    rows.push_back({"empty", std::vector<int64_t>{7}, std::vector<int64_t>{3},
                    std::vector<int64_t>{1}, int64_t(0), int64_t(7)});
    return rows;
}

class SliceWithInputsOpset13Rows : public ::testing::TestWithParam<SliceWithInputsOpset13Row> {};

TEST_P(SliceWithInputsOpset13Rows, sliceWithInputsOpset13) {
    std::vector<int64_t> starts = GetParam().starts;
    std::vector<int64_t> ends = GetParam().ends;
    std::vector<int64_t> steps = GetParam().steps;
    int64_t extent = GetParam().extent;
    int64_t start = GetParam().start;
    ModelBuilder m("slice13", 13);
    m.addInput("x", DType::Float32, {2, 10});
    m.addInt64Initializer("starts", {1}, starts);
    m.addInt64Initializer("ends", {1}, ends);
    m.addInt64Initializer("axes", {1}, {1});
    m.addInt64Initializer("steps", {1}, steps);
    m.addNode("Slice", {"x", "starts", "ends", "axes", "steps"}, {"y"});
    m.addOutput("y", DType::Float32, {}, false);
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{2, extent}));
    ASSERT_EQ(onlyOp(r->graph, "Slice").attrs.getInts("starts")[1], start);
    ASSERT_EQ(r->graph.tensorCount(), size_t(2)); // the parameter tensors are gone
}

INSTANTIATE_TEST_SUITE_P(TestImportOpsets, SliceWithInputsOpset13Rows,
                         ::testing::ValuesIn(sliceWithInputsOpset13Rows()), test::RowName{});

TEST(TestImportOpsets, squeezeAndUnsqueezeAcrossOpsets) {
    for (int opset : {11, 13}) {
        ModelBuilder m("squeeze", opset);
        m.addInput("x", DType::Float32, {3, 1, 4});
        if (opset < 13) {
            m.addNode("Squeeze", {"x"}, {"s"}).attr("axes", std::vector<int64_t>{-2});
            m.addNode("Unsqueeze", {"s"}, {"y"}).attr("axes", std::vector<int64_t>{0, 3});
        } else {
            m.addInt64Initializer("sq", {1}, {-2});
            m.addInt64Initializer("un", {2}, {0, 3});
            m.addNode("Squeeze", {"x", "sq"}, {"s"});
            m.addNode("Unsqueeze", {"s", "un"}, {"y"});
        }
        m.addOutput("y", DType::Float32, {}, false);
        auto r = fixture.import(m);
        ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
        ASSERT_EQ(tensorNamed(r->graph, "s").shape, (ir::Shape{3, 4}));
        ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{1, 3, 4, 1}));
        ASSERT_EQ(onlyOp(r->graph, "Squeeze").attrs.getInts("axes"), (std::vector<int64_t>{1}));
        ASSERT_EQ(onlyOp(r->graph, "Unsqueeze").attrs.getInts("axes"),
                  (std::vector<int64_t>{0, 3}));
    }
}

TEST(TestImportOpsets, clipBoundsBecomeAttributes) {
    ModelBuilder old("clip9", 9);
    old.addInput("x", DType::Float32, {4});
    old.addNode("Clip", {"x"}, {"y"}).attr("min", 0.0f).attr("max", 6.0f);
    old.addOutput("y", DType::Float32, {4});
    auto r9 = fixture.import(old);
    ASSERT_TRUE(r9.ok());
    ASSERT_FUZZY_EQ(onlyOp(r9->graph, "Clip").attrs.getFloat("max", 0), 6.0);

    ModelBuilder m("clip13", 13);
    m.addInput("x", DType::Float32, {4});
    m.addFloatInitializer("lo", {}, {0.0f});
    m.addNode("Clip", {"x", "lo", ""}, {"y"});
    m.addOutput("y", DType::Float32, {4});
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    const ir::Op& clip = onlyOp(r->graph, "Clip");
    ASSERT_FUZZY_EQ(clip.attrs.getFloat("min", 1), 0.0);
    ASSERT_TRUE(std::isinf(clip.attrs.getFloat("max", 0)));
    ASSERT_EQ(clip.inputs.size(), size_t(1));
}

TEST(TestImportOpsets, resizeAndUpsample) {
    ModelBuilder up("up9", 9);
    up.addInput("x", DType::Float32, {1, 2, 3, 4});
    up.addFloatInitializer("scales", {4}, {1, 1, 2, 2});
    up.addNode("Upsample", {"x", "scales"}, {"y"}).attr("mode", "nearest");
    up.addOutput("y", DType::Float32, {}, false);
    auto r9 = fixture.import(up);
    ASSERT_TRUE(r9.ok()) << (r9.ok() ? "" : r9.error().message().c_str());
    const ir::Op& resize = onlyOp(r9->graph, "Resize");
    ASSERT_EQ(tensorNamed(r9->graph, "y").shape, (ir::Shape{1, 2, 6, 8}));
    ASSERT_EQ(resize.attrs.getString("coordinate_transformation_mode", ""),
              std::string("asymmetric"));

    ModelBuilder m("resize13", 13);
    m.addInput("x", DType::Float32, {1, 2, 3, 4});
    m.addInt64Initializer("sizes", {4}, {1, 2, 5, 8});
    m.addNode("Resize", {"x", "", "", "sizes"}, {"y"}).attr("mode", "linear");
    m.addOutput("y", DType::Float32, {}, false);
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    const ir::Op& linear = onlyOp(r->graph, "Resize");
    ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{1, 2, 5, 8}));
    auto scales = linear.attrs.getFloats("scales");
    ASSERT_EQ(scales.size(), size_t(4));
    ASSERT_FUZZY_EQ(scales[2], 5.0 / 3.0);
    ASSERT_EQ(linear.attrs.getString("coordinate_transformation_mode", ""),
              std::string("half_pixel"));
    ASSERT_EQ(linear.inputs.size(), size_t(1));
}

TEST(TestImportOpsets, splitSizesFromAttributeInputOrEqualParts) {
    for (int variant = 0; variant < 3; ++variant) {
        ModelBuilder m("split", variant == 1 ? 13 : 11);
        m.addInput("x", DType::Float32, {6, 2});
        if (variant == 0)
            m.addNode("Split", {"x"}, {"a", "b"})
                .attr("axis", int64_t{0})
                .attr("split", std::vector<int64_t>{2, 4});
        else if (variant == 1) {
            m.addInt64Initializer("sizes", {2}, {2, 4});
            m.addNode("Split", {"x", "sizes"}, {"a", "b"}).attr("axis", int64_t{0});
        } else
            m.addNode("Split", {"x"}, {"a", "b"}).attr("axis", int64_t{-2});
        m.addOutput("a", DType::Float32, {}, false);
        m.addOutput("b", DType::Float32, {}, false);
        auto r = fixture.import(m);
        ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
        int64_t first = variant == 2 ? 3 : 2;
        ASSERT_EQ(tensorNamed(r->graph, "a").shape, (ir::Shape{first, 2}));
        ASSERT_EQ(tensorNamed(r->graph, "b").shape, (ir::Shape{6 - first, 2}));
        ASSERT_EQ(onlyOp(r->graph, "Split").attrs.getInts("split"),
                  (std::vector<int64_t>{first, 6 - first}));
    }
}

TEST(TestImportOpsets, softmaxAxesFollowTheOpset) {
    for (int opset : {11, 13}) {
        ModelBuilder m("softmax", opset);
        m.addInput("x", DType::Float32, {2, 3, 4});
        if (opset == 11)
            m.addNode("Softmax", {"x"}, {"y"}).attr("axis", int64_t{1});
        else
            m.addNode("Softmax", {"x"}, {"y"});
        m.addOutput("y", DType::Float32, {2, 3, 4});
        auto r = fixture.import(m);
        ASSERT_TRUE(r.ok());
        auto expected = opset == 11 ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{2};
        ASSERT_EQ(onlyOp(r->graph, "Softmax").attrs.getInts("axes"), expected);
    }
}

TEST(TestImportOpsets, reduceAxesFromAttributeOrInput) {
    for (int opset : {11, 13}) {
        ModelBuilder m("reduce", opset);
        m.addInput("x", DType::Float32, {2, 3, 4});
        if (opset == 11)
            m.addNode("ReduceSum", {"x"}, {"y"})
                .attr("axes", std::vector<int64_t>{-1, 0})
                .attr("keepdims", int64_t{0});
        else {
            m.addInt64Initializer("axes", {2}, {-1, 0});
            m.addNode("ReduceSum", {"x", "axes"}, {"y"}).attr("keepdims", int64_t{0});
        }
        m.addNode("ReduceMean", {"x"}, {"z"});
        m.addOutput("y", DType::Float32, {}, false);
        m.addOutput("z", DType::Float32, {}, false);
        auto r = fixture.import(m);
        ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
        ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{3}));
        ASSERT_EQ(onlyOp(r->graph, "ReduceSum").attrs.getInts("axes"),
                  (std::vector<int64_t>{0, 2}));
        ASSERT_EQ(tensorNamed(r->graph, "z").shape, (ir::Shape{1, 1, 1})); // all axes, keepdims
    }
}

TEST(TestImportOpsets, padFromAttributeOrInput) {
    for (int opset : {9, 11}) {
        ModelBuilder m("pad", opset);
        m.addInput("x", DType::Float32, {1, 3});
        if (opset == 9)
            m.addNode("Pad", {"x"}, {"y"})
                .attr("pads", std::vector<int64_t>{0, 1, 0, 2})
                .attr("value", 1.5f);
        else {
            m.addInt64Initializer("pads", {4}, {0, 1, 0, 2});
            m.addFloatInitializer("v", {}, {1.5f});
            m.addNode("Pad", {"x", "pads", "v"}, {"y"});
        }
        m.addOutput("y", DType::Float32, {}, false);
        auto r = fixture.import(m);
        ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
        ASSERT_EQ(tensorNamed(r->graph, "y").shape, (ir::Shape{1, 6}));
        ASSERT_FUZZY_EQ(onlyOp(r->graph, "Pad").attrs.getFloat("value", 0), 1.5);
    }
}

TEST(TestImportOpsets, windowsResolveAutoPadAndCeilMode) {
    ModelBuilder m("windows", 13);
    m.addInput("x", DType::Float32, {1, 2, 7, 7});
    m.addFloatInitializer("w", {4, 2, 3, 3}, std::vector<float>(72, 0.f));
    m.addNode("Conv", {"x", "w"}, {"c"})
        .attr("auto_pad", "SAME_UPPER")
        .attr("strides", std::vector<int64_t>{2, 2});
    m.addNode("MaxPool", {"c"}, {"p"})
        .attr("kernel_shape", std::vector<int64_t>{2, 2})
        .attr("strides", std::vector<int64_t>{2, 2})
        .attr("ceil_mode", int64_t{1});
    m.addFloatInitializer("wt", {4, 3, 2, 2}, std::vector<float>(48, 0.f));
    m.addNode("ConvTranspose", {"p", "wt"}, {"t"})
        .attr("strides", std::vector<int64_t>{2, 2})
        .attr("output_shape", std::vector<int64_t>{4, 4});
    m.addOutput("t", DType::Float32, {}, false);
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    const ir::Graph& g = r->graph;
    ASSERT_EQ(tensorNamed(g, "c").shape, (ir::Shape{1, 4, 4, 4}));
    ASSERT_EQ(onlyOp(g, "Conv").attrs.getInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
    ASSERT_TRUE(!onlyOp(g, "Conv").attrs.has("auto_pad"));
    ASSERT_EQ(tensorNamed(g, "p").shape, (ir::Shape{1, 4, 2, 2}));
    ASSERT_EQ(tensorNamed(g, "t").shape, (ir::Shape{1, 3, 4, 4}));
    ASSERT_EQ(onlyOp(g, "ConvTranspose").attrs.getInts("pads"), (std::vector<int64_t>{0, 0, 0, 0}));
}

TEST(TestImportOpsets, gemmMatMulAndBroadcasts) {
    ModelBuilder m("linalg", 13);
    m.addInput("a", DType::Float32, {2, 1, 3, 4});
    m.addInput("b", DType::Float32, {5, 4, 6});
    m.addNode("MatMul", {"a", "b"}, {"ab"});
    m.addInput("v", DType::Float32, {4});
    m.addNode("MatMul", {"v", "b"}, {"vb"});
    m.addInput("g", DType::Float32, {7, 3});
    m.addFloatInitializer("gw", {5, 3}, std::vector<float>(15, 0.f));
    m.addFloatInitializer("gc", {5}, std::vector<float>(5, 0.f));
    m.addNode("Gemm", {"g", "gw", "gc"}, {"gy"}).attr("transB", int64_t{1});
    m.addInput("cond", DType::Bool, {1, 6});
    m.addInput("s", DType::Float32, {6});
    m.addNode("Where", {"cond", "ab", "s"}, {"w"});
    for (const char* out : {"ab", "vb", "gy", "w"})
        m.addOutput(out, DType::Float32, {}, false);
    auto r = fixture.import(m);
    ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message().c_str());
    ASSERT_EQ(tensorNamed(r->graph, "ab").shape, (ir::Shape{2, 5, 3, 6}));
    ASSERT_EQ(tensorNamed(r->graph, "vb").shape, (ir::Shape{5, 6}));
    ASSERT_EQ(tensorNamed(r->graph, "gy").shape, (ir::Shape{7, 5}));
    ASSERT_EQ(tensorNamed(r->graph, "w").shape, (ir::Shape{2, 5, 3, 6}));
    ASSERT_FUZZY_EQ(onlyOp(r->graph, "Gemm").attrs.getFloat("alpha", 0), 1.0);
}

TEST(TestImportOpsets, mismatchedShapesAreReported) {
    ModelBuilder m("bad", 13);
    m.addInput("a", DType::Float32, {2, 3});
    m.addInput("b", DType::Float32, {4, 5});
    m.addNode("MatMul", {"a", "b"}, {"y"}, "mm");
    m.addOutput("y", DType::Float32, {}, false);
    auto r = fixture.import(m);
    ASSERT_TRUE(!r.ok());
    ASSERT_TRUE(
        contains(r.error().message(), "op 'mm' (MatMul): inner dimensions differ: 2x3 x 4x5"))
        << (r.error().message().c_str());
}

TEST(TestImportOpsets, wrongAttributeTypeIsAnErrorNotACrash) {
    ModelBuilder m("badattr", 13);
    m.addInput("x", DType::Float32, {2, 3});
    m.addNode("Softmax", {"x"}, {"y"}, "sm").attr("axis", 1.5f);
    m.addOutput("y", DType::Float32, {}, false);
    auto r = fixture.import(m);
    ASSERT_TRUE(!r.ok());
    ASSERT_TRUE(
        contains(r.error().message(), "op 'sm' (Softmax): attribute 'axis' must be INT, not FLOAT"))
        << (r.error().message().c_str());
}
