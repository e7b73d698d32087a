// Sweep records. A record is written in one write(2) to a file opened with
// O_APPEND, so a killed sweep leaves whole lines and at most one torn last
// line, which reading drops: that point runs again on resume. Every record
// carries its point's key, so records of another spec are refused rather
// than mixed in.

#include "sweep/records.h"

#include "json/fields.h"
#include "support/csv.h"
#include "support/file.h"
#include "support/strings.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <iterator>
#include <sstream>
#include <unistd.h>

namespace stagecraft::sweep {

namespace {

using OrderedJson = nlohmann::ordered_json;
using json_fields::Json;

/// The result columns after the point's own, in CSV order.
constexpr const char* kResultColumns[] = {
    "status",           "level_used",       "total_batch", "per_cluster_used",
    "kernels",          "latency_ms",       "throughput",  "ddr_traffic_bytes",
    "gb_traffic_bytes", "lb_traffic_bytes", "spills",      "roofline_ms",
    "efficiency",       "energy_mj",        "edp_mj_ms",   "error"};

/// \p v as JSON: an integer when it is whole (bytes, counts), as formatNumber
/// writes it in the point's key.
OrderedJson numberJson(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return static_cast<int64_t>(v);
    return v;
}

OrderedJson pointJson(const SweepSpec& spec, const SweepPoint& point) {
    OrderedJson j;
    j["point"] = point.index;
    j["key"] = pointKey(spec, point);
    j["model"] = point.model.text;
    j["seq"] = point.model.seq;
    j["arch"] = spec.arch;
    for (size_t i = 0; i < spec.axes.size() && i < point.archValues.size(); ++i)
        j[spec.axes[i].field] = numberJson(point.archValues[i]);
    j["precision"] = point.precision;
    j["batch"] = point.batch ? OrderedJson(*point.batch) : OrderedJson();
    j["per_cluster"] = point.perCluster ? OrderedJson(*point.perCluster) : OrderedJson();
    j["level"] = point.level;
    j["strategy"] = point.strategy;
    return j;
}

void addResult(OrderedJson& j, const PointResult& r) {
    j["status"] = r.error.empty() ? "ok" : "error";
    if (!r.error.empty()) {
        j["error"] = r.error;
        return;
    }
    j["level_used"] = r.levelUsed;
    j["total_batch"] = r.totalBatch;
    j["per_cluster_used"] = r.perCluster;
    j["kernels"] = r.kernels;
    j["latency_ms"] = r.latencyMs;
    j["throughput"] = r.throughput;
    j["ddr_traffic_bytes"] = r.trafficBytes[0];
    j["gb_traffic_bytes"] = r.trafficBytes[1];
    j["lb_traffic_bytes"] = r.trafficBytes[2];
    j["spills"] = r.spills;
    j["roofline_ms"] = r.rooflineMs;
    j["efficiency"] = r.efficiency;
    j["energy_mj"] = r.energyMj ? OrderedJson(*r.energyMj) : OrderedJson();
    j["edp_mj_ms"] = r.edpMjMs ? OrderedJson(*r.edpMjMs) : OrderedJson();
}

/// A record's value as a CSV field's text: a string as it is, a number as
/// JSON writes it, null as nothing.
std::string csvText(const Json& value) {
    if (value.is_null())
        return "";
    return value.is_string() ? value.get<std::string>() : value.dump();
}

} // namespace

std::vector<std::string> recordColumns(const SweepSpec& spec) {
    std::vector<std::string> columns{"point", "model", "seq", "arch"};
    for (const ArchAxis& axis : spec.axes)
        columns.push_back(axis.field);
    for (const char* c : {"precision", "batch", "per_cluster", "level", "strategy"})
        columns.emplace_back(c);
    for (const char* c : kResultColumns)
        columns.emplace_back(c);
    return columns;
}

namespace {

/// The figures of an "ok" record: counts, then the times and throughput
/// (positive) and the efficiency.
constexpr const char* kCounts[] = {
    "total_batch",      "per_cluster_used", "kernels", "ddr_traffic_bytes",
    "gb_traffic_bytes", "lb_traffic_bytes", "spills"};
constexpr const char* kRates[] = {"latency_ms", "throughput", "roofline_ms", "efficiency"};

/// Why the figures of an "ok" record cannot be a simulation's ("" when they
/// can): counts whole numbers from 0, the rest finite numbers, none negative,
/// the times and throughput positive, the throughput the batch over the
/// latency.
std::string figureProblem(const Json& j) {
    for (std::string field : kCounts) {
        // An unsigned number beyond int64 reads negative: refused too.
        auto it = j.find(field);
        if (it == j.end() || !it->is_number_integer() || it->get<int64_t>() < 0)
            return "'" + field + "' must be a whole number from 0" +
                   (it == j.end() ? std::string() : " (got " + json_fields::shown(*it) + ")");
    }
    for (std::string field : kRates) {
        auto it = j.find(field);
        if (it == j.end() || !it->is_number())
            return "'" + field + "' must be a number";
        double v = it->get<double>();
        bool positive = field != "efficiency";
        if (!std::isfinite(v) || v < 0 || (positive && v == 0))
            return "'" + field + "' is " + it->dump() + ", not a" +
                   (positive ? " positive" : " non-negative") + " finite number";
    }
    // Energy: null (the architecture has no energy table) or absent (a
    // record written before energy was reported) is unknown.
    for (std::string field : {"energy_mj", "edp_mj_ms"}) {
        auto it = j.find(field);
        if (it == j.end() || it->is_null())
            continue;
        if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0)
            return "'" + field + "' must be null or a non-negative number (got " +
                   json_fields::shown(*it) + ")";
    }
    // The throughput is the batch over the latency: a record saying
    // otherwise was not written by a simulation.
    double expected = j["total_batch"].get<double>() / (j["latency_ms"].get<double>() / 1000.0);
    if (!std::isfinite(expected))
        return "'total_batch' over 'latency_ms' is no finite throughput";
    double throughput = j["throughput"].get<double>();
    if (std::abs(throughput - expected) > 1e-6 * std::max(expected, 1.0))
        return "'throughput' is " + j["throughput"].dump() + " where 'total_batch' over " +
               "'latency_ms' is " + formatNumber(expected);
    return {};
}

/// Why the result of a record cannot be a simulation's ("" when it can): a
/// status of "ok" with the level used and its figures, or "error" with a
/// reason.
std::string resultProblem(const Json& j) {
    std::string status = j.contains("status") && j["status"].is_string()
                             ? j["status"].get<std::string>()
                             : std::string();
    if (status == "error")
        return j.contains("error") && j["error"].is_string() &&
                       !j["error"].get<std::string>().empty()
                   ? ""
                   : "a failed point says no error";
    if (status != "ok")
        return "'status' must be \"ok\" or \"error\"";
    if (!j.contains("level_used") ||
        (j["level_used"] != "LB" && j["level_used"] != "GB" && j["level_used"] != ""))
        return "'level_used' must be \"LB\", \"GB\" or \"\" (a strategy that fills none)";
    return figureProblem(j);
}

/// Why the point's own fields of \p j are not those recordLine writes for
/// its point, \p expected ("" when they are), or \p j has a field
/// recordLine does not write: a record's columns are its key's point.
std::string pointProblem(const Json& j, const Json& expected) {
    for (const auto& [key, value] : expected.items())
        if (!j.contains(key) || j[key] != value)
            return "'" + key + "' is " +
                   (j.contains(key) ? json_fields::shown(j[key]) : "missing") +
                   ", not its point's " + json_fields::shown(value);
    bool ok = j["status"] == "ok";
    for (const auto& [key, value] : j.items()) {
        const auto* result = std::find(std::begin(kResultColumns), std::end(kResultColumns), key);
        bool written = ok ? key != "error" : key == "status" || key == "error";
        if (!expected.contains(key) && (result == std::end(kResultColumns) || !written))
            return "unknown field " + quote(key);
    }
    return {};
}

/// The point a line records, checked against the spec's points and as a
/// result.
Expected<int64_t> recordPoint(const std::string& line, const SweepSpec& spec,
                              const std::vector<SweepPoint>& points) {
    Expected<Json> j = json_fields::parse(line);
    if (!j.ok())
        return j.error();
    if (!j->is_object() || !(*j).contains("point") || !(*j)["point"].is_number_integer() ||
        !(*j).contains("key") || !(*j)["key"].is_string())
        return Error("not a sweep record");
    int64_t index = (*j)["point"].get<int64_t>();
    if (index < 0 || index >= static_cast<int64_t>(points.size()) ||
        (*j)["key"].get<std::string>() != pointKey(spec, points[static_cast<size_t>(index)]))
        return Error("the record of another sweep spec (point " + std::to_string(index) + ")");
    std::string problem = resultProblem(*j);
    if (problem.empty())
        problem = pointProblem(*j, Json(pointJson(spec, points[static_cast<size_t>(index)])));
    if (!problem.empty())
        return Error("point " + std::to_string(index) + ": " + problem);
    return index;
}

} // namespace

