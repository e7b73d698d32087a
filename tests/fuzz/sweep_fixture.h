#pragma once
// The sweep spec whose results.jsonl the records harness reads, and the
// figures the seed writer and the spec harness give its points: 16 points
// with every kind of column (a model with its seq, architecture axes,
// precision, batch, samples per cluster, levels and strategies), few enough
// that a whole results.jsonl is a small input.

#include "sweep/records.h"

#include <string_view>

namespace stagecraft::fuzz {

inline constexpr std::string_view kRecordsSpec = R"({
  "format": "stagecraft-sweep", "version": 1,
  "models": ["zoo:fig3-chain", {"model": "zoo:bert-2layer", "seq": 64}],
  "arch": {"base": "teaching", "vary": {"gb_bytes": {"from": 1048576, "to": 4194304, "times": 4},
                                        "clock_ghz": [1.5]}},
  "strategies": ["tvm", "graphturbo"], "precisions": ["model"],
  "batch": [8], "per_cluster": [1], "levels": ["auto", "lb"]
})";

/// What point \p index gave: every third one failed, the others ran.
inline sweep::PointResult pointResult(int64_t index) {
    sweep::PointResult r;
    if (index % 3 == 2) {
        r.error = "point " + std::to_string(index) + " failed: \"quoted\", with a comma";
        return r;
    }
    r.levelUsed = index % 4 == 3 ? "" : index % 2 == 0 ? "LB" : "GB"; // "": tvm's
    r.totalBatch = 8;
    r.perCluster = 1 + index % 2;
    r.kernels = 3 + index;
    r.spills = index % 4;
    r.latencyMs = 2.5 + static_cast<double>(index);
    r.throughput = static_cast<double>(r.totalBatch) / (r.latencyMs / 1000.0);
    r.rooflineMs = 1.25;
    r.efficiency = 0.5;
    r.trafficBytes = {1 << 20, 4096 * index, 7};
    return r;
}

} // namespace stagecraft::fuzz
