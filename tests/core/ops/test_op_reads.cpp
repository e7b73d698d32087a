// Brute force against textbook indexing: for every output element, the set of
// input elements an access map reads (union over the reduction loops, padding
// skipped) must equal the set a naive reference implementation of the op reads.
// The references (read_cases*.cpp) are written the way a textbook states each op (window
// loops with padding checks, numpy broadcasting, flat-index equality for
// reshapes, ONNX's reshape-transpose-reshape for DepthToSpace, ONNX's Resize
// coordinate formulas in floating point), not from the maps. The same cases
// then check indexRange over random sub-boxes of their loop spaces.

#include "coretestsupport.h"
#include "read_cases.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::test;
using ir::Shape;

namespace {

std::vector<ReadCase> allCases() {
    std::vector<ReadCase> cases = computeReadCases();
    for (auto family : {movementReadCases, otherReadCases})
        for (ReadCase& c : family())
            cases.push_back(std::move(c));
    return cases;
}

const std::vector<ReadCase>& cases() {
    static const std::vector<ReadCase> all = allCases();
    return all;
}

/// One row per case, named after it; the parameter is the index in cases().
class CaseRows : public ::testing::TestWithParam<int> {};

std::string caseName(const ::testing::TestParamInfo<int>& row) {
    return paramName(cases()[static_cast<size_t>(row.param)].name);
}

} // namespace

TEST_P(CaseRows, readsMatchTextbookIndexing) {
    int index = GetParam();
    const ReadCase& c = cases()[static_cast<size_t>(index)];
    ops::OpSemantics s = semantics(c.graph);
    ASSERT_EQ(s.nests.size(), c.graph.theOp().outputs.size());
    const ops::LoopNest& nest = s.nests[static_cast<size_t>(c.nest)];
    const Shape& out = c.graph.outputShape(c.nest);
    ASSERT_EQ(nest.inputs.size(), c.checks.size());
    for (const SlotCheck& check : c.checks) {
        const ops::AccessMap* map = nest.accessFor(check.slot);
        ASSERT_TRUE(map != nullptr);
        const Shape& in = c.graph.inputShape(check.slot);
        ReadSets actual = readsOfMap(nest, *map, in);
        ReadSets expected = readsOfReference(out, in, check.ref);
        std::string mismatch = compareReads(actual, expected, out, c.conservative);
        ASSERT_TRUE(mismatch.empty()) << ("input " + std::to_string(check.slot) + ": " + mismatch);
    }
}

TEST(TestOpReads, conservativeMapsReadStrictlyMore) {
    // The conservative cases must really be strict supersets, not equal by luck.
    for (const ReadCase& c : cases()) {
        if (!c.conservative)
            continue;
        ops::OpSemantics s = semantics(c.graph);
        const ops::LoopNest& nest = s.nests[0];
        const Shape& in = c.graph.inputShape(0);
        ReadSets actual = readsOfMap(nest, *nest.accessFor(0), in);
        ReadSets expected = readsOfReference(c.graph.outputShape(0), in, c.checks[0].ref);
        ASSERT_TRUE(actual != expected) << c.name.c_str();
    }
}

TEST_P(CaseRows, indexRangesHoldOnRandomBoxes) {
    int index = GetParam();
    const ReadCase& c = cases()[static_cast<size_t>(index)];
    ops::OpSemantics s = semantics(c.graph);
    std::mt19937 rng(1234u + static_cast<unsigned>(index));
    std::string failure = checkIndexRanges(s.nests[static_cast<size_t>(c.nest)], c.graph, rng, 40);
    ASSERT_TRUE(failure.empty()) << (failure);
}

INSTANTIATE_TEST_SUITE_P(TestOpReads, CaseRows,
                         ::testing::Range(0, static_cast<int>(cases().size())), caseName);
