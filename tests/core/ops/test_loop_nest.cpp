// Index expressions: evaluation (floor division, non-negative modulo), interval
// ranges, dependence queries and printing.

#include "coretestsupport.h"
#include "ops/loop_nest.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::ops;

namespace {

IndexExpr expr(std::vector<IndexTerm> terms, int64_t offset = 0, int64_t div = 1, int64_t mod = 0) {
    IndexExpr e;
    e.terms = std::move(terms);
    e.offset = offset;
    e.div = div;
    e.mod = mod;
    return e;
}

IndexExpr full() {
    IndexExpr e;
    e.full = true;
    return e;
}

const std::vector<LoopDim>& convLoops() {
    static const std::vector<LoopDim> loops{
        {"n", 1, IterKind::Parallel, true},    {"co", 32, IterKind::Parallel, true},
        {"oh", 8, IterKind::Parallel, true},   {"ow", 8, IterKind::Parallel, true},
        {"ci", 8, IterKind::Reduction, false}, {"kh", 3, IterKind::Reduction, false},
        {"kw", 3, IterKind::Reduction, false}};
    return loops;
}

} // namespace

struct EvaluateRow {
    std::string rowLabel;
    IndexExpr e;
    std::vector<int64_t> point;
    int64_t expected;
};

std::vector<EvaluateRow> evaluateRows() {
    std::vector<EvaluateRow> rows;
    // loops: a, b
    rows.push_back(
        {"affine", expr({{0, 2, 1, 0}, {1, 1, 1, 0}}, -1), std::vector<int64_t>{3, 2}, int64_t(7)});
    rows.push_back({"padding stays negative", expr({{0, 2, 1, 0}, {1, 1, 1, 0}}, -1),
                    std::vector<int64_t>{0, 0}, int64_t(-1)});
    rows.push_back({"floor division of a negative sum", expr({{0, 1, 1, 0}, {1, -2, 1, 0}}, 0, 2),
                    std::vector<int64_t>{1, 1}, int64_t(-1)});
    rows.push_back(
        {"exact division", expr({{0, 1, 1, 0}}, 1, 2), std::vector<int64_t>{5, 0}, int64_t(3)});
    rows.push_back({"non-negative modulo", expr({{0, 1, 1, 0}}, -3, 1, 4),
                    std::vector<int64_t>{1, 0}, int64_t(2)});
    rows.push_back({"term div and mod", expr({{0, 8, 16, 0}, {1, 1, 1, 4}}),
                    std::vector<int64_t>{37, 6}, int64_t(18)});
    rows.push_back({"reshape block", expr({{0, 64, 1, 0}, {1, 1, 1, 0}}, 0, 12, 4),
                    std::vector<int64_t>{2, 30}, int64_t(1)});
    rows.push_back({"constant", expr({}, 5), std::vector<int64_t>{9, 9}, int64_t(5)});
    rows.push_back({"full is 0", full(), std::vector<int64_t>{4, 4}, int64_t(0)});
    return rows;
}

class EvaluateRows : public ::testing::TestWithParam<EvaluateRow> {};

TEST_P(EvaluateRows, evaluate) {
    IndexExpr e = GetParam().e;
    std::vector<int64_t> point = GetParam().point;
    int64_t expected = GetParam().expected;
    ASSERT_EQ(evaluateIndex(e, point), expected);
}

INSTANTIATE_TEST_SUITE_P(TestLoopNest, EvaluateRows, ::testing::ValuesIn(evaluateRows()),
                         test::RowName{});

struct RangeRow {
    std::string rowLabel;
    IndexExpr e;
    std::vector<int64_t> box;
    int64_t extent;
    int64_t lo;
    int64_t hi;
};

std::vector<RangeRow> rangeRows() {
    std::vector<RangeRow> rows;
    IndexExpr conv = expr({{0, 2, 1, 0}, {1, 1, 1, 0}}, -1);
    rows.push_back({"conv window", conv, std::vector<int64_t>{1, 2, 0, 2}, int64_t(16), int64_t(1),
                    int64_t(5)});
    rows.push_back({"clipped at 0", conv, std::vector<int64_t>{0, 1, 0, 2}, int64_t(16), int64_t(0),
                    int64_t(3)});
    rows.push_back({"clipped at the end", conv, std::vector<int64_t>{6, 7, 0, 2}, int64_t(14),
                    int64_t(11), int64_t(13)});
    rows.push_back({"all padding", conv, std::vector<int64_t>{0, 0, 0, 0}, int64_t(16), int64_t(0),
                    int64_t(-1)});
    rows.push_back({"negative coefficient", expr({{0, -1, 1, 0}}, 7),
                    std::vector<int64_t>{2, 4, 0, 0}, int64_t(8), int64_t(3), int64_t(5)});
    rows.push_back({"same loop cancels", expr({{0, 1, 1, 0}, {0, -1, 1, 0}}, 2),
                    std::vector<int64_t>{0, 9, 0, 0}, int64_t(8), int64_t(2), int64_t(2)});
    rows.push_back({"division", expr({{0, 1, 1, 0}}, 0, 4), std::vector<int64_t>{5, 13, 0, 0},
                    int64_t(8), int64_t(1), int64_t(3)});
    rows.push_back({"modulo without wrap", expr({{0, 1, 1, 0}}, 0, 1, 4),
                    std::vector<int64_t>{5, 6, 0, 0}, int64_t(4), int64_t(1), int64_t(2)});
    rows.push_back({"modulo that wraps", expr({{0, 1, 1, 0}}, 0, 1, 4),
                    std::vector<int64_t>{3, 5, 0, 0}, int64_t(4), int64_t(0), int64_t(3)});
    rows.push_back({"term modulo", expr({{0, 3, 1, 4}, {1, 1, 1, 0}}),
                    std::vector<int64_t>{5, 6, 0, 2}, int64_t(32), int64_t(3), int64_t(8)});
    rows.push_back(
        {"full", full(), std::vector<int64_t>{1, 1, 1, 1}, int64_t(7), int64_t(0), int64_t(6)});
    return rows;
}

