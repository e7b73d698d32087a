// The instance view as a user meets it: what it draws matches the schedule,
// the toggles hide and show redundant edges and data-movement ops, clicks
// select, a selection made elsewhere lights up the right instances and
// scrolls to them, and the exports write real files.

#include "instance_fixture.h"
#include "instances/instance_canvas.h"
#include "instances/instance_text.h"
#include "instances/instance_view.h"
#include "support/strings.h"

#include <QAction>
#include <QLabel>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include <memory>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace Qt::StringLiterals;

namespace {

/// Paints the whole view (fitted) and returns what its canvas drew.
PaintStats paintAll(InstanceView& view) {
    view.fitToView();
    view.grab();
    return view.canvas()->lastPaintStats();
}

std::vector<schedule::InstanceId> highlightedIn(const InstanceView& view) {
    std::vector<schedule::InstanceId> ids;
    const auto& marks = view.canvas()->paintOptions().highlighted;
    for (schedule::InstanceId i : marks.ids())
        if (marks[i])
            ids.push_back(i);
    return ids;
}

QPoint centerOf(const InstanceView& view, const QRectF& scene) {
    return view.canvas()->mapFromScene(scene.center()).toPoint();
}

void zoomIn(InstanceView& view) {
    // Eight wheel notches around the top-left corner: the rest is out of view.
    QWidget* canvas = view.canvas();
    for (int i = 0; i < 8; ++i) {
        QWheelEvent wheel(QPointF(2, 2), canvas->mapToGlobal(QPointF(2, 2)), QPoint(),
                          QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(canvas, &wheel);
    }
}

} // namespace

class TestInstanceView : public QObject {
    Q_OBJECT
private slots:
    void init() {
        view_ = std::make_unique<InstanceView>();
        view_->resize(900, 700);
        view_->show();
        view_->setSelectionModel(&selection_);
        selection_.clear();
    }
    void cleanup() { view_.reset(); }

    void isFoundByItsObjectName() {
        QWidget parent;
        auto* view = new InstanceView(&parent);
        QCOMPARE(parent.findChild<InstanceView*>(u"instanceView"_s), view);
    }

    // Every mark the canvas draws is named under it: boxes and their order
    // badges, the inserted ops by kind, needed and redundant edges, the
    // selection and the marks of other tools.
    void theLegendNamesEveryMark() {
        auto* legend = view_->findChild<QLabel*>(u"instanceLegend"_s);
        QVERIFY(legend && legend->isVisible());
        const QString text = legend->text();
        for (const char* word : {"Boxes", "order", "ellipses", "concat", "copy", "redistribute",
                                 "needed", "redundant", "selected", "marked"})
            QVERIFY2(text.contains(QLatin1String(word)), word);
        QVERIFY(legend->height() < view_->height() / 6);
    }

