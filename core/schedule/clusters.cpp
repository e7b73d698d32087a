// Data parallelism across clusters (GraphTurbo §2.1, §5.1, Table 1). Before
// the simulator exists the `auto` choice is a footprint rule: a cluster must
// hold its share of the tensors exchanged between sub-graph instances in its
// global buffer ("a cluster's LLB is sufficient to retain four data
// batches", §5.1); larger per-cluster batches are preferred (throughput).

#include "schedule/clusters.h"

#include "schedule/internal/stages.h"

#include <algorithm>
#include <map>

namespace stagecraft::schedule {

std::vector<int64_t> perClusterCandidates(int64_t totalBatch, int64_t clusters) {
    std::vector<int64_t> candidates;
    if (totalBatch < 1 || clusters < 1 || totalBatch % clusters != 0)
        return candidates;
    int64_t share = totalBatch / clusters;
    for (int64_t k = share; k >= 1; --k)
        if (share % k == 0)
            candidates.push_back(k);
    return candidates;
}

Expected<ClusterPlan> makeClusterPlan(int64_t totalBatch, int64_t clusters, int64_t perCluster) {
    if (clusters < 1 || perCluster < 1 || totalBatch < 1)
        return Error("batch, clusters and batches per cluster must be positive");
    // perCluster above totalBatch / clusters cannot divide (and the product could overflow).
    if (perCluster > totalBatch / clusters || totalBatch % (clusters * perCluster) != 0)
        return Error("a batch of " + std::to_string(totalBatch) + " does not divide into " +
                     std::to_string(clusters) + " clusters x " + std::to_string(perCluster) +
                     " per cluster");
    ClusterPlan plan;
    plan.clusters = clusters;
    plan.perCluster = perCluster;
    plan.totalBatch = totalBatch;
    plan.iterations = totalBatch / (clusters * perCluster);
    plan.chosenBy = "given";
    return plan;
}

int64_t clusterWorkingSetBytes(const ir::Graph& graph, const Schedule& s) {
    // Group outputs live from their group to their last consuming group.
    IdVector<GroupId, GroupId> lastUse(s.groups.size());
    for (GroupId g : s.groups.ids()) {
        lastUse[g] = g;
        for (GroupId c : s.partition.consumers(g))
            lastUse[g] = std::max(lastUse[g], c);
    }
    int64_t live = 0, peak = 0;
    std::multimap<GroupId, int64_t> releases;
    for (GroupId g : s.groups.ids()) {
        int64_t bytes = 0;
        for (ir::TensorId out : s.partition.outputs(g))
            bytes += graph.tensor(out).byteSize();
        live += bytes;
        peak = std::max(peak, live);
        releases.emplace(lastUse[g], bytes);
        auto [begin, end] = releases.equal_range(g);
        for (auto it = begin; it != end; ++it)
            live -= it->second;
        releases.erase(begin, end);
    }
    return peak;
}

bool fitsCluster(const ir::Graph& graph, const arch::Arch& arch, const Schedule& s) {
    int64_t capacity =
        arch.cluster.globalBuffer ? arch.cluster.globalBuffer->bytes : arch.ddr.bytes;
    return clusterWorkingSetBytes(graph, s) <= capacity;
}

} // namespace stagecraft::schedule
