// Index expressions: evaluation (floor division, non-negative modulo), interval
// ranges, dependence queries and printing.

#include "ops/loop_nest.h"

#include <QtTest>

using namespace stagecraft;
using namespace stagecraft::ops;

Q_DECLARE_METATYPE(stagecraft::ops::IndexExpr)
Q_DECLARE_METATYPE(std::vector<int64_t>)

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

class TestLoopNest : public QObject {
    Q_OBJECT
private slots:
    void evaluate_data() {
        QTest::addColumn<IndexExpr>("e");
        QTest::addColumn<std::vector<int64_t>>("point");
        QTest::addColumn<qint64>("expected");
        // loops: a, b
        QTest::newRow("affine") << expr({{0, 2, 1, 0}, {1, 1, 1, 0}}, -1)
                                << std::vector<int64_t>{3, 2} << qint64(7);
        QTest::newRow("padding stays negative")
            << expr({{0, 2, 1, 0}, {1, 1, 1, 0}}, -1) << std::vector<int64_t>{0, 0} << qint64(-1);
        QTest::newRow("floor division of a negative sum")
            << expr({{0, 1, 1, 0}, {1, -2, 1, 0}}, 0, 2) << std::vector<int64_t>{1, 1}
            << qint64(-1);
        QTest::newRow("exact division")
            << expr({{0, 1, 1, 0}}, 1, 2) << std::vector<int64_t>{5, 0} << qint64(3);
        QTest::newRow("non-negative modulo")
            << expr({{0, 1, 1, 0}}, -3, 1, 4) << std::vector<int64_t>{1, 0} << qint64(2);
        QTest::newRow("term div and mod")
            << expr({{0, 8, 16, 0}, {1, 1, 1, 4}}) << std::vector<int64_t>{37, 6} << qint64(18);
        QTest::newRow("reshape block") << expr({{0, 64, 1, 0}, {1, 1, 1, 0}}, 0, 12, 4)
                                       << std::vector<int64_t>{2, 30} << qint64(1);
        QTest::newRow("constant") << expr({}, 5) << std::vector<int64_t>{9, 9} << qint64(5);
        QTest::newRow("full is 0") << full() << std::vector<int64_t>{4, 4} << qint64(0);
    }
    void evaluate() {
        QFETCH(IndexExpr, e);
        QFETCH(std::vector<int64_t>, point);
        QFETCH(qint64, expected);
        QCOMPARE(evaluateIndex(e, point), expected);
    }

    void range_data() {
        QTest::addColumn<IndexExpr>("e");
        QTest::addColumn<std::vector<int64_t>>("box"); // lo0, hi0, lo1, hi1
        QTest::addColumn<qint64>("extent");
        QTest::addColumn<qint64>("lo");
        QTest::addColumn<qint64>("hi");
        IndexExpr conv = expr({{0, 2, 1, 0}, {1, 1, 1, 0}}, -1);
        QTest::newRow("conv window")
            << conv << std::vector<int64_t>{1, 2, 0, 2} << qint64(16) << qint64(1) << qint64(5);
        QTest::newRow("clipped at 0")
            << conv << std::vector<int64_t>{0, 1, 0, 2} << qint64(16) << qint64(0) << qint64(3);
        QTest::newRow("clipped at the end")
            << conv << std::vector<int64_t>{6, 7, 0, 2} << qint64(14) << qint64(11) << qint64(13);
        QTest::newRow("all padding")
            << conv << std::vector<int64_t>{0, 0, 0, 0} << qint64(16) << qint64(0) << qint64(-1);
        QTest::newRow("negative coefficient")
            << expr({{0, -1, 1, 0}}, 7) << std::vector<int64_t>{2, 4, 0, 0} << qint64(8)
            << qint64(3) << qint64(5);
        QTest::newRow("same loop cancels")
            << expr({{0, 1, 1, 0}, {0, -1, 1, 0}}, 2) << std::vector<int64_t>{0, 9, 0, 0}
            << qint64(8) << qint64(2) << qint64(2);
        QTest::newRow("division") << expr({{0, 1, 1, 0}}, 0, 4) << std::vector<int64_t>{5, 13, 0, 0}
                                  << qint64(8) << qint64(1) << qint64(3);
        QTest::newRow("modulo without wrap")
            << expr({{0, 1, 1, 0}}, 0, 1, 4) << std::vector<int64_t>{5, 6, 0, 0} << qint64(4)
            << qint64(1) << qint64(2);
        QTest::newRow("modulo that wraps")
            << expr({{0, 1, 1, 0}}, 0, 1, 4) << std::vector<int64_t>{3, 5, 0, 0} << qint64(4)
            << qint64(0) << qint64(3);
        QTest::newRow("term modulo")
            << expr({{0, 3, 1, 4}, {1, 1, 1, 0}}) << std::vector<int64_t>{5, 6, 0, 2} << qint64(32)
            << qint64(3) << qint64(8);
        QTest::newRow("full") << full() << std::vector<int64_t>{1, 1, 1, 1} << qint64(7)
                              << qint64(0) << qint64(6);
    }
    void range() {
        QFETCH(IndexExpr, e);
        QFETCH(std::vector<int64_t>, box);
        QFETCH(qint64, extent);
        QFETCH(qint64, lo);
        QFETCH(qint64, hi);
        std::vector<Interval> ranges{{box[0], box[1]}, {box[2], box[3]}};
        QCOMPARE(indexRange(e, ranges, extent), (Interval{lo, hi}));
    }

