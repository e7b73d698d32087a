// The key access maps of every op family, exactly as formatIndex prints them,
// with loop names, extents, kinds and bindable flags, and what match_dim needs
// from dimsDependingOn.

#include "coretestsupport.h"
#include "map_cases.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;
using ir::Shape;

namespace {

const std::vector<MapCase>& mapCases() {
    static const std::vector<MapCase> all = [] {
        std::vector<MapCase> cases = computeMapCases();
        for (MapCase& c : movementMapCases())
            cases.push_back(std::move(c));
        return cases;
    }();
    return all;
}

} // namespace

struct MapsPrintAsExpectedRow {
    std::string rowLabel;
    int index;
};

std::vector<MapsPrintAsExpectedRow> mapsPrintAsExpectedRows() {
    std::vector<MapsPrintAsExpectedRow> rows;
    for (size_t i = 0; i < mapCases().size(); ++i)
        rows.push_back({mapCases()[i].name.c_str(), static_cast<int>(i)});
    return rows;
}

class MapsPrintAsExpectedRows : public ::testing::TestWithParam<MapsPrintAsExpectedRow> {};

TEST_P(MapsPrintAsExpectedRows, mapsPrintAsExpected) {
    int index = GetParam().index;
    const MapCase& c = mapCases()[static_cast<size_t>(index)];
    ops::OpSemantics s = semantics(c.graph);
    ASSERT_EQ(s.nests.size(), c.graph.theOp().outputs.size());
    const ops::LoopNest& nest = s.nests[static_cast<size_t>(c.nest)];
    ASSERT_EQ(formatLoops(nest), c.loops);
    ASSERT_EQ(nest.inputs.size(), c.maps.size());
    for (const auto& [slot, text] : c.maps)
        ASSERT_EQ(formatMap(nest, slot), text);
    // output loops carry the output extents, reductions are never bindable
    const Shape& out = c.graph.outputShape(c.nest);
    ASSERT_EQ(static_cast<size_t>(nest.outputRank), out.size());
    std::string unbindable;
    for (size_t i = 0; i < nest.loops.size(); ++i) {
        const ops::LoopDim& loop = nest.loops[i];
        if (static_cast<int>(i) < nest.outputRank) {
            ASSERT_EQ(loop.extent, out[i]);
            ASSERT_EQ(loop.kind, ops::IterKind::Parallel);
            if (!loop.bindable)
                unbindable += (unbindable.empty() ? "" : " ") + loop.name;
        } else {
            ASSERT_EQ(loop.kind, ops::IterKind::Reduction);
            ASSERT_TRUE(!loop.bindable);
        }
    }
    ASSERT_EQ(unbindable, c.unbindable);
}

INSTANTIATE_TEST_SUITE_P(TestOpMaps, MapsPrintAsExpectedRows,
                         ::testing::ValuesIn(mapsPrintAsExpectedRows()), test::RowName{});

TEST(TestOpMaps, convLoopExtents) {
    const MapCase& c = mapCases()[0];
    ops::OpSemantics s = semantics(c.graph);
    std::vector<int64_t> extents;
    for (const ops::LoopDim& loop : s.nests[0].loops)
        extents.push_back(loop.extent);
    // n co oh ow | ci (= Cin/G) kh kw
    ASSERT_EQ(extents, (std::vector<int64_t>{1, 6, 3, 4, 2, 3, 3}));
    ASSERT_EQ(s.category, ops::Category::Complex);
}

TEST(TestOpMaps, convChannelFollowsTheGroupFormula) {
    // X channel = (co / (Cout/G)) * (Cin/G) + ci for every co and ci.
    ops::OpSemantics s = semantics(mapCases()[0].graph);
    const ops::IndexExpr& channel = s.nests[0].accessFor(0)->dims[1];
    int64_t cin = 4, cout = 6, group = 2;
    for (int64_t co = 0; co < cout; ++co)
        for (int64_t ci = 0; ci < cin / group; ++ci) {
            std::vector<int64_t> point{0, co, 0, 0, ci, 0, 0};
            ASSERT_EQ(ops::evaluateIndex(channel, point), co / (cout / group) * (cin / group) + ci);
        }
}

TEST(TestOpMaps, matchDimQueries) {
    ops::OpSemantics conv = semantics(mapCases()[0].graph);
    const ops::LoopNest& nest = conv.nests[0];
    ASSERT_EQ(ops::dimsDependingOn(*nest.accessFor(0), 2), std::vector<int>{2}); // oh -> X dim 2
    ASSERT_EQ(ops::dimsDependingOn(*nest.accessFor(0), 1),
              std::vector<int>{1}); // co -> X channel (groups)
    ASSERT_EQ(ops::dimsDependingOn(*nest.accessFor(1), 2), std::vector<int>{}); // oh never splits W
    ASSERT_EQ(ops::dimsDependingOn(*nest.accessFor(1), 1), std::vector<int>{0});

    ops::OpSemantics matmul = semantics(mapCases()[5].graph); // [2,1,3,4] x [5,4,6]
    const ops::LoopNest& mm = matmul.nests[0];
    int m = 2, n = 3;
    ASSERT_EQ(mm.loops[static_cast<size_t>(m)].name, std::string("m"));
    ASSERT_EQ(ops::dimsDependingOn(*mm.accessFor(0), m), std::vector<int>{2}); // A dim -2
    ASSERT_EQ(ops::dimsDependingOn(*mm.accessFor(1), m), std::vector<int>{});  // not B
    ASSERT_EQ(ops::dimsDependingOn(*mm.accessFor(1), n), std::vector<int>{2});
    ASSERT_EQ(ops::dimsDependingOn(*mm.accessFor(0), n), std::vector<int>{});
    ASSERT_EQ(ops::dimsDependingOn(*mm.accessFor(0), 1), std::vector<int>{}); // broadcast batch dim
}

TEST(TestOpMaps, splitAndTopKHaveOneNestPerOutput) {
    OpGraph split = OpBuilder("Split")
                        .input({2, 9})
                        .output({2, 2})
                        .output({2, 7})
                        .i("axis", 1)
                        .ints("split", {2, 7})
                        .build();
    ops::OpSemantics s = semantics(split);
    ASSERT_EQ(s.nests.size(), size_t(2));
    ASSERT_EQ(formatMap(s.nests[0], 0), std::string("d0, d1"));
    ASSERT_EQ(formatMap(s.nests[1], 0), std::string("d0, d1 + 2"));
    ASSERT_EQ(s.nests[1].loops[1].extent, int64_t(7));
    ASSERT_EQ(s.category, ops::Category::Injective);
}
