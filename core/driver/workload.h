#pragma once
/// \file
/// What a comparison runs (GraphTurbo §5.1–5.2): a total batch over the
/// clusters, the samples per cluster a model can be loaded at, and the
/// model at any of them. Table 2's rows are data here: a zoo model of the
/// table on a four-cluster architecture runs the row's total batch.

#include "ir/graph.h"
#include "support/expected.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::driver {

/// A row of Table 2: the model, its total batch and the batches per cluster
/// the paper reports for TVM and for GraphTurbo (both found by its own
/// autotuning round, §5.1; here they are what `--fixed` runs).
struct Table2Row {
    std::string_view label;
    std::string_view zooModel;
    /// The sequence length of the row (0: the model has none).
    int64_t seq = 0;
    int64_t totalBatch = 1;
    int64_t tvmPerCluster = 1;
    int64_t perCluster = 1;
};

/// Rows A to J, in the table's order.
std::span<const Table2Row> table2();

/// The row of \p zooModel at sequence length \p seq (BERT's default 384 when
/// 0), or null.
const Table2Row* table2Row(std::string_view zooModel, int64_t seq);

/// A model at \p perCluster samples per cluster (a zoo model written at that
/// batch, a file's batch dim bound to it).
using GraphAt = std::function<Expected<std::shared_ptr<const ir::Graph>>(int64_t perCluster)>;

struct Workload {
    GraphAt graphAt;
    /// Samples over all clusters.
    int64_t totalBatch = 1;
    /// The samples per cluster the model can be loaded at; empty: every
    /// divisor of the cluster's share of the batch.
    std::vector<int64_t> perClusterChoices;
    /// The samples per cluster `--fixed` runs for tvm and tvm-llb, and for
    /// every other strategy (Table 2's columns, else the model's batch).
    int64_t fixedTvmPerCluster = 1;
    int64_t fixedPerCluster = 1;
    /// Where the batch comes from: "Table 2 A", "given", "the model's batch".
    std::string chosenBy;
};

/// \p graph as loaded, at its own \p perCluster samples on each of
/// \p clusters clusters: the one configuration of batch a loaded model has.
Workload loadedModelWorkload(std::shared_ptr<const ir::Graph> graph, int64_t perCluster,
                             int64_t clusters);

/// \p graphAt remembered per samples per cluster (thread-safe): each batch
/// is loaded once however many strategies ask.
GraphAt rememberGraphs(GraphAt graphAt);

} // namespace stagecraft::driver