    void drawsWhatTheScheduleHolds_data() {
        QTest::addColumn<QString>("zoo");
        QTest::addColumn<bool>("withEdges");
        QTest::newRow("fig3-chain") << u"fig3-chain"_s << true;
        // Fig. 2: the blocks fuse into one group of two instances, no edges.
        QTest::newRow("fig2-blocks") << u"fig2-blocks"_s << false;
    }
    void drawsWhatTheScheduleHolds() {
        QFETCH(QString, zoo);
        QFETCH(bool, withEdges);
        auto result = test::resultOf(zoo.toStdString());
        const auto& s = result->eval.schedule;
        const auto redundant = static_cast<int>(schedule::redundantEdges(s).size());
        view_->setResult(result);
        PaintStats stats = paintAll(*view_);
        QCOMPARE(stats.instances, static_cast<int>(s.instances.size()));
        QCOMPARE(stats.groups, static_cast<int>(s.groups.size()));
        QCOMPARE(stats.neededEdges, static_cast<int>(s.edges.size()));
        QCOMPARE(stats.redundantEdges, redundant);
        QCOMPARE(stats.moves, static_cast<int>(s.moves.size()));
        QCOMPARE(stats.moveLinks > 0, withEdges);
        QCOMPARE(redundant > 0 && !s.moves.empty(), withEdges); // something for the toggles to hide

        view_->setShowRedundantEdges(false);
        stats = paintAll(*view_);
        QCOMPARE(stats.redundantEdges, 0);
        QCOMPARE(stats.neededEdges, static_cast<int>(s.edges.size()));

        view_->findChild<QAction*>(u"showDataMovement"_s)->trigger(); // the toolbar's toggle
        QVERIFY(!view_->showsDataMovement());
        stats = paintAll(*view_);
        QCOMPARE(stats.moves, 0);
        QCOMPARE(stats.moveLinks, 0);
        QCOMPARE(stats.neededEdges, static_cast<int>(s.edges.size()));
        QCOMPARE(stats.instances, static_cast<int>(s.instances.size()));

        auto* bundle = view_->findChild<QAction*>(u"bundleDataMovement"_s);
        QVERIFY(bundle && !bundle->isEnabled());
        view_->setShowRedundantEdges(true);
        view_->setShowDataMovement(true);
        QVERIFY(view_->findChild<QAction*>(u"showRedundantEdges"_s)->isChecked());
        stats = paintAll(*view_);
        QCOMPARE(stats.redundantEdges, redundant);
        QCOMPARE(stats.moves, static_cast<int>(s.moves.size()));
        QCOMPARE(stats.bundles, 0);

        // Bundled: one node per pair of groups, the same edges.
        QVERIFY(bundle->isEnabled());
        bundle->trigger();
        QVERIFY(view_->bundlesDataMovement());
        stats = paintAll(*view_);
        QCOMPARE(stats.moves, 0);
        QCOMPARE(stats.bundles, static_cast<int>(view_->drawing()->layout.bundles.size()));
        QCOMPARE(stats.bundles > 0, !s.moves.empty());
        QVERIFY(stats.bundles <= static_cast<int>(s.moves.size()));
        QCOMPARE(stats.neededEdges, static_cast<int>(s.edges.size()));
        QCOMPARE(stats.moveLinks > 0, withEdges);
        if (!s.moves.empty()) {
            // Hovering one says what it holds; clicking it selects its first tensor.
            const MoveBundle& first = view_->drawing()->layout.bundles.front();
            const QPointF at = view_->canvas()->viewTransform().toWidget(first.rect.center());
            const QString tip = view_->canvas()->toolTipAt(at);
            QVERIFY2(tip.contains(u"ops"_s) || tip.contains(u"1 op"_s), qPrintable(tip));
            QTest::mouseClick(view_->canvas(), Qt::LeftButton, {}, at.toPoint());
            QCOMPARE(selection_.current().kind, Selection::Kind::Tensor);
            QCOMPARE(selection_.current().id,
                     s.moves[static_cast<size_t>(first.moves.front())].tensor.value());
        }
        view_->setBundleDataMovement(false);
        QCOMPARE(paintAll(*view_).moves, static_cast<int>(s.moves.size()));
    }

    void zoomingInDrawsOnlyWhatIsInView() {
        view_->setResult(test::resultOf("fig3-chain"));
        const int all = paintAll(*view_).instances;
        zoomIn(*view_);
        view_->grab();
        const PaintStats zoomed = view_->canvas()->lastPaintStats();
        QVERIFY2(zoomed.instances < all, QByteArray::number(zoomed.instances).constData());
    }

    void clickingAnInstanceSelectsIt() {
        auto result = test::resultOf("fig3-chain");
        view_->setResult(result);
        const auto& layout = view_->drawing()->layout;
        for (schedule::InstanceId id : {schedule::InstanceId(0), schedule::InstanceId(9),
                                        schedule::InstanceId::at(layout.instances.size() - 1)}) {
            const QPoint at = centerOf(*view_, layout.instances[id]);
            QTest::mouseClick(view_->canvas(), Qt::LeftButton, {}, at);
            QCOMPARE(selection_.current(), (Selection{Selection::Kind::Instance, id.value()}));
            QCOMPARE(highlightedIn(*view_), std::vector<schedule::InstanceId>{id});
        }
        const QRectF& groupB = layout.groups[partition::GroupId(1)].rect;
        QTest::mouseClick(
            view_->canvas(), Qt::LeftButton, {},
            view_->canvas()->mapFromScene(groupB.topLeft() + QPointF(3, 3)).toPoint());
        QCOMPARE(selection_.current(), (Selection{Selection::Kind::Group, 1}));
        QTest::mouseClick(view_->canvas(), Qt::LeftButton, {}, QPoint(1, 1));
        QCOMPARE(selection_.current(), Selection{});
    }