std::string recordLine(const SweepSpec& spec, const SweepPoint& point, const PointResult& result) {
    OrderedJson j = pointJson(spec, point);
    addResult(j, result);
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Status readRecords(const std::filesystem::path& file, const SweepSpec& spec,
                   const std::vector<SweepPoint>& points, Records& records, int64_t& torn) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return Status::success();
    SC_ASSIGN_OR_RETURN(std::string text, readFile(file));
    return parseRecords(text, file.string(), spec, points, records, torn);
}

Status parseRecords(std::string_view text, const std::string& source, const SweepSpec& spec,
                    const std::vector<SweepPoint>& points, Records& records, int64_t& torn) {
    size_t start = 0;
    for (int64_t lineNo = 1; start < text.size(); ++lineNo) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            ++torn; // killed mid-line: the point runs again
            break;
        }
        std::string line(text.substr(start, end - start));
        start = end + 1;
        Expected<int64_t> index = recordPoint(line, spec, points);
        if (!index.ok())
            return Error(source + ":" + std::to_string(lineNo) + ": " + index.error().message());
        records[*index] = std::move(line);
    }
    return Status::success();
}

std::string recordsCsv(const SweepSpec& spec, const Records& records) {
    // The columns of results.jsonl: the point's key after its number.
    std::vector<std::string> columns = recordColumns(spec);
    columns.insert(columns.begin() + 1, "key");
    std::string out = csvRecord(columns);
    for (const auto& [index, line] : records) {
        Json j = Json::parse(line, nullptr, false);
        std::vector<std::string> fields;
        for (const std::string& column : columns)
            fields.push_back(j.is_object() && j.contains(column) ? csvText(j[column]) : "");
        out += csvRecord(fields);
    }
    return out;
}

