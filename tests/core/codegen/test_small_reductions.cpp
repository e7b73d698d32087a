// Maxima and minima in lanes (lower_reduce.cpp, issue 65): a float
// ReduceMax or ReduceMin whose innermost reduction loop runs along the
// input's last dim keeps a vector of lanes, a masked load for the row's
// tail, and folds the lanes at the end. Against ONNX Runtime under tvm and
// graphturbo: rows of 37 (two vectors and a tail of 5, as any x86 or
// riscv64 width leaves one), a whole tensor reduced to a scalar (as
// DynamicQuantizeLinear does), and a reduction along a middle dim, which
// stays a scalar loop; and a check that the first two take the path.

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

struct ReductionRow {
    std::string rowLabel;
    size_t index;
    const char* strategy;
};

std::vector<ReductionRow> reductionRows() {
    std::vector<ReductionRow> rows;
    for (const char* strategy : {"tvm", "graphturbo"})
        for (size_t i = 0; i < reductionCases().size(); ++i)
            rows.push_back(
                {std::string(reductionCases()[i].model.name) + "-" + strategy, i, strategy});
    return rows;
}

} // namespace

class ReductionsMatchOnnxRuntime : public ::testing::TestWithParam<ReductionRow> {};

TEST_P(ReductionsMatchOnnxRuntime, reductionsMatchOnnxRuntime) {
    expectMatchesOnnxRuntime(reductionCases()[GetParam().index].model, GetParam().strategy);
}

INSTANTIATE_TEST_SUITE_P(TestReductions, ReductionsMatchOnnxRuntime,
                         ::testing::ValuesIn(reductionRows()), test::RowName{});

// Compiled for AVX-512: 16 lanes compared at once where the rows allow.
TEST(TestReductions, maximaAndMinimaAlongRowsRunInLanes) {
    TempDir dir;
    for (const ReductionCase& c : reductionCases()) {
        const std::string ir = optimizedKernels(c.model, "tvm", dir.path(), "skylake-avx512");
        ASSERT_FALSE(ir.empty()) << c.model.name;
        EXPECT_EQ(countText(ir, "fcmp ogt <16 x float>") + countText(ir, "fcmp olt <16 x float>") >
                      0,
                  c.inLanes)
            << c.model.name;
    }
}