class RangeRows : public ::testing::TestWithParam<RangeRow> {};

TEST_P(RangeRows, range) {
    IndexExpr e = GetParam().e;
    std::vector<int64_t> box = GetParam().box;
    int64_t extent = GetParam().extent;
    int64_t lo = GetParam().lo;
    int64_t hi = GetParam().hi;
    std::vector<Interval> ranges{{box[0], box[1]}, {box[2], box[3]}};
    ASSERT_EQ(indexRange(e, ranges, extent), (Interval{lo, hi}));
}

INSTANTIATE_TEST_SUITE_P(TestLoopNest, RangeRows, ::testing::ValuesIn(rangeRows()),
                         test::RowName{});

TEST(TestLoopNest, rangeOfAnEmptyBoxIsEmpty) {
    IndexExpr e = expr({{0, 1, 1, 0}});
    std::vector<Interval> ranges{{0, 3}, {2, 1}};
    ASSERT_TRUE(indexRange(e, ranges, 8).empty());
    ASSERT_TRUE(indexRange(full(), ranges, 8).empty());
    std::vector<Interval> fine{{0, 3}, {0, 1}};
    ASSERT_TRUE(indexRange(e, fine, 0).empty());
}

struct FormatRow {
    std::string rowLabel;
    IndexExpr e;
    std::string text;
};

std::vector<FormatRow> formatRows() {
    std::vector<FormatRow> rows;
    rows.push_back(
        {"conv", expr({{2, 2, 1, 0}, {5, 2, 1, 0}}, -1), std::string("2*oh + 2*kh - 1")});
    rows.push_back(
        {"grouped channel", expr({{1, 8, 16, 0}, {4, 1, 1, 0}}), std::string("co/16*8 + ci")});
    rows.push_back({"block", expr({{2, 64, 1, 0}, {3, 1, 1, 0}}, 0, 12, 4),
                    std::string("(64*oh + ow)/12 % 4")});
    rows.push_back({"single term div", expr({{2, 1, 1, 0}}, 0, 6), std::string("oh/6")});
    rows.push_back({"single term mod", expr({{2, 1, 1, 0}}, 0, 1, 6), std::string("oh % 6")});
    rows.push_back(
        {"term mod times", expr({{1, 4, 1, 2}, {3, 1, 1, 2}}), std::string("(co % 2)*4 + ow % 2")});
    rows.push_back({"transposed conv", expr({{2, 1, 1, 0}, {5, -1, 1, 0}}, 1, 2),
                    std::string("(oh - kh + 1)/2")});
    rows.push_back({"leading minus", expr({{2, -1, 1, 0}}, 7), std::string("-oh + 7")});
    rows.push_back({"constant", expr({}, 0), std::string("0")});
    rows.push_back({"full", full(), std::string("all")});
    return rows;
}

class FormatRows : public ::testing::TestWithParam<FormatRow> {};

TEST_P(FormatRows, format) {
    IndexExpr e = GetParam().e;
    std::string text = GetParam().text;
    ASSERT_EQ(formatIndex(e, convLoops()), text);
}

INSTANTIATE_TEST_SUITE_P(TestLoopNest, FormatRows, ::testing::ValuesIn(formatRows()),
                         test::RowName{});

TEST(TestLoopNest, dependence) {
    // X of a grouped conv: [n, co/16*8 + ci, 2*oh + kh - 1, all]
    AccessMap map{0,
                  {expr({{0, 1, 1, 0}}), expr({{1, 8, 16, 0}, {4, 1, 1, 0}}),
                   expr({{2, 2, 1, 0}, {5, 1, 1, 0}}, -1), full()}};
    ASSERT_EQ(dimsDependingOn(map, 0), std::vector<int>{0});
    ASSERT_EQ(dimsDependingOn(map, 1), std::vector<int>{1});
    ASSERT_EQ(dimsDependingOn(map, 2), std::vector<int>{2});
    ASSERT_EQ(dimsDependingOn(map, 3), std::vector<int>{}); // the full dim depends on nothing
    ASSERT_EQ(dimsDependingOn(map, 5), std::vector<int>{2});
    AccessMap twice{1, {expr({{2, 1, 1, 0}}), expr({{2, 1, 1, 0}}, 1)}};
    ASSERT_EQ(dimsDependingOn(twice, 2), (std::vector<int>{0, 1}));
    AccessMap ignored{2, {expr({{2, 0, 1, 0}}), expr({{2, 1, 1, 1}})}};
    ASSERT_EQ(dimsDependingOn(ignored, 2), std::vector<int>{});
}

TEST(TestLoopNest, accessForFindsTheSlot) {
    LoopNest nest;
    nest.inputs = {{0, {}}, {2, {full()}}};
    ASSERT_TRUE(nest.accessFor(0) == &nest.inputs[0]);
    ASSERT_TRUE(nest.accessFor(2) == &nest.inputs[1]);
    ASSERT_TRUE(nest.accessFor(1) == nullptr);
}
