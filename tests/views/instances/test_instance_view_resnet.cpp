// The instance view at scale: ResNet-50 with 16 samples per cluster on
// stcp920 at the LB level (~1,400 instances, ~52,000 instance edges, ~6,000
// data-movement ops). The layout must finish without overlaps and the whole
// drawing must paint; the times are reported, not asserted. It opens with
// the data movement bundled by pair of groups, as every schedule of more
// than kBusyMoves.

#include "instance_fixture.h"
#include "instances/instance_canvas.h"
#include "instances/instance_view.h"
#include "layout_checks.h"

#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QtTest>

using namespace stagecraft;
using namespace stagecraft::views;

class TestInstanceViewResnet : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        result_ = test::resultOf("resnet50", 16, "stcp920");
        const auto& s = result_->eval.schedule;
        qInfo("resnet50 b16 stcp920: %zu groups, %zu instances, %zu needed edges, %zu redundant "
              "edges, %zu moves",
              s.groups.size(), s.instances.size(), s.edges.size(),
              schedule::redundantEdges(s).size(), s.moves.size());
    }

    void layoutFinishesWithoutOverlaps_data() {
        QTest::addColumn<bool>("moves");
        QTest::addColumn<bool>("bundled");
        QTest::newRow("with data movement") << true << false;
        QTest::newRow("with data movement bundled") << true << true;
        QTest::newRow("without data movement") << false << false;
    }
    void layoutFinishesWithoutOverlaps() {
        QFETCH(bool, moves);
        QFETCH(bool, bundled);
        QElapsedTimer timer;
        timer.start();
        InstanceLayout layout =
            layoutInstances(*result_, {.showMoves = moves, .bundleMoves = bundled});
        qInfo("layout: %lld ms (%zu layers, bounds %.0f x %.0f)", timer.elapsed(),
              layout.layers.size(), layout.bounds.width(), layout.bounds.height());
        const auto& s = result_->eval.schedule;
        QCOMPARE(layout.instances.size(), s.instances.size());
        QCOMPARE(layout.moves.size(), moves && !bundled ? s.moves.size() : size_t{0});
        QCOMPARE(layout.bundles.empty(), !bundled);
        if (bundled)
            qInfo("%zu moves in %zu bundles", s.moves.size(), layout.bundles.size());
        const std::string overlap = test::firstOverlap(test::separateBoxes(layout));
        QVERIFY2(overlap.empty(), overlap.c_str());
        const std::string misplaced = test::firstMisplacedInstance(s, layout);
        QVERIFY2(misplaced.empty(), misplaced.c_str());
        const std::string upward = test::firstUpwardEdge(s, layout);
        QVERIFY2(upward.empty(), upward.c_str());
    }

    void wholeDrawingPaints() {
        InstanceView view;
        view.resize(1600, 1000);
        view.show();
        QElapsedTimer timer;
        timer.start();
        view.setResult(result_);
        qInfo("setResult (layout and labels): %lld ms", timer.elapsed());
        // Thousands of data-movement ops: it opens with them bundled by
        // pair of groups and without the redundant edges, and says so.
        const auto& moves = result_->eval.schedule.moves;
        QVERIFY(moves.size() > InstanceView::kBusyMoves);
        QVERIFY(view.showsDataMovement() && view.bundlesDataMovement());
        QVERIFY(!view.showsRedundantEdges());
        QCOMPARE(view.canvas()->drawing()->layout.moves.size(), size_t{0});
        const size_t bundles = view.canvas()->drawing()->layout.bundles.size();
        QVERIFY(bundles > 0 && bundles < moves.size() / 4);
        auto* note = view.findChild<QLabel*>(QStringLiteral("instanceBusyNote"));
        QVERIFY(note && note->text().contains(QString::number(moves.size())));
        // One by one, they all paint.
        view.setBundleDataMovement(false);
        view.setShowRedundantEdges(true);
        view.fitToView(); // a first result opens at a readable zoom, not whole
        timer.restart();
        QImage image(view.canvas()->size(), QImage::Format_RGB32);
        view.canvas()->render(&image);
        qInfo("full paint, fitted %dx%d: %lld ms", image.width(), image.height(), timer.elapsed());
        const PaintStats stats = view.canvas()->lastPaintStats();
        const auto& s = result_->eval.schedule;
        QCOMPARE(stats.instances, static_cast<int>(s.instances.size()));
        QCOMPARE(stats.neededEdges, static_cast<int>(s.edges.size()));
        QCOMPARE(stats.moves, static_cast<int>(s.moves.size()));

        // Zoomed in to full detail around one instance: only the neighbourhood paints.
        view.canvas()->centerOn(
            view.drawing()
                ->layout.instances[schedule::InstanceId::at(s.instances.size() / 2)]
                .center());
        const QPointF middle = view.canvas()->rect().center();
        while (view.canvas()->viewTransform().scale < 1) {
            QWheelEvent wheel(middle, view.canvas()->mapToGlobal(middle), QPoint(), QPoint(0, 120),
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(view.canvas(), &wheel);
        }
        timer.restart();
        view.canvas()->render(&image);
        const PaintStats zoomed = view.canvas()->lastPaintStats();
        qInfo("detailed paint at scale %.2f: %lld ms, %d instances, %d needed edges",
              view.canvas()->viewTransform().scale, timer.elapsed(), zoomed.instances,
              zoomed.neededEdges);
        QVERIFY(zoomed.instances > 0 && zoomed.instances < stats.instances);

        // Panning moves the drawn pixels and paints only the uncovered strip.
        QTest::mousePress(view.canvas(), Qt::LeftButton, {}, middle.toPoint());
        QTest::mouseMove(view.canvas(), middle.toPoint() + QPoint(0, 10));
        QApplication::processEvents();
        timer.restart();
        QTest::mouseMove(view.canvas(), middle.toPoint() + QPoint(0, 30));
        QApplication::processEvents();
        qInfo("pan by 20 px: %lld ms, %d needed edges repainted", timer.elapsed(),
              view.canvas()->lastPaintStats().neededEdges);
        QTest::mouseRelease(view.canvas(), Qt::LeftButton, {}, middle.toPoint() + QPoint(0, 30));

        view.setShowDataMovement(false);
        view.fitToView();
        timer.restart();
        view.canvas()->render(&image);
        qInfo("full paint without data movement (first shown, laid out before): %lld ms",
              timer.elapsed());
        QCOMPARE(view.canvas()->lastPaintStats().redundantEdges,
                 static_cast<int>(schedule::redundantEdges(s).size()));
    }

private:
    ResultPtr result_;
};

QTEST_MAIN(TestInstanceViewResnet)
#include "test_instance_view_resnet.moc"
