// The Graphviz-free layout of the instance DAG as data, on the paper's
// running example (fig3-chain, Fig. 3/6/8 on the teaching architecture) and
// on fig2-blocks. The rule for edges: every instance edge joins a group of a
// strictly lower layer to one of a higher layer and points down (the
// producer box lies entirely above the consumer box); no edge stays within
// a layer. Data-movement links point down as well, one by one or bundled by
// pair of groups.

#include "instance_fixture.h"
#include "instances/instance_layout.h"
#include "instances/view_transform.h"
#include "layout_checks.h"

#include <QtTest>

#include <algorithm>
#include <set>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace Qt::StringLiterals;

class TestInstanceLayout : public QObject {
    Q_OBJECT
private slots:
    void oneBoxPerInstanceAndGroup_data() { specs(); }
    void oneBoxPerInstanceAndGroup() {
        QFETCH(QString, zoo);
        auto result = resultNamed(zoo);
        const auto& s = result->eval.schedule;
        InstanceLayout layout = layoutInstances(*result, {});
        QCOMPARE(layout.instances.size(), s.instances.size());
        QCOMPARE(layout.groups.size(), s.groups.size());
        QCOMPARE(layout.needed.size(), s.edges.size());
        QCOMPARE(layout.redundant.size(), schedule::redundantEdges(s).size());
        QCOMPARE(layout.moves.size(), s.moves.size());
        for (const QRectF& box : layout.instances)
            QVERIFY(layout.bounds.contains(box));
    }

    void edgesPointDownAcrossLayers_data() { specs(); }
    void edgesPointDownAcrossLayers() {
        QFETCH(QString, zoo);
        auto result = resultNamed(zoo);
        for (bool moves : {false, true}) {
            InstanceLayout layout = layoutInstances(*result, {.showMoves = moves});
            const std::string upward = test::firstUpwardEdge(result->eval.schedule, layout);
            QVERIFY2(upward.empty(), upward.c_str());
        }
    }

    void instancesInIndexOrderInsideTheirGroup_data() { specs(); }
    void instancesInIndexOrderInsideTheirGroup() {
        QFETCH(QString, zoo);
        auto result = resultNamed(zoo);
        for (int columns : {16, 3}) { // 3 wraps fig3-chain's a1..a8 into rows
            InstanceLayout layout = layoutInstances(*result, {.maxColumns = columns});
            const std::string misplaced =
                test::firstMisplacedInstance(result->eval.schedule, layout);
            QVERIFY2(misplaced.empty(), misplaced.c_str());
        }
    }

    void boxesNeverOverlap_data() { specs(); }
    void boxesNeverOverlap() {
        QFETCH(QString, zoo);
        auto result = resultNamed(zoo);
        for (bool moves : {false, true})
            for (int columns : {16, 3}) {
                InstanceLayout layout =
                    layoutInstances(*result, {.showMoves = moves, .maxColumns = columns});
                const std::string overlap = test::firstOverlap(test::separateBoxes(layout));
                QVERIFY2(overlap.empty(), overlap.c_str());
            }
    }

    void theRunningExampleReadsLikeFigureSix() {
        auto result = resultNamed(u"fig3-chain"_s);
        const auto& s = result->eval.schedule;
        InstanceLayout layout = layoutInstances(*result, {.showMoves = false});
        // Fig. 6: a1..a8 over b1..b4 over c1 c2 over d1, one group per layer.
        QCOMPARE(layout.layers.size(), s.groups.size());
        for (partition::GroupId g : s.groups.ids())
            QCOMPARE(layout.groups[g].layer, g.value());
        const auto& a = s.groups.front().instances;
        QCOMPARE(s.instances[a.front()].label, std::string("a1"));
        for (size_t k = 1; k < a.size(); ++k) {
            const QRectF& left = layout.instances[a[k - 1]];
            const QRectF& right = layout.instances[a[k]];
            QCOMPARE(right.top(), left.top());
            QVERIFY(right.left() > left.right());
        }
    }

    void movesSitBetweenProducerAndConsumer() {
        auto result = resultNamed(u"fig3-chain"_s);
        const auto& s = result->eval.schedule;
        QVERIFY(!s.moves.empty()); // Fig. 8: concats before b, c and d
        InstanceLayout layout = layoutInstances(*result, {});
        for (size_t m = 0; m < s.moves.size(); ++m) {
            const QRectF& move = layout.moves[m].rect;
            QVERIFY(move.bottom() < layout.instances[s.moves[m].consumer].top());
            for (schedule::InstanceId source : s.moves[m].sources)
                QVERIFY(layout.instances[source].bottom() < move.top());
        }
        // Every needed edge that data runs through ops is drawn through them.
        for (const EdgeLine& edge : layout.needed)
            if (edge.viaMoves)
                QVERIFY(std::any_of(s.moves.begin(), s.moves.end(), [&](const auto& move) {
                    return move.consumer == edge.to &&
                           std::count(move.sources.begin(), move.sources.end(), edge.from) > 0;
                }));
    }

