// Brute force against textbook indexing: for every output element, the set of
// input elements an access map reads (union over the reduction loops, padding
// skipped) must equal the set a naive reference implementation of the op reads.
// The references (read_cases*.cpp) are written the way a textbook states each op (window
// loops with padding checks, numpy broadcasting, flat-index equality for
// reshapes, ONNX's reshape-transpose-reshape for DepthToSpace, ONNX's Resize
// coordinate formulas in floating point), not from the maps. The same cases
// then check indexRange over random sub-boxes of their loop spaces.

#include "read_cases.h"

#include <QtTest>

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

void addCaseRows() {
    QTest::addColumn<int>("index");
    for (size_t i = 0; i < cases().size(); ++i)
        QTest::newRow(cases()[i].name.c_str()) << static_cast<int>(i);
}

} // namespace

class TestOpReads : public QObject {
    Q_OBJECT
private slots:
    void readsMatchTextbookIndexing_data() { addCaseRows(); }
    void readsMatchTextbookIndexing() {
        QFETCH(int, index);
        const ReadCase& c = cases()[static_cast<size_t>(index)];
        ops::OpSemantics s = semantics(c.graph);
        QCOMPARE(s.nests.size(), c.graph.theOp().outputs.size());
        const ops::LoopNest& nest = s.nests[static_cast<size_t>(c.nest)];
        const Shape& out = c.graph.outputShape(c.nest);
        QCOMPARE(nest.inputs.size(), c.checks.size());
        for (const SlotCheck& check : c.checks) {
            const ops::AccessMap* map = nest.accessFor(check.slot);
            QVERIFY(map != nullptr);
            const Shape& in = c.graph.inputShape(check.slot);
            ReadSets actual = readsOfMap(nest, *map, in);
            ReadSets expected = readsOfReference(out, in, check.ref);
            QString mismatch = compareReads(actual, expected, out, c.conservative);
            QVERIFY2(mismatch.isEmpty(),
                     qPrintable(QStringLiteral("input %1: ").arg(check.slot) + mismatch));
        }
    }

    void conservativeMapsReadStrictlyMore() {
        // The conservative cases must really be strict supersets, not equal by luck.
        for (const ReadCase& c : cases()) {
            if (!c.conservative)
                continue;
            ops::OpSemantics s = semantics(c.graph);
            const ops::LoopNest& nest = s.nests[0];
            const Shape& in = c.graph.inputShape(0);
            ReadSets actual = readsOfMap(nest, *nest.accessFor(0), in);
            ReadSets expected = readsOfReference(c.graph.outputShape(0), in, c.checks[0].ref);
            QVERIFY2(actual != expected, c.name.c_str());
        }
    }

    void indexRangesHoldOnRandomBoxes_data() { addCaseRows(); }
    void indexRangesHoldOnRandomBoxes() {
        QFETCH(int, index);
        const ReadCase& c = cases()[static_cast<size_t>(index)];
        ops::OpSemantics s = semantics(c.graph);
        std::mt19937 rng(1234u + static_cast<unsigned>(index));
        QString failure = checkIndexRanges(s.nests[static_cast<size_t>(c.nest)], c.graph, rng, 40);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }
};

QTEST_GUILESS_MAIN(TestOpReads)
#include "test_op_reads.moc"
