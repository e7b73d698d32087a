#pragma once
// The output directory of `stagecraft sweep`: spec.json (the spec the
// results belong to), results.jsonl and results.csv, and shards/ (the
// records of `--shard I/N` runs until a run merges them). docs/sweeps.md.

#include "sweep/records.h"

#include <filesystem>
#include <string>

namespace stagecraft::cli {

struct SweepDir {
    std::filesystem::path root;
    std::filesystem::path spec() const { return root / "spec.json"; }
    std::filesystem::path results() const { return root / "results.jsonl"; }
    std::filesystem::path csv() const { return root / "results.csv"; }
    std::filesystem::path shards() const { return root / "shards"; }
    /// shards/shard-I-of-N.jsonl (I from 1).
    std::filesystem::path shard(int64_t index, int64_t count) const;
};

/// Creates the directory (its parent must exist) and writes spec.json, or
/// checks that the spec.json already there expands to the same points: the
/// records in a directory always belong to its spec.
Status prepareSweepDir(const SweepDir& dir, const std::string& specText,
                       const sweep::SweepSpec& spec, const std::vector<sweep::SweepPoint>& points);

/// Every record in the directory: results.jsonl and the shards' files.
/// \p torn counts torn last lines left out (their points run again).
Expected<sweep::Records> gatherRecords(const SweepDir& dir, const sweep::SweepSpec& spec,
                                       const std::vector<sweep::SweepPoint>& points, int64_t& torn);

/// Writes \p records as results.jsonl and results.csv (each atomically),
/// then removes the shard files, whose records they now hold.
Status writeMerged(const SweepDir& dir, const sweep::SweepSpec& spec,
                   const sweep::Records& records);

} // namespace stagecraft::cli