    void bundlesHoldEveryMoveOnceBetweenTheirGroups_data() {
        QTest::addColumn<QString>("zoo");
        QTest::newRow("fig3-chain") << u"fig3-chain"_s;
        QTest::newRow("resnet-reduced") << u"resnet-reduced"_s;
    }
    void bundlesHoldEveryMoveOnceBetweenTheirGroups() {
        QFETCH(QString, zoo);
        auto result = resultNamed(zoo);
        const auto& s = result->eval.schedule;
        QVERIFY(!s.moves.empty());
        InstanceLayout layout = layoutInstances(*result, {.bundleMoves = true});
        QVERIFY(layout.moves.empty());
        QVERIFY(!layout.bundles.empty() && layout.bundles.size() <= s.moves.size());
        std::vector<int> seen(s.moves.size(), 0);
        for (const MoveBundle& bundle : layout.bundles) {
            const QRectF& consumerBox = layout.groups[bundle.to].rect;
            QVERIFY(bundle.rect.bottom() < consumerBox.top());
            if (bundle.from != partition::kNoGroup && bundle.from != bundle.to)
                QVERIFY(layout.groups[bundle.from].rect.bottom() < bundle.rect.top());
            for (int32_t m : bundle.moves) {
                const schedule::DataMove& move = s.moves[static_cast<size_t>(m)];
                ++seen[static_cast<size_t>(m)];
                QCOMPARE(s.instances[move.consumer].group, bundle.to);
                QCOMPARE(move.sources.empty() ? partition::kNoGroup
                                              : s.instances[move.sources.front()].group,
                         bundle.from);
            }
        }
        QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
        // One pair, one bundle.
        std::set<std::pair<int32_t, int32_t>> pairs;
        for (const MoveBundle& bundle : layout.bundles)
            QVERIFY(pairs.emplace(bundle.from.value(), bundle.to.value()).second);
        // The edges run through them as through the ops, every link down,
        // nothing overlaps, and a bundle is hit where it is drawn.
        InstanceLayout each = layoutInstances(*result, {});
        for (size_t e = 0; e < layout.needed.size(); ++e)
            QCOMPARE(layout.needed[e].viaMoves, each.needed[e].viaMoves);
        QVERIFY(!layout.moveLinks.empty());
        const std::string upward = test::firstUpwardEdge(s, layout);
        QVERIFY2(upward.empty(), upward.c_str());
        const std::string overlap = test::firstOverlap(test::separateBoxes(layout));
        QVERIFY2(overlap.empty(), overlap.c_str());
        QCOMPARE(
            hitTest(layout, layout.bundles.back().rect.center()),
            (LayoutHit{LayoutHit::Kind::Bundle, static_cast<int32_t>(layout.bundles.size() - 1)}));
        QVERIFY(test::sameLayout(layout, layoutInstances(*result, {.bundleMoves = true})));
    }

    void withoutMovesNoBandsAndNoDetours() {
        auto result = resultNamed(u"fig3-chain"_s);
        InstanceLayout layout = layoutInstances(*result, {.showMoves = false});
        QVERIFY(layout.moves.empty());
        QVERIFY(layout.moveLinks.empty());
        for (const EdgeLine& edge : layout.needed)
            QVERIFY(!edge.viaMoves);
        InstanceLayout withMoves = layoutInstances(*result, {});
        QVERIFY(withMoves.bounds.height() > layout.bounds.height());
    }

    void deterministic_data() { specs(); }
    void deterministic() {
        QFETCH(QString, zoo);
        auto result = resultNamed(zoo);
        QVERIFY(test::sameLayout(layoutInstances(*result, {}), layoutInstances(*result, {})));
        // A second pipeline run of the same model gives the same picture.
        auto again = test::resultOf(zoo.toStdString());
        QVERIFY(test::sameLayout(layoutInstances(*result, {}), layoutInstances(*again, {})));
    }