    void draggingPansWithoutSelecting() {
        view_->setResult(test::resultOf("fig3-chain"));
        const QPointF before = view_->canvas()->viewTransform().offset;
        const QPoint start =
            centerOf(*view_, view_->drawing()->layout.instances[schedule::InstanceId(0)]);
        QTest::mousePress(view_->canvas(), Qt::LeftButton, {}, start);
        QTest::mouseMove(view_->canvas(), start + QPoint(40, 30));
        QTest::mouseRelease(view_->canvas(), Qt::LeftButton, {}, start + QPoint(40, 30));
        QCOMPARE(view_->canvas()->viewTransform().offset, before + QPointF(40, 30));
        QCOMPARE(selection_.current(), Selection{});
    }

    void groupSelectedElsewhereLightsUpItsInstances() {
        auto result = test::resultOf("fig3-chain");
        view_->setResult(result);
        zoomIn(*view_);
        const auto& s = result->eval.schedule;
        const auto last = schedule::GroupId::at(s.groups.size() - 1);
        const QRectF& box = view_->drawing()->layout.groups.back().rect;
        QVERIFY(!view_->canvas()->rect().contains(centerOf(*view_, box)));
        selection_.select({Selection::Kind::Group, last.value()});
        QCOMPARE(highlightedIn(*view_), s.groups.back().instances);
        QCOMPARE(view_->canvas()->paintOptions().highlightedGroup, last);
        // Scrolled to: the group's box is in view now.
        QVERIFY(view_->canvas()->rect().contains(centerOf(*view_, box)));
    }

    void opSelectionLightsUpItsGroupsInstances() {
        auto result = test::resultOf("fig3-chain");
        view_->setResult(result);
        const auto& s = result->eval.schedule;
        const auto group = schedule::GroupId::at(s.groups.size() / 2);
        QVERIFY(group > schedule::GroupId(0));
        const ir::OpId op = s.partition.ops(group).back();
        selection_.select({Selection::Kind::Op, op.value()});
        QCOMPARE(highlightedIn(*view_), s.groups[group].instances);
        selection_.clear();
        QVERIFY(highlightedIn(*view_).empty());
        // A tensor stands for the group of the op producing it.
        selection_.select({Selection::Kind::Tensor, result->graph->op(op).outputs.front().value()});
        QCOMPARE(highlightedIn(*view_), s.groups[group].instances);
        selection_.select({Selection::Kind::Instance, 100000}); // not in this schedule
        QVERIFY(highlightedIn(*view_).empty());
    }

    void highlightsMarkInstancesByGroupAndOp() {
        HighlightModel marks;
        view_->setHighlightModel(&marks);
        auto result = test::resultOf("fig3-chain");
        view_->setResult(result);
        const auto& s = result->eval.schedule;
        const ir::OpId op = s.partition.ops(schedule::GroupId(1)).front();
        const schedule::InstanceId lone = s.groups[schedule::GroupId(3)].instances.front();
        Highlights wanted;
        wanted.ops = {op.value()};
        wanted.instances = {lone.value()};
        marks.set(wanted);
        std::vector<schedule::InstanceId> expected = s.groups[partition::GroupId(1)].instances;
        expected.push_back(lone);
        std::sort(expected.begin(), expected.end());
        std::vector<schedule::InstanceId> marked;
        const auto& flags = view_->canvas()->paintOptions().marked;
        for (schedule::InstanceId i : flags.ids())
            if (flags[i])
                marked.push_back(i);
        QCOMPARE(marked, expected);
        // The selection's highlight is untouched by marks.
        QVERIFY(highlightedIn(*view_).empty());
        marks.clear();
        QVERIFY(view_->canvas()->paintOptions().marked.empty());
    }

