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

/// A lock on the directory (flock on its .lock file) for as long as it lives.
class SweepLock {
public:
    SweepLock(SweepLock&& other) noexcept;
    SweepLock(const SweepLock&) = delete;
    SweepLock& operator=(const SweepLock&) = delete;
    SweepLock& operator=(SweepLock&&) = delete;
    ~SweepLock();

private:
    friend Expected<SweepLock> lockSweepDir(const SweepDir& dir, bool exclusive);
    explicit SweepLock(int fd)
        : fd_(fd) {}
    int fd_ = -1;
};

/// Creates the directory (its parent must exist) and locks it: \p exclusive
/// for a run that writes results.jsonl (one at a time), shared for the
/// shards of a run (they write files of their own). A lock held by another
/// sweep is an error saying so; it is never waited for.
Expected<SweepLock> lockSweepDir(const SweepDir& dir, bool exclusive);

/// Writes spec.json (only if no run wrote one first), or checks that the
/// spec.json already there expands to the same points: the records in a
/// directory always belong to its spec. Called with the directory locked,
/// before the first point.
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
