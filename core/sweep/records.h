#pragma once
/// \file
/// The results of a sweep: one JSON line per point (results.jsonl), read
/// back to resume, merged from shards and written as CSV (docs/sweeps.md).

#include "sweep/spec.h"

#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace stagecraft::sweep {

/// What scheduling and simulating one point gave.
struct PointResult {
    /// Empty when the point ran; else why it failed (one line).
    std::string error;
    /// "LB" or "GB": the level the schedule filled; "" for a strategy that
    /// fills none (sim::Report::level).
    std::string levelUsed;
    int64_t totalBatch = 0;
    int64_t perCluster = 0;
    int64_t kernels = 0;
    int64_t spills = 0;
    double latencyMs = 0;
    double throughput = 0;
    double rooflineMs = 0;
    double efficiency = 0;
    /// Bytes moved to or from DDR, GB and LB over the whole batch.
    std::array<int64_t, 3> trafficBytes{};
    /// The batch's energy and energy-delay product (sim::Report); unset when
    /// the architecture has no energy table (written as null: unknown).
    std::optional<double> energyMj;
    std::optional<double> edpMjMs;
};

/// The record of \p point: one line of JSON, without the newline.
std::string recordLine(const SweepSpec& spec, const SweepPoint& point, const PointResult& result);

/// Records by point index.
using Records = std::map<int64_t, std::string>;

/// Adds the records of \p file (none if it does not exist) to \p records. A
/// last line without its newline (a writer killed mid-line) is left out and
/// counted in \p torn; a line that is not a record of one of \p points (as
/// pointKey says) is an error naming the file and line.
Status readRecords(const std::filesystem::path& file, const SweepSpec& spec,
                   const std::vector<SweepPoint>& points, Records& records, int64_t& torn);

/// readRecords of \p text, the contents of the file named \p source.
Status parseRecords(std::string_view text, const std::string& source, const SweepSpec& spec,
                    const std::vector<SweepPoint>& points, Records& records, int64_t& torn);

/// The columns of a record of \p spec, in CSV order: the point's own
/// (point, model, seq, arch, the axes, precision, batch, per_cluster, level,
/// strategy), then the results (status ... efficiency, error).
std::vector<std::string> recordColumns(const SweepSpec& spec);

/// The CSV of \p records in point order, one header line first.
std::string recordsCsv(const SweepSpec& spec, const Records& records);

/// The JSONL of \p records in point order.
std::string recordsJsonl(const Records& records);

/// Whether the record says the point failed.
bool recordFailed(const std::string& line);

/// Appends whole lines to a file with one write each (O_APPEND), so a line
/// is in the file entirely or not at all when the writer is killed.
class RecordAppender {
public:
    static Expected<RecordAppender> open(const std::filesystem::path& file);
    RecordAppender(RecordAppender&& other) noexcept;
    RecordAppender& operator=(RecordAppender&&) = delete;
    RecordAppender(const RecordAppender&) = delete;
    ~RecordAppender();
    Status append(const std::string& line);

private:
    RecordAppender(std::filesystem::path file, int fd)
        : file_(std::move(file))
        , fd_(fd) {}
    std::filesystem::path file_;
    int fd_ = -1;
};

} // namespace stagecraft::sweep
