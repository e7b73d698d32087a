#pragma once
/// \file
/// A design-space sweep (`stagecraft sweep SPEC`): the spec names models,
/// architecture variants, strategies, precisions, batches and levels; every
/// combination is one point, scheduled and simulated on its own. This header
/// reads and checks the spec and expands it into its points in a fixed order
/// (docs/sweeps.md).

#include "support/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::sweep {

/// One model of the spec: a path or "zoo:NAME", with the zoo's sequence length.
struct ModelEntry {
    std::string text;
    /// 0: the model's default.
    int64_t seq = 0;
};

/// One architecture field swept over a list of values: a short name
/// (lb_bytes, gb_bytes, cores, clusters, clock_ghz, bandwidth:FROM->TO,
/// rate:UNIT:DTYPE) or a JSON pointer into the stagecraft-arch document.
struct ArchAxis {
    std::string field;
    std::vector<double> values;
};

struct SweepSpec {
    std::vector<ModelEntry> models;
    /// The architecture every variant starts from: a preset name or a file.
    std::string arch = "stcp920";
    std::vector<ArchAxis> axes;
    std::vector<std::string> strategies;
    /// "model" (as the model stores it), "f32", "f16" or "bf16".
    std::vector<std::string> precisions;
    /// Total batches and samples per cluster (as `compare --batch` and
    /// `--per-cluster`); an empty list leaves the option unset.
    std::vector<int64_t> batches;
    std::vector<int64_t> perCluster;
    /// "auto", "lb" or "gb".
    std::vector<std::string> levels;
};

/// Parses and checks a spec; every error names \p source and the field, e.g.
/// `sweep.json: arch.vary.gb_bytes.to: must be at least 'from' (got 4)`.
Expected<SweepSpec> parseSpec(std::string_view json, std::string_view source);

/// One combination of the spec.
struct SweepPoint {
    /// Position in the expansion order, from 0.
    int64_t index = 0;
    ModelEntry model;
    /// The value of each of the spec's axes, in the spec's axis order.
    std::vector<double> archValues;
    std::string strategy;
    std::string precision;
    std::optional<int64_t> batch;
    std::optional<int64_t> perCluster;
    std::string level;
};

/// The number of points \p spec expands to (saturating at INT64_MAX).
int64_t countPoints(const SweepSpec& spec);

/// The points of \p spec in a fixed order: models, then arch values (the
/// last axis fastest), precisions, batches, samples per cluster, levels and
/// strategies last, so a model's points at one architecture are neighbours.
std::vector<SweepPoint> expandPoints(const SweepSpec& spec);

/// A text that identifies \p point within \p spec, e.g. "zoo:resnet50 seq=0
/// arch=stcp920 gb_bytes=4194304 f16 batch=- per_cluster=16 auto tvm"; a
/// record whose key differs belongs to another spec.
std::string pointKey(const SweepSpec& spec, const SweepPoint& point);

/// \p value as JSON writes it: an integer without ".0" when it is whole.
std::string formatNumber(double value);

} // namespace stagecraft::sweep
