// The graph's overlays on the figure chain: each group's figure shaded from
// the palest (0) to the darkest (the largest), in the order of the figures;
// the split overlay counts instances; the scene draws what the shading says
// (a collapsed group's box is filled with it), the tool bar's box switches
// it, and the legend names the scale's ends or every group.

#include "common/group_colors.h"
#include "costs/cost_rows.h"
#include "costs/group_overlay.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/overlay_legend.h"
#include "graph_fixture.h"
#include "usage/busy_chart.h"

#include <QComboBox>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace stagecraft::views::graphview;

namespace {

constexpr int kTimeoutMs = 120000;

bool waitForLayout(GraphView& view) {
    if (!view.isLayingOut())
        return true;
    QSignalSpy finished(&view, &GraphView::layoutFinished);
    return finished.wait(kTimeoutMs);
}

partition::GroupId largest(const GroupShading& shading) {
    auto it = std::max_element(shading.values.begin(), shading.values.end());
    return partition::GroupId(static_cast<int32_t>(it - shading.values.begin()));
}

/// The colour a few pixels inside the left edge of \p item as the scene draws it.
QColor fillOf(GraphScene& scene, QGraphicsItem* item) {
    const QRectF box = item->mapRectToScene(item->shape().boundingRect());
    QImage image(box.size().toSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    scene.render(&painter, QRectF(QPointF(0, 0), box.size()), box);
    painter.end();
    return image.pixelColor(6, image.height() / 2);
}

bool close(const QColor& a, const QColor& b) {
    return std::abs(a.red() - b.red()) <= 3 && std::abs(a.green() - b.green()) <= 3 &&
           std::abs(a.blue() - b.blue()) <= 3;
}

} // namespace

class TestGraphOverlay : public QObject {
    Q_OBJECT

private slots:
    void figuresAreShadedInTheirOrder_data() {
        QTest::addColumn<int>("overlay");
        for (GroupOverlay o : {GroupOverlay::Time, GroupOverlay::DdrTraffic, GroupOverlay::Spills,
                               GroupOverlay::SplitFactor})
            QTest::newRow(qPrintable(groupOverlayTitle(o))) << static_cast<int>(o);
    }
    void figuresAreShadedInTheirOrder() {
        QFETCH(int, overlay);
        const ResultPtr result = test::resultOf("fig3-chain");
        const GroupShading shading = groupShading(*result, static_cast<GroupOverlay>(overlay));
        const size_t groups = result->eval.schedule.groups.size();
        QCOMPARE(shading.colors.size(), groups);
        QCOMPARE(shading.values.size(), groups);
        QVERIFY(shading.maxValue > 0);
        QCOMPARE(shading.colors[largest(shading).index()], shadeAt(1));
        // Along the scale green only falls: a larger figure is never paler.
        for (size_t a = 0; a < groups; ++a)
            for (size_t b = 0; b < groups; ++b)
                if (shading.values[a] < shading.values[b])
                    QVERIFY(shading.colors[a].green() >= shading.colors[b].green());
        QVERIFY(!shading.lowText.isEmpty() && !shading.highText.isEmpty());
    }

    void figuresAreTheCostTables() {
        const ResultPtr result = test::resultOf("fig3-chain");
        const GroupShading time = groupShading(*result, GroupOverlay::Time);
        const GroupShading spills = groupShading(*result, GroupOverlay::Spills);
        for (const CostRow& row : costRows(*result, CostGrain::Groups)) {
            QCOMPARE(time.values[static_cast<size_t>(row.selection.id)], row.breakdown.totalNs);
            QCOMPARE(spills.values[static_cast<size_t>(row.selection.id)],
                     static_cast<double>(row.spills));
        }
        const GroupShading split = groupShading(*result, GroupOverlay::SplitFactor);
        for (schedule::GroupId g : result->eval.schedule.groups.ids())
            QCOMPARE(split.values[g.index()],
                     static_cast<double>(result->eval.schedule.groups[g].instances.size()));
        QVERIFY(groupShading(*result, GroupOverlay::Groups).colors.empty());
    }

