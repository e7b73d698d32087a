// bench_verdicts' bounds (bench_verdicts.h, boundsTable): where graphturbo
// stays under 40 % of its roofline at its optimum, what bounds it, in
// numbers. Two bounds no schedule of §4.1's tiles escapes: the array's fill
// (the roofline with every contraction at the share of its unit's array it
// fills, sim::rooflineAtFillUs) and the weight traffic (how many times each
// weight byte crosses a path per cluster and iteration, one count per hop:
// DDR→GB→LB once is 2), beside the time weight loads were in progress and
// the part of it no compute hid.

#include "bench_verdicts.h"
#include "partition/slices.h"
#include "sim/roofline.h"

#include <cstdio>

namespace stagecraft::bench {

namespace {

constexpr double kTarget = 0.40;

void boundsRow(const Row& row, const sim::Report& gt, ir::DType precision, const arch::Arch& arch) {
    auto graph = graphOf(row, precision, gt.perCluster);
    if (!graph.ok()) {
        std::printf("| %s | %s | | | | | | | | |\n", row.label.c_str(),
                    graph.error().message().c_str());
        return;
    }
    auto semantics = partition::SemanticsCache::build(**graph);
    if (!semantics.ok())
        return;
    schedule::ClusterPlan clusters;
    clusters.clusters = arch.clusters;
    clusters.perCluster = gt.perCluster;
    clusters.iterations = gt.iterations;
    clusters.totalBatch = gt.totalBatch;
    double atFillUs = sim::rooflineAtFillUs(**graph, arch, *semantics, clusters);
    const sim::Breakdown& run = gt.attribution.run;
    const auto weight = static_cast<size_t>(sim::Cause::WeightLoad);
    double weights = sim::compulsoryWeightBytes(**graph, *semantics);
    // The attribution holds the whole batch: its times over the
    // iterations, its bytes over the iterations and the clusters.
    double runs = static_cast<double>(gt.iterations * arch.clusters);
    sim::Cause largest = sim::dominantCause(run);
    std::printf("| %s | %.2f ms | %.1f %% | %.2f ms | %.2f ms | %.1f %% | %.1f %% | %.1f× | %.2f / "
                "%.2f ms | %s %.2f ms |\n",
                row.label.c_str(), gt.latencyUs / 1000, 100 * gt.efficiency,
                gt.rooflineUs / kTarget / 1000, atFillUs / 1000, 100 * gt.rooflineUs / atFillUs,
                100 * atFillUs / gt.latencyUs,
                weights > 0 ? static_cast<double>(run.bytes[weight]) / (weights * runs) : 0.0,
                run.ns[weight] / 1e6, run.activeNs[weight] / 1e6,
                std::string(sim::causeName(largest)).c_str(), run.at(largest) / 1e6);
}

} // namespace

void boundsTable(const std::vector<Row>& rows, const std::vector<sim::Report>& graphturbo,
                 ir::DType precision, const arch::Arch& arch) {
    std::printf(
        "\n### Where graphturbo stays under 40 %% of the roofline (%s): the bounds\n\n"
        "The roofline at the array's fill runs every contraction at the share of its unit's "
        "array it fills (`simulator.md`, \"The array's fill\"); no schedule beats it, so a "
        "row whose ceiling is under 40 %% cannot reach the target on this array. The weight "
        "traffic counts each hop (DDR→GB→LB once is 2×) per cluster and iteration: §4.1's "
        "tiles read a weight again for every tile its loops do not follow. Weight loads: the "
        "time no compute hid / the time they were in progress.\n\n"
        "| row | graphturbo | at the roofline | 40 %% needs | roofline at the fill | ceiling at "
        "the fill | graphturbo at the fill's roofline | weight traffic | weight loads | largest "
        "cause |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
        std::string(ir::dtypeName(precision)).c_str());
    for (size_t i = 0; i < rows.size() && i < graphturbo.size(); ++i) {
        const sim::Report& gt = graphturbo[i];
        if (gt.latencyUs <= 0 || gt.efficiency >= kTarget)
            continue;
        std::fprintf(stderr, "bench_verdicts: %s, the bounds\n", rows[i].label.c_str());
        boundsRow(rows[i], gt, precision, arch);
    }
}

} // namespace stagecraft::bench
