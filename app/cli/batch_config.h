#pragma once
// The workload a command compares strategies on (driver/workload.h): the
// paper's Table 2 row for a zoo model on a four-cluster architecture unless
// --batch or --per-cluster says otherwise, else --batch (or the model's
// batch on every cluster), and the model loaded at any samples per cluster
// its batch dim allows.

#include "cli/schedule_model.h"
#include "driver/workload.h"

#include <optional>

namespace stagecraft::cli {

/// \p batch is the total over all clusters, \p perCluster the samples per
/// cluster (both optional, as `compare --batch` and `--per-cluster`).
Expected<driver::Workload> workloadFor(const ModelSpec& model, std::optional<int64_t> batch,
                                       std::optional<int64_t> perCluster, const arch::Arch& arch);

} // namespace stagecraft::cli