    void unitsColourByTheLongestComputingKind() {
        const ResultPtr result = test::resultOf("fig3-chain");
        const GroupShading units = groupShading(*result, GroupOverlay::Unit);
        const auto& schedule = result->eval.schedule;
        QCOMPARE(units.colors.size(), schedule.groups.size());
        // Brute force: compute time per (group, unit index) from the events.
        std::map<std::pair<size_t, int32_t>, double> times;
        for (const sim::Event& e : result->eval.sim.events) {
            const kernel::Task& task = result->eval.tasks.tasks[e.task];
            if (task.kind != kernel::TaskKind::Compute || task.kernel < 0)
                continue;
            const auto& k = result->eval.program.kernels[static_cast<size_t>(task.kernel)];
            times[{schedule.instances[k.instance].group.index(), task.unit}] += e.end - e.start;
        }
        const auto& units0 = result->arch.cluster.coreGroups.front().units;
        QStringList shown;
        for (const auto& [name, color] : units.categories)
            shown << name;
        // fig3-chain's convs run on the matrix unit.
        QVERIFY(shown.contains(QStringLiteral("matrix")));
        for (schedule::GroupId g : schedule.groups.ids()) {
            int32_t best = -2;
            double longest = -1;
            for (const auto& [key, t] : times)
                if (key.first == g.index() && t > longest) {
                    longest = t;
                    best = key.second;
                }
            if (best == -2) {
                QCOMPARE(units.colors[g.index()], noFigureColor());
                continue;
            }
            const std::string kind =
                best < 0 ? "fallback"
                         : std::string(arch::unitKindName(units0[static_cast<size_t>(best)].kind));
            QCOMPARE(units.colors[g.index()], unitKindColor(kind));
        }
        // The legend names the kinds.
        OverlayLegend legend;
        legend.setShading(units, {});
        for (const QString& name : shown)
            QVERIFY(legend.texts().contains(name));
    }

    void theSceneDrawsTheShadingAndTheBoxSwitchesIt() {
        GraphView view;
        view.resize(1000, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const ResultPtr result = test::resultOf("fig3-chain");
        view.setResult(result);
        QVERIFY(waitForLayout(view));
        view.collapseAll();
        QVERIFY(waitForLayout(view));
        auto* box = view.findChild<QComboBox*>(QStringLiteral("graphOverlay"));
        QVERIFY(box);
        QCOMPARE(box->count(), static_cast<int>(groupOverlayNames().size()));
        box->setCurrentIndex(static_cast<int>(GroupOverlay::Time));
        QCOMPARE(view.overlay(), GroupOverlay::Time);
        const GroupShading shading = groupShading(*result, GroupOverlay::Time);
        const partition::GroupId top = largest(shading);
        QGraphicsItem* node = view.scene()->groupNodeItem(top);
        QVERIFY(node);
        QCOMPARE(view.scene()->groupBase(top), shadeAt(1));
        QVERIFY2(close(fillOf(*view.scene(), node), shadeAt(1)),
                 qPrintable(fillOf(*view.scene(), node).name()));
        const QStringList texts = view.legend()->texts();
        QCOMPARE(texts.front(), shading.title);
        QVERIFY(texts.contains(shading.lowText) && texts.contains(shading.highText));
        QVERIFY(view.legend()->isVisible());
        // Back to each group's own colour, every group in the legend.
        view.setOverlay(GroupOverlay::Groups);
        QCOMPARE(box->currentIndex(), static_cast<int>(GroupOverlay::Groups));
        QCOMPARE(view.scene()->groupBase(top), groupColor(top));
        QVERIFY(close(fillOf(*view.scene(), node), groupColor(top)));
        for (schedule::GroupId g : result->eval.schedule.groups.ids())
            QVERIFY(view.legend()->texts().contains(
                QString::fromStdString(partition::Partition::label(g))));
    }

    void aClickFoldsTheLegendToItsTitleAndAnotherUnfoldsIt() {
        GraphView view;
        view.resize(1000, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setResult(test::resultOf("fig3-chain"));
        QVERIFY(waitForLayout(view));
        OverlayLegend* legend = view.legend();
        QVERIFY(legend->isVisible());
        const int unfolded = legend->height();
        const QStringList all = legend->texts();
        QVERIFY(all.size() > 2);
        QTest::mouseClick(legend, Qt::LeftButton, {}, QPoint(20, 12));
        QVERIFY(legend->isFolded());
        QCOMPARE(legend->texts(), QStringList{all.front()});
        QTRY_VERIFY(legend->height() < unfolded);
        // Folded stays folded when the overlay changes.
        view.setOverlay(GroupOverlay::Time);
        QVERIFY(legend->isFolded());
        QCOMPARE(legend->texts().size(), 1);
        QTest::mouseClick(legend, Qt::LeftButton, {}, QPoint(20, 12));
        QVERIFY(!legend->isFolded());
        QVERIFY(legend->texts().size() > 2);
        QTRY_COMPARE(legend->height(), legend->heightForWidth(legend->width()));
        QVERIFY(legend->height() > legend->minimumSizeHint().height());
    }

    void theNamesParse() {
        for (const QString& name : groupOverlayNames())
            QVERIFY(parseGroupOverlay(name));
        QVERIFY(!parseGroupOverlay(QStringLiteral("Time")));
        QCOMPARE(shadeAt(-1), shadeAt(0));
        QCOMPARE(shadeAt(2), shadeAt(1));
    }
};

QTEST_MAIN(TestGraphOverlay)
#include "test_graph_overlay.moc"
