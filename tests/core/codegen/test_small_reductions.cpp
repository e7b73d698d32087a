// Reductions in lanes (lower_reduce.cpp, issue 65): a float maximum,
// minimum or sum whose innermost reduction loop runs along the input's last
// dim keeps a vector of lanes (16 for sums on every target), a masked load
// for the row's tail, and folds the lanes at the end. Against ONNX Runtime
// under tvm and graphturbo: rows of 37 (two vectors and a tail of 5, as any
// x86 or riscv64 width leaves one) reduced to their maximum and their mean,
// a whole tensor reduced to its minimum (as DynamicQuantizeLinear does),
// squares summed over two dims (an outer reduction loop), a global average
// pool over rows of 20, three MaxPools along their output rows on x86 (3 x 3
// stride 2 over padding, a vector and a tail of 3, and ResNet-50's over rows
// of 56; their inner vectors read whole spans; a dilated stride-3 one with
// ceil_mode, its last window past the input, a row of 13 in one vector's
// lanes: lower_pool_rows.cpp), and a reduction along a middle dim,
// which stays a scalar loop; and a check that the others take the path. And
// the loops the lowering leaves to LLVM's vectorizers (an elementwise
// chain) take 16 lanes where the target has AVX-512, as the lowering's own
// vectors do (emit_program.cpp: LLVM would prefer 256 bits on such CPUs).

#include "coretestsupport.h"
#include "small_model_case.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

/// A case and whether its reduction runs in lanes.
struct ReductionCase {
    Case model;
    bool inLanes;
};

/// A 3 x 3 MaxPool of stride 2 padded by 1 (ResNet-50's), case \p name.
ReductionCase maxPool3x3Stride2(const char* name, const ir::Shape& in, const ir::Shape& out) {
    return {{name, DType::Float32, in, 4.0,
             [out](onnxio::ModelBuilder& m, Seeded&) {
                 m.addNode("MaxPool", {"x"}, {"y"})
                     .attr("kernel_shape", std::vector<int64_t>{3, 3})
                     .attr("strides", std::vector<int64_t>{2, 2})
                     .attr("pads", std::vector<int64_t>{1, 1, 1, 1});
                 output(m, "y", DType::Float32, out);
             }},
            true};
}

const std::vector<ReductionCase>& reductionCases() {
    static const std::vector<ReductionCase> all = {
        {{"reduce-max-rows37",
          DType::Float32,
          {2, 5, 37},
          4.0,
          [](onnxio::ModelBuilder& m, Seeded&) {
              m.addNode("ReduceMax", {"x"}, {"y"}).attr("axes", std::vector<int64_t>{2});
              output(m, "y", DType::Float32, {2, 5, 1});
          }},
         true},
        {{"reduce-min-whole",
          DType::Float32,
          {3, 4, 37},
          4.0,
          [](onnxio::ModelBuilder& m, Seeded&) {
              m.addNode("ReduceMin", {"x"}, {"y"}).attr("keepdims", int64_t{0});
              output(m, "y", DType::Float32, {});
          }},
         true},
        {{"reduce-mean-rows37",
          DType::Float32,
          {2, 5, 37},
          4.0,
          [](onnxio::ModelBuilder& m, Seeded&) {
              m.addNode("ReduceMean", {"x"}, {"y"}).attr("axes", std::vector<int64_t>{2});
              output(m, "y", DType::Float32, {2, 5, 1});
          }},
         true},
        {{"reduce-sumsquare-planes",
          DType::Float32,
          {2, 3, 40},
          4.0,
          [](onnxio::ModelBuilder& m, Seeded&) {
              m.addNode("ReduceSumSquare", {"x"}, {"y"})
                  .attr("axes", std::vector<int64_t>{1, 2})
                  .attr("keepdims", int64_t{0});
              output(m, "y", DType::Float32, {2});
          }},
         true},
        {{"global-average-pool-rows20",
          DType::Float32,
          {1, 4, 5, 20},
          4.0,
          [](onnxio::ModelBuilder& m, Seeded&) {
              m.addNode("GlobalAveragePool", {"x"}, {"y"});
              output(m, "y", DType::Float32, {1, 4, 1, 1});
          }},
         true},
        maxPool3x3Stride2("max-pool-3x3-stride2-rows19", {1, 3, 23, 37}, {1, 3, 12, 19}),
        maxPool3x3Stride2("max-pool-3x3-stride2-rows56", {1, 2, 9, 112}, {1, 2, 5, 56}),
        {{"max-pool-dilated-ceil-rows13",
          DType::Float32,
          {1, 2, 9, 37},
          4.0,
          [](onnxio::ModelBuilder& m, Seeded&) {
              m.addNode("MaxPool", {"x"}, {"y"})
                  .attr("kernel_shape", std::vector<int64_t>{2, 3})
                  .attr("strides", std::vector<int64_t>{1, 3})
                  .attr("dilations", std::vector<int64_t>{1, 2})
                  .attr("pads", std::vector<int64_t>{0, 2, 1, 0})
                  .attr("ceil_mode", int64_t{1});
              output(m, "y", DType::Float32, {1, 2, 9, 13});
          }},
         true},
        {{"reduce-max-middle",
          DType::Float32,
          {2, 37, 5},
          4.0,
          [](onnxio::ModelBuilder& m, Seeded&) {
              m.addNode("ReduceMax", {"x"}, {"y"}).attr("axes", std::vector<int64_t>{1});
              output(m, "y", DType::Float32, {2, 1, 5});
          }},
         false},
    };
    return all;
}

