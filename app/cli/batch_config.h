#pragma once
// The batch a command runs a model with: the paper's Table 2 row for a zoo
// model on a four-cluster architecture unless --batch or --per-cluster says
// otherwise, else the model's default batch on every cluster.

#include "cli/schedule_model.h"
#include "sim/compare.h"

#include <optional>

namespace stagecraft::cli {

/// \p batch is the total over all clusters, \p perCluster the samples per
/// cluster (both optional, as `compare --batch` and `--per-cluster`).
Expected<sim::BatchConfig> batchConfigFor(const ModelSpec& model, std::optional<int64_t> batch,
                                          std::optional<int64_t> perCluster,
                                          const arch::Arch& arch);

} // namespace stagecraft::cli
