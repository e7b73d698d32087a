#pragma once
// bench_verdicts (bench_verdicts.cpp): the rows it measures, their models
// at any samples per cluster and precision (loaded once each), and the
// runs of one strategy on a row.

#include "driver/optimum.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace stagecraft::bench {

struct Row {
    /// "A ResNet-50" or "PP-OCRv4 det".
    std::string label;
    /// A zoo model, or empty for a fetched file.
    std::string zoo;
    int64_t seq = 0;
    std::string file;
    std::string input;
    bool table2 = true;
    int64_t totalBatch = 1;
    int64_t tvmPerCluster = 1;
    int64_t perCluster = 1;
    /// The zoo model in int8 (QDQ, folded to QLinearConv and QLinearMatMul).
    bool quantized = false;
};

arch::Arch stcp920();

/// Table 2's rows A-J, then PP-OCRv4 det and rec (unless \p quick: A, B, G).
std::vector<Row> table2Rows(bool quick);

/// \p strategy on \p row at its optimum, or nullopt (said on stderr).
std::optional<sim::Report> optimum(const Row& row, ir::DType precision, const arch::Arch& arch,
                                   const sim::Strategy& strategy);

/// \p strategy on \p row as `compare --fixed` runs it.
std::optional<sim::Report> fixedRun(const Row& row, ir::DType precision, const arch::Arch& arch,
                                    const sim::Strategy& strategy);

/// The graph of \p row at \p perCluster samples in \p precision (loaded once
/// per key), or an error.
Expected<std::shared_ptr<const ir::Graph>> graphOf(const Row& row, ir::DType precision,
                                                   int64_t perCluster);

/// Where graphturbo stays under 40 % of the roofline: per such row its
/// roofline at the array's fill and its weight traffic (bench_bounds.cpp).
/// \p graphturbo holds its optimum per row, in \p rows' order.
void boundsTable(const std::vector<Row>& rows, const std::vector<sim::Report>& graphturbo,
                 ir::DType precision, const arch::Arch& arch);

/// Energy at each optimum: per row every strategy's (\p optima per row, in
/// the order of \p names), graphturbo's saving and its DDR share, and the
/// levels of ResNet-50 and BERT-base (bench_energy.cpp).
void energyTable(const std::vector<Row>& rows, const std::vector<std::vector<sim::Report>>& optima,
                 const std::vector<std::string>& names, ir::DType precision);

/// "16×1 GB dfs": samples per cluster × iterations, level, order.
std::string shortConfig(const sim::Report& report);

/// Table 1 in shape: BERT-128 under tvm-llb and gt-paper.
void table1(const arch::Arch& arch);

/// Fig. 16 in shape: the MME's and VME's use on ResNet-50 (f16 and int8) and BERT-128
/// under graphturbo by samples per cluster, and what each run waits on most.
void fig16(const arch::Arch& arch);

} // namespace stagecraft::bench
