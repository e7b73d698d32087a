// How long the timeline takes to paint a frame while panning: about 100,000
// events (a synthetic timeline of 25 lanes, and ResNet-50 batch 1 on stcp920
// for comparison), shown offscreen at 1600x900, 300 frames panned by 7 px,
// at the fitted zoom and at 20x. Prints median, p95 and max ms per frame.
// Usage: QT_QPA_PLATFORM=offscreen bench_timeline [--frames N] [--png PATH]

#include "timeline/timeline_view.h"
#include "timeline_fixture.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace stagecraft;
using namespace stagecraft::views;

namespace {

/// \p lanes lanes of \p perLane back-to-back bars with random lengths and
/// gaps, cycling through 40 instances of 12 groups.
std::shared_ptr<const TimelineData> syntheticTimeline(int lanes, int perLane) {
    std::mt19937 random(42);
    std::exponential_distribution<double> length(1.0 / 80);
    std::exponential_distribution<double> gap(1.0 / 20);
    std::vector<TimelineLane> all;
    double makespan = 0;
    for (int l = 0; l < lanes; ++l) {
        TimelineLane lane{
            "lane " + std::to_string(l), l == 0 ? LaneKind::Control : LaneKind::Unit, -1, 0, {}};
        double t = 0;
        for (int i = 0; i < perLane; ++i) {
            TimelineBar bar;
            bar.start = t + gap(random);
            bar.end = bar.start + length(random);
            bar.task = kernel::TaskId(l * perLane + i);
            bar.instance = schedule::InstanceId(i * 40 / perLane);
            bar.group = partition::GroupId(bar.instance.value() / 4);
            lane.bars.push_back(bar);
            t = bar.end;
        }
        makespan = std::max(makespan, t);
        all.push_back(std::move(lane));
    }
    return std::make_shared<const TimelineData>(std::move(all), makespan);
}

struct Figures {
    double median = 0;
    double p95 = 0;
    double max = 0;
};

Figures panFrames(TimelineView& view, double zoom, int frames) {
    TimeAxisModel& model = *view.timeAxisModel();
    view.fitToView();
    TimeAxis axis = model.axis();
    axis.zoomAround(0, zoom);
    model.setAxis(axis, view.plotWidth());
    QImage frame(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> times;
    for (int i = 0; i < frames; ++i) {
        axis = model.axis();
        axis.pan(-7);
        model.setAxis(axis, view.plotWidth());
        QElapsedTimer timer;
        timer.start();
        view.viewport()->render(&frame);
        times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return {times[times.size() / 2], times[times.size() * 95 / 100], times.back()};
}

void measure(const char* name, TimelineView& view, int frames) {
    std::printf("%s: %zu bars on %d lanes\n", name, view.timeline()->barCount(),
                view.timeline()->laneCount());
    for (const double zoom : {1.0, 20.0}) {
        const Figures f = panFrames(view, zoom, frames);
        const TimelinePaintStats& s = view.lastPaintStats();
        std::printf("  zoom %4.0fx: median %6.2f  p95 %6.2f  max %6.2f ms/frame"
                    "  (last frame: %d bars, %d merged runs, %d labels)\n",
                    zoom, f.median, f.p95, f.max, s.bars, s.mergedRuns, s.labels);
    }
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    int frames = 300;
    const char* png = nullptr;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--frames") == 0)
            frames = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--png") == 0)
            png = argv[++i];
    }
    TimelineView view;
    view.resize(1600, 900);
    view.show();
    view.setTimeline(syntheticTimeline(25, 4000));
    measure("synthetic", view, frames);

    view.setResult(test::timelineResult("resnet50", 1, "stcp920"));
    measure("resnet50 b1/stcp920", view, frames);
    if (png != nullptr) {
        view.fitToView();
        QString error;
        if (!view.exportPng(QString::fromLocal8Bit(png), &error))
            std::fprintf(stderr, "%s\n", qPrintable(error));
    }
    return 0;
}