    void rangeOfAnEmptyBoxIsEmpty() {
        IndexExpr e = expr({{0, 1, 1, 0}});
        std::vector<Interval> ranges{{0, 3}, {2, 1}};
        QVERIFY(indexRange(e, ranges, 8).empty());
        QVERIFY(indexRange(full(), ranges, 8).empty());
        std::vector<Interval> fine{{0, 3}, {0, 1}};
        QVERIFY(indexRange(e, fine, 0).empty());
    }

    void format_data() {
        QTest::addColumn<IndexExpr>("e");
        QTest::addColumn<QString>("text");
        QTest::newRow("conv") << expr({{2, 2, 1, 0}, {5, 2, 1, 0}}, -1)
                              << QStringLiteral("2*oh + 2*kh - 1");
        QTest::newRow("grouped channel")
            << expr({{1, 8, 16, 0}, {4, 1, 1, 0}}) << QStringLiteral("co/16*8 + ci");
        QTest::newRow("block") << expr({{2, 64, 1, 0}, {3, 1, 1, 0}}, 0, 12, 4)
                               << QStringLiteral("(64*oh + ow)/12 % 4");
        QTest::newRow("single term div") << expr({{2, 1, 1, 0}}, 0, 6) << QStringLiteral("oh/6");
        QTest::newRow("single term mod")
            << expr({{2, 1, 1, 0}}, 0, 1, 6) << QStringLiteral("oh % 6");
        QTest::newRow("term mod times")
            << expr({{1, 4, 1, 2}, {3, 1, 1, 2}}) << QStringLiteral("(co % 2)*4 + ow % 2");
        QTest::newRow("transposed conv")
            << expr({{2, 1, 1, 0}, {5, -1, 1, 0}}, 1, 2) << QStringLiteral("(oh - kh + 1)/2");
        QTest::newRow("leading minus") << expr({{2, -1, 1, 0}}, 7) << QStringLiteral("-oh + 7");
        QTest::newRow("constant") << expr({}, 0) << QStringLiteral("0");
        QTest::newRow("full") << full() << QStringLiteral("all");
    }
    void format() {
        QFETCH(IndexExpr, e);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatIndex(e, convLoops())), text);
    }

    void dependence() {
        // X of a grouped conv: [n, co/16*8 + ci, 2*oh + kh - 1, all]
        AccessMap map{0,
                      {expr({{0, 1, 1, 0}}), expr({{1, 8, 16, 0}, {4, 1, 1, 0}}),
                       expr({{2, 2, 1, 0}, {5, 1, 1, 0}}, -1), full()}};
        QCOMPARE(dimsDependingOn(map, 0), std::vector<int>{0});
        QCOMPARE(dimsDependingOn(map, 1), std::vector<int>{1});
        QCOMPARE(dimsDependingOn(map, 2), std::vector<int>{2});
        QCOMPARE(dimsDependingOn(map, 3), std::vector<int>{}); // the full dim depends on nothing
        QCOMPARE(dimsDependingOn(map, 5), std::vector<int>{2});
        AccessMap twice{1, {expr({{2, 1, 1, 0}}), expr({{2, 1, 1, 0}}, 1)}};
        QCOMPARE(dimsDependingOn(twice, 2), (std::vector<int>{0, 1}));
        AccessMap ignored{2, {expr({{2, 0, 1, 0}}), expr({{2, 1, 1, 1}})}};
        QCOMPARE(dimsDependingOn(ignored, 2), std::vector<int>{});
    }

    void accessForFindsTheSlot() {
        LoopNest nest;
        nest.inputs = {{0, {}}, {2, {full()}}};
        QVERIFY(nest.accessFor(0) == &nest.inputs[0]);
        QVERIFY(nest.accessFor(2) == &nest.inputs[1]);
        QVERIFY(nest.accessFor(1) == nullptr);
    }
};

QTEST_GUILESS_MAIN(TestLoopNest)
#include "test_loop_nest.moc"