    // Marks come into sight together, centred, and stay so when the dock is
    // resized before the user zooms or pans (Studio sizes its docks after
    // the first result).
    void marksAreRevealedTogetherAndStayCentredOnResize() {
        HighlightModel marks;
        view_->setHighlightModel(&marks);
        auto result = test::resultOf("fig3-chain");
        view_->setResult(result);
        const auto& s = result->eval.schedule;
        Highlights wanted;
        for (schedule::GroupId g : {schedule::GroupId(0), schedule::GroupId(3)})
            for (schedule::InstanceId id : s.groups[g].instances)
                wanted.instances.push_back(id.value());
        marks.set(wanted);
        const InstanceCanvas* canvas = view_->canvas();
        QRectF all;
        for (int32_t id : wanted.instances)
            all = all.united(canvas->drawing()->layout.instances[schedule::InstanceId(id)]);
        auto centredAndInside = [&] {
            const QRectF shown(canvas->mapFromScene(all.topLeft()),
                               canvas->mapFromScene(all.bottomRight()));
            const QPointF offCentre = shown.center() - QRectF(canvas->rect()).center();
            return QRectF(canvas->rect()).contains(shown) && std::abs(offCentre.x()) < 2 &&
                   std::abs(offCentre.y()) < 2;
        };
        QVERIFY(centredAndInside());
        view_->resize(1300, 500);
        QTRY_VERIFY(canvas->width() > 1000);
        QVERIFY(centredAndInside());
    }

    void followsADarkPalette() {
        view_->setResult(test::resultOf("fig3-chain"));
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(30, 30, 30));
        dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
        dark.setColor(QPalette::Base, QColor(20, 20, 20));
        dark.setColor(QPalette::Text, QColor(235, 235, 235));
        view_->setPalette(dark);
        const QImage shown = view_->canvas()->grab().toImage();
        QVERIFY(view_->canvas()->paintOptions().colors.dark);
        QVERIFY(qGray(shown.pixel(1, shown.height() - 2)) < 60);
        view_->setPalette(QPalette());
        view_->canvas()->grab();
        QVERIFY(!view_->canvas()->paintOptions().colors.dark);
    }

    void aSmallScheduleShowsItsDataMovementUntilTheUserChooses() {
        ResultPtr fig3 = test::resultOf("fig3-chain");
        QVERIFY(fig3->eval.schedule.moves.size() <= InstanceView::kBusyMoves);
        view_->setResult(fig3);
        QVERIFY(view_->showsDataMovement() && view_->showsRedundantEdges());
        QVERIFY(!view_->bundlesDataMovement());
        auto* note = view_->findChild<QLabel*>(QStringLiteral("instanceBusyNote"));
        QVERIFY(note && !note->isVisible());
        // The user hides the data movement: a new result keeps that.
        auto* moves = view_->findChild<QAction*>(QStringLiteral("showDataMovement"));
        QVERIFY(moves);
        moves->trigger();
        QVERIFY(!view_->showsDataMovement());
        view_->setResult(test::resultOf("fig3-chain"));
        QVERIFY(!view_->showsDataMovement());
        QCOMPARE(view_->canvas()->drawing()->layout.moves.size(), size_t{0});
    }

    void selectionSurvivesANewResult() {
        selection_.select({Selection::Kind::Group, 1});
        view_->setResult(test::resultOf("fig3-chain"));
        QCOMPARE(view_->canvas()->paintOptions().highlightedGroup, schedule::GroupId(1));
    }

