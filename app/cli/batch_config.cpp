#include "cli/batch_config.h"

#include "support/strings.h"

#include <limits>

namespace stagecraft::cli {

namespace {

driver::GraphAt graphsOf(const ModelSpec& model) {
    return driver::rememberGraphs(
        [model](int64_t perCluster) -> Expected<std::shared_ptr<const ir::Graph>> {
            Expected<LoadedModel> loaded = loadModel(model, perCluster);
            if (!loaded.ok())
                return inModel(model, loaded.error());
            auto kept = std::make_shared<const LoadedModel>(std::move(loaded).value());
            return std::shared_ptr<const ir::Graph>(kept, &kept->graph);
        });
}

} // namespace

Expected<driver::Workload> workloadFor(const ModelSpec& model, std::optional<int64_t> batch,
                                       std::optional<int64_t> perCluster, const arch::Arch& arch) {
    driver::Workload w;
    w.graphAt = graphsOf(model);
    SC_ASSIGN_OR_RETURN(std::optional<int64_t> fixed, fixedBatch(model));
    if (fixed)
        w.perClusterChoices = {*fixed};
    const driver::Table2Row* row =
        model.zooName.empty() ? nullptr : driver::table2Row(model.zooName, model.seq);
    if (row && !batch && !perCluster && arch.clusters == 4) {
        w.totalBatch = row->totalBatch;
        w.fixedTvmPerCluster = row->tvmPerCluster;
        w.fixedPerCluster = row->perCluster;
        w.chosenBy = "Table 2 " + std::string(row->label);
        return w;
    }
    int64_t k = 0;
    if (perCluster) {
        k = *perCluster;
    } else {
        SC_ASSIGN_OR_RETURN(k, defaultBatch(model));
    }
    if (!batch && k > std::numeric_limits<int64_t>::max() / std::max<int64_t>(arch.clusters, 1))
        return Error("--per-cluster " + std::to_string(k) + " times " +
                     std::to_string(arch.clusters) + " clusters overflows the batch");
    w.totalBatch = batch.value_or(arch.clusters * k);
    w.fixedTvmPerCluster = w.fixedPerCluster = k;
    w.chosenBy = batch || perCluster ? "given" : "the model's batch";
    return w;
}

} // namespace stagecraft::cli