std::string recordsJsonl(const Records& records) {
    std::string text;
    for (const auto& [index, line] : records)
        text += line + "\n";
    return text;
}

bool recordFailed(const std::string& line) {
    Json j = Json::parse(line, nullptr, false);
    return !j.is_object() || j.value("status", "") != "ok";
}

namespace {

/// Cuts a torn last line (no newline: its writer was killed) off \p fd, so
/// that the next record starts on a line of its own.
Status dropTornTail(int fd, const std::filesystem::path& file) {
    off_t size = ::lseek(fd, 0, SEEK_END);
    off_t keep = size;
    char c = '\n';
    while (keep > 0 && ::pread(fd, &c, 1, keep - 1) == 1 && c != '\n')
        --keep;
    if (keep != size && ::ftruncate(fd, keep) != 0)
        return Error(file.string() + ": cannot drop a torn last line: " + std::strerror(errno));
    return Status::success();
}

} // namespace

Expected<RecordAppender> RecordAppender::open(const std::filesystem::path& file) {
    int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error(file.string() + ": cannot open for appending: " + std::strerror(errno));
    RecordAppender appender(file, fd);
    SC_RETURN_IF_ERROR(dropTornTail(fd, file));
    return appender;
}

RecordAppender::RecordAppender(RecordAppender&& other) noexcept
    : file_(std::move(other.file_))
    , fd_(other.fd_) {
    other.fd_ = -1;
}

RecordAppender::~RecordAppender() {
    if (fd_ >= 0)
        ::close(fd_);
}

Status RecordAppender::append(const std::string& line) {
    std::string text = line + "\n";
    ssize_t written = ::write(fd_, text.data(), text.size());
    if (written != static_cast<ssize_t>(text.size()))
        return Error(file_.string() + ": cannot append a record: " +
                     (written < 0 ? std::strerror(errno) : "short write"));
    return Status::success();
}

} // namespace stagecraft::sweep