/// GELU's elementwise chain (Div, Erf, Add, Mul, Mul), a diamond over x.
const Case& geluCase() {
    static const Case c{
        "gelu-lanes", DType::Float32, {4, 96}, 4.0, [](onnxio::ModelBuilder& m, Seeded&) {
            scalar(m, "root2", DType::Float32, 1.4142135);
            scalar(m, "one", DType::Float32, 1.0);
            scalar(m, "half", DType::Float32, 0.5);
            m.addNode("Div", {"x", "root2"}, {"d"});
            m.addNode("Erf", {"d"}, {"e"});
            m.addNode("Add", {"e", "one"}, {"a"});
            m.addNode("Mul", {"x", "a"}, {"p"});
            m.addNode("Mul", {"p", "half"}, {"y"});
            output(m, "y", DType::Float32, {4, 96});
        }};
    return c;
}

std::vector<StrategyRow> reductionRows() {
    std::vector<std::string> names;
    for (const auto& c : reductionCases())
        names.push_back(c.model.name);
    return strategyRows(names);
}

} // namespace

class ReductionsMatchOnnxRuntime : public ::testing::TestWithParam<StrategyRow> {};

TEST_P(ReductionsMatchOnnxRuntime, reductionsMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(reductionCases()[GetParam().index].model, GetParam().strategy);
}

INSTANTIATE_TEST_SUITE_P(TestReductions, ReductionsMatchOnnxRuntime,
                         ::testing::ValuesIn(reductionRows()), test::RowName{});

TEST(TestReductions, geluMatchesOnnxRuntime) {
    expectMatchesOnnxRuntime(geluCase(), "graphturbo");
}

// Elementwise loops in 16 lanes for AVX-512, 8 for AVX2.
TEST(TestReductions, vectorizedLoopsFillTheWidestRegisters) {
    TempDir dir;
    const std::string avx512 = optimizedKernels(geluCase(), "tvm", dir.path(), "sapphirerapids");
    const std::string avx2 = optimizedKernels(geluCase(), "tvm", dir.path(), "x86-64-v3");
    EXPECT_GT(countText(avx512, "<16 x float>"), 0);
    EXPECT_GT(countText(avx2, "<8 x float>"), 0);
    EXPECT_EQ(countText(avx2, "<16 x float>"), 0);
}

// Compiled for AVX-512: 16 lanes compared or added at once where the rows allow.
TEST(TestReductions, reductionsAlongRowsRunInLanes) {
    TempDir dir;
    for (const ReductionCase& c : reductionCases()) {
        const std::string ir = optimizedKernels(c.model, "tvm", dir.path(), "skylake-avx512");
        ASSERT_FALSE(ir.empty()) << c.model.name;
        EXPECT_EQ(countText(ir, "fcmp ogt <16 x float>") + countText(ir, "fcmp olt <16 x float>") +
                          countText(ir, "fadd <16 x float>") >
                      0,
                  c.inLanes)
            << c.model.name;
    }
}

// A MaxPool along its row on x86 reads each tap's lanes with one masked
// load of their span (LLVM vectorizes the scalar loop with a gather per tap).
TEST(TestReductions, maxPoolsLoadSpansNotGathers) {
    TempDir dir;
    int pools = 0;
    for (const ReductionCase& c : reductionCases()) {
        if (std::string(c.model.name).find("max-pool") == std::string::npos)
            continue;
        ++pools;
        for (const char* cpu : {"skylake-avx512", "x86-64-v3"}) {
            const std::string ir = optimizedKernels(c.model, "tvm", dir.path(), cpu);
            EXPECT_GT(countText(ir, "@llvm.masked.load"), 0) << c.model.name << " " << cpu;
            EXPECT_EQ(countText(ir, "@llvm.masked.gather"), 0) << c.model.name << " " << cpu;
        }
    }
    EXPECT_EQ(pools, 3);
}

// A vector whose every tap's span lies inside the row loads it whole, the
// elements of 2 vectors for stride 2, unmasked: on AVX2 the rows of 19's
// second vector (positions 8-15 read columns 15-32 of 37) and the rows of
// 56's inner ones; on AVX-512 only the latter's (16 lanes: a row of 19 is
// one vector over the padding and a tail). The dilated pool's one vector
// reads the padding.
TEST(TestReductions, maxPoolsReadInnerSpansWhole) {
    TempDir dir;
    for (const ReductionCase& c : reductionCases()) {
        const std::string name = c.model.name;
        if (name.find("max-pool") == std::string::npos)
            continue;
        const bool rows56 = name.find("rows56") != std::string::npos;
        const bool rows19 = name.find("rows19") != std::string::npos;
        EXPECT_EQ(countText(optimizedKernels(c.model, "tvm", dir.path(), "x86-64-v3"),
                            "= load <16 x float>") > 0,
                  rows56 || rows19)
            << name;
        EXPECT_EQ(countText(optimizedKernels(c.model, "tvm", dir.path(), "skylake-avx512"),
                            "= load <32 x float>") > 0,
                  rows56)
            << name;
    }
}

// Sums keep 16 partial sums on AVX2 too (and riscv64), so every target adds
// in the same order.
TEST(TestReductions, sumsAddSixteenLanesOnEveryTarget) {
    TempDir dir;
    for (const ReductionCase& c : reductionCases()) {
        const std::string ir = optimizedKernels(c.model, "tvm", dir.path(), "x86-64-v3");
        ASSERT_FALSE(ir.empty()) << c.model.name;
        const std::string name = c.model.name;
        const bool sum = name.find("mean") != std::string::npos ||
                         name.find("sum") != std::string::npos ||
                         name.find("average") != std::string::npos;
        EXPECT_EQ(countText(ir, "fadd <16 x float>") > 0, sum) << name;
    }
}