    void aNewResultKeepsTheZoomUnlessFitted() {
        view_->setResult(test::resultOf("fig3-chain"));
        const ViewTransform fitted = view_->canvas()->viewTransform();
        view_->setResult(test::resultOf("fig3-chain"));
        QCOMPARE(view_->canvas()->viewTransform().scale, fitted.scale);
        zoomIn(*view_);
        const ViewTransform zoomed = view_->canvas()->viewTransform();
        QVERIFY(zoomed.scale > fitted.scale);
        view_->setResult(test::resultOf("fig3-chain")); // as after an edit
        QCOMPARE(view_->canvas()->viewTransform().scale, zoomed.scale);
        QCOMPARE(view_->canvas()->viewTransform().offset, zoomed.offset);
        view_->fitToView();
        QCOMPARE(view_->canvas()->viewTransform().scale, fitted.scale);
    }

    void exportsWriteValidFiles() {
        QTemporaryDir dir;
        QString error;
        QVERIFY(!view_->exportSvg(dir.filePath(u"none.svg"_s), &error));
        QVERIFY(!error.isEmpty());
        view_->setResult(test::resultOf("fig3-chain"));
        const QString svg = dir.filePath(u"instances.svg"_s);
        QVERIFY2(view_->exportSvg(svg, &error), qPrintable(error));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QVERIFY(!renderer.defaultSize().isEmpty());
        const QString png = dir.filePath(u"instances.png"_s);
        QVERIFY2(view_->exportPng(png, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(QSizeF(image.size()), renderer.viewBoxF().size()); // both at scale 1
        QCOMPARE(image.pixelColor(0, 0), QColor(Qt::white));
        QVERIFY(!view_->exportPng(dir.filePath(u"missing/dir/x.png"_s), &error));
        QVERIFY(error.contains(u"cannot write"_s));
    }

    void textsReadLikeFigureNine() {
        schedule::DataMove copy;
        copy.kind = schedule::DataMove::Kind::Copy;
        copy.shape = {2, 28, 28, 512};
        copy.scope = schedule::Scope::LB;
        copy.fromScope = schedule::Scope::GB;
        copy.bind = {2, 4, 1, 1};
        QCOMPARE(moveTitle(copy), u"copy(LB,GB)"_s);
        QCOMPARE(moveDetails(copy),
                 (QStringList{u"shape=[2,28,28,512]"_s, u"scope=LB"_s, u"bind=[2,4]"_s}));
        schedule::DataMove redistribute = copy;
        redistribute.kind = schedule::DataMove::Kind::Redistribute;
        redistribute.bind = {2, 2, 1, 1};
        QCOMPARE(moveTitle(redistribute), u"redistribute over cores 0\u20133"_s);
        redistribute.bind = {};
        QCOMPARE(moveTitle(redistribute), u"redistribute onto core 0"_s);
        QVERIFY(moveDetails(redistribute).contains(u"bind: 1 core"_s));
        schedule::DataMove concat = copy;
        concat.kind = schedule::DataMove::Kind::Concat;
        QCOMPARE(moveTitle(concat), u"concat"_s);
    }

    void hoveringAnInstanceShowsItsFigures() {
        auto result = test::resultOf("fig3-chain");
        view_->setResult(result);
        const auto& a1 = result->eval.schedule.instances.front();
        const QString text = instanceToolTip(a1, view_->drawing()->orderPosition.front());
        const QStringList parts{
            u"a1\n"_s,
            u"shape "_s + bracketed(a1.shape),
            u"footprint "_s + QString::fromStdString(formatBytes(a1.footprintBytes)),
            u"bind "_s + bracketed(schedule::trimmed(a1.bind)),
            u"scope LB"_s,
            u"order position 12"_s}; // Fig. 7f: a8 a7 b4 a6 a5 b3 c2 a4 a3 b2 a2 a1 …
        for (const QString& part : parts)
            QVERIFY2(text.contains(part), qPrintable(text + u" lacks "_s + part));
        const QPoint at = centerOf(*view_, view_->drawing()->layout.instances.front());
        QHelpEvent help(QEvent::ToolTip, at, view_->canvas()->mapToGlobal(at));
        QApplication::sendEvent(view_->canvas(), &help);
        QCOMPARE(QToolTip::text(), text);
    }

private:
    SelectionModel selection_;
    std::unique_ptr<InstanceView> view_;
};

QTEST_MAIN(TestInstanceView)
#include "test_instance_view.moc"
