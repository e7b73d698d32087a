#include "cli/batch_config.h"

namespace stagecraft::cli {

Expected<sim::BatchConfig> batchConfigFor(const ModelSpec& model, std::optional<int64_t> batch,
                                          std::optional<int64_t> perCluster,
                                          const arch::Arch& arch) {
    std::optional<sim::BatchConfig> row;
    if (!model.zooName.empty() && !batch && !perCluster && arch.clusters == 4) {
        int64_t seq = model.seq;
        if (seq == 0 && model.zooName == "bert-base")
            seq = 384;
        row = sim::table2Config(model.zooName, seq);
    }
    if (row)
        return *row;
    int64_t k = 0;
    if (perCluster) {
        k = *perCluster;
    } else {
        SC_ASSIGN_OR_RETURN(k, defaultBatch(model));
    }
    return sim::BatchConfig{"", batch.value_or(arch.clusters * k), k, k};
}

} // namespace stagecraft::cli