    void hitTestFindsWhatIsThere() {
        auto result = resultNamed(u"fig3-chain"_s);
        InstanceLayout layout = layoutInstances(*result, {});
        const QRectF& a3 = layout.instances[schedule::InstanceId(2)];
        QCOMPARE(hitTest(layout, a3.center()), (LayoutHit{LayoutHit::Kind::Instance, 2}));
        const QRectF& d = layout.groups.back().rect;
        QCOMPARE(
            hitTest(layout, d.topLeft() + QPointF(2, 2)),
            (LayoutHit{LayoutHit::Kind::Group, static_cast<int32_t>(layout.groups.size() - 1)}));
        QCOMPARE(hitTest(layout, layout.moves.front().rect.center()),
                 (LayoutHit{LayoutHit::Kind::Move, 0}));
        // The corner of an ellipse's bounding box is outside the ellipse.
        const QPointF corner = layout.moves.front().rect.topLeft() + QPointF(1, 1);
        QVERIFY(hitTest(layout, corner).kind != LayoutHit::Kind::Move);
        QCOMPARE(hitTest(layout, layout.bounds.topLeft() - QPointF(10, 10)), LayoutHit{});
    }

    void zoomKeepsThePointUnderTheCursor_data() {
        QTest::addColumn<double>("scale");
        QTest::addColumn<QPointF>("offset");
        QTest::addColumn<QPointF>("cursor");
        QTest::addColumn<double>("factor");
        QTest::newRow("in at the origin") << 1.0 << QPointF() << QPointF() << 2.0;
        QTest::newRow("in off center") << 0.5 << QPointF(30, -20) << QPointF(400, 300) << 1.2;
        QTest::newRow("out") << 2.0 << QPointF(-100, 50) << QPointF(10, 700) << 0.25;
        QTest::newRow("clamped") << 7.0 << QPointF(5, 5) << QPointF(200, 100) << 10.0;
    }
    void zoomKeepsThePointUnderTheCursor() {
        QFETCH(double, scale);
        QFETCH(QPointF, offset);
        QFETCH(QPointF, cursor);
        QFETCH(double, factor);
        ViewTransform transform{scale, offset};
        const QPointF anchor = transform.toScene(cursor);
        transform.zoomAround(cursor, factor);
        QCOMPARE(transform.scale, std::min(scale * factor, ViewTransform::kMaxScale));
        QCOMPARE(transform.toWidget(anchor), cursor);
        QCOMPARE(transform.toScene(transform.toWidget(QPointF(12, 34))), QPointF(12, 34));
    }

    void fitShowsEverythingCentered() {
        ViewTransform transform;
        const QRectF scene(-500, 100, 1000, 4000);
        transform.fit(scene, QSizeF(800, 600), 10);
        QCOMPARE(transform.scale, 580.0 / 4000); // height bound
        QCOMPARE(transform.toWidget(scene.center()), QPointF(400, 300));
        const QRectF shown = transform.toScene(QRectF(0, 0, 800, 600));
        QVERIFY(shown.contains(scene));
        transform.pan(QPointF(15, -5));
        QCOMPARE(transform.toWidget(scene.center()), QPointF(415, 295));
    }

    void fitReadableFitsWidthOfTallScenes_data() {
        QTest::addColumn<QRectF>("scene");
        QTest::addColumn<double>("scale");
        QTest::addColumn<bool>("wholeShown");
        // Fits whole: the same as fit().
        QTest::newRow("small") << QRectF(0, 0, 400, 300) << 580.0 / 300 << true;
        QTest::newRow("moderately tall") << QRectF(0, 0, 1000, 2000) << 580.0 / 2000 << true;
        // ResNet-50's strip: the width is fitted (0.2 → clamped up to 0.25), top shown.
        QTest::newRow("tall strip") << QRectF(-100, 50, 3900, 46000) << 0.25 << false;
        // Narrow and tall: 1:1 at most.
        QTest::newRow("narrow tall") << QRectF(0, 0, 300, 90000) << 1.0 << false;
    }

    void fitReadableFitsWidthOfTallScenes() {
        QFETCH(QRectF, scene);
        QFETCH(double, scale);
        QFETCH(bool, wholeShown);
        ViewTransform transform;
        transform.fitReadable(scene, QSizeF(800, 600), 10);
        QCOMPARE(transform.scale, std::min(scale, ViewTransform::kMaxScale));
        const QRectF shown = transform.toScene(QRectF(0, 0, 800, 600));
        QCOMPARE(shown.contains(scene), wholeShown);
        if (!wholeShown) {
            QCOMPARE(transform.toWidget(scene.topLeft()).y(), 10.0); // the top, under the margin
            QCOMPARE(transform.toWidget(scene.center()).x(), 400.0); // centered across
        }
    }

private:
    static void specs() {
        QTest::addColumn<QString>("zoo");
        QTest::newRow("fig3-chain") << u"fig3-chain"_s;
        QTest::newRow("fig2-blocks") << u"fig2-blocks"_s;
    }

    static views::ResultPtr resultNamed(const QString& zoo) {
        return test::resultOf(zoo.toStdString());
    }
};

QTEST_GUILESS_MAIN(TestInstanceLayout)
#include "test_instance_layout.moc"
