// Pointwise runs (lower_pointwise_run.cpp, issue 65): a layer's consecutive
// elementwise ops over one region run as one loop, their values passed in
// registers, against ONNX Runtime under tvm and graphturbo — a HardSwish
// written as x * clip(x + 3, 0, 6) / 6 then an affine (PP-OCRv4's, a
// diamond over the Conv's output); BERT's GELU written with Erf; and a run
// whose last value a ReduceMax of the same layer reads, so it must still be
// stored — and a check that their kernels take the path (the values kept
// in registers are named "chained").

#include "codegen/codegen.h"
#include "coretestsupport.h"
#include "small_model_case.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

void convHardSwishAffine(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {8, 8, 3, 3}, r.floats(8 * 8 * 9, 0.5));
    m.addFloatInitializer("b", {8}, r.floats(8, 1.0));
    scalar(m, "three", DType::Float32, 3.0);
    scalar(m, "zero", DType::Float32, 0.0);
    scalar(m, "six", DType::Float32, 6.0);
    m.addFloatInitializer("scale", {1, 8, 1, 1}, r.floats(8, 2.0));
    m.addFloatInitializer("shift", {1, 8, 1, 1}, r.floats(8, 1.0));
    m.addNode("Conv", {"x", "w", "b"}, {"c"}).attr("pads", std::vector<int64_t>{1, 1, 1, 1});
    m.addNode("Add", {"c", "three"}, {"a"});
    m.addNode("Clip", {"a", "zero", "six"}, {"clipped"});
    m.addNode("Mul", {"c", "clipped"}, {"p"});
    m.addNode("Div", {"p", "six"}, {"h"});
    m.addNode("Mul", {"h", "scale"}, {"s"});
    m.addNode("Add", {"s", "shift"}, {"y"});
    output(m, "y", DType::Float32, {1, 8, 10, 10});
}

void matmulGelu(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("w", {40, 24}, r.floats(40 * 24, 0.5));
    scalar(m, "root2", DType::Float32, 1.4142135);
    scalar(m, "one", DType::Float32, 1.0);
    scalar(m, "half", DType::Float32, 0.5);
    m.addNode("MatMul", {"x", "w"}, {"p"});
    m.addNode("Div", {"p", "root2"}, {"d"});
    m.addNode("Erf", {"d"}, {"e"});
    m.addNode("Add", {"e", "one"}, {"a"});
    m.addNode("Mul", {"p", "a"}, {"g"});
    m.addNode("Mul", {"g", "half"}, {"y"});
    output(m, "y", DType::Float32, {12, 24});
}

/// Add, Exp and Mul run as one; the ReduceMax after them in the layer reads
/// the Mul's output, so that value is stored as well as kept.
void runThenReduce(onnxio::ModelBuilder& m, Seeded& r) {
    m.addFloatInitializer("b", {1, 6, 1, 1}, r.floats(6, 1.0));
    m.addNode("Add", {"x", "b"}, {"a"});
    m.addNode("Exp", {"a"}, {"e"});
    m.addNode("Mul", {"e", "a"}, {"p"});
    m.addNode("ReduceMax", {"p"}, {"y"}).attr("axes", std::vector<int64_t>{3});
    output(m, "y", DType::Float32, {1, 6, 9, 1});
}

const std::vector<Case>& pointwiseCases() {
    static const std::vector<Case> all = {
        {"conv-hardswish-affine", DType::Float32, {1, 8, 10, 10}, 4.0, convHardSwishAffine},
        {"matmul-gelu", DType::Float32, {12, 40}, 2.0, matmulGelu},
        {"run-then-reduce", DType::Float32, {1, 6, 9, 12}, 2.0, runThenReduce},
    };
    return all;
}

} // namespace

class PointwiseRunsMatchOnnxRuntime : public ::testing::TestWithParam<StrategyRow> {};

TEST_P(PointwiseRunsMatchOnnxRuntime, pointwiseRunsMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(pointwiseCases()[GetParam().index], GetParam().strategy);
}

INSTANTIATE_TEST_SUITE_P(TestPointwiseRuns, PointwiseRunsMatchOnnxRuntime,
                         ::testing::ValuesIn(strategyRows(pointwiseCases())), test::RowName{});

// Every case keeps some value in registers under both strategies.
TEST(TestPointwiseRuns, elementwiseOpsRunAsOneLoop) {
    TempDir dir;
    for (const char* strategy : {"tvm", "graphturbo"})
        for (const Case& c : pointwiseCases())
            EXPECT_GT(countInKernels(c, strategy, dir.path(), "%chained"), 0)
                << c.name << " under " << strategy;
}
