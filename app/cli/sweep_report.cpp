#include "cli/sweep_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace stagecraft::cli {

namespace {

using Json = nlohmann::json;

std::string cell(const Json& record, const std::string& column) {
    auto it = record.find(column);
    if (it == record.end() || it->is_null())
        return "-";
    return it->is_string() ? it->get<std::string>() : it->dump();
}

void printTable(const std::vector<std::vector<std::string>>& rows, std::ostream& out) {
    std::vector<size_t> widths;
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c) {
            widths.resize(std::max(widths.size(), row.size()));
            widths[c] = std::max(widths[c], row[c].size());
        }
    for (const auto& row : rows) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c)
            line += (c ? "  " : "") + row[c] + std::string(widths[c] - row[c].size(), ' ');
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << "\n";
    }
}

} // namespace

void printSweepSummary(const SweepDir& dir, size_t points, const sweep::Records& records,
                       std::ostream& err) {
    int64_t failed = 0;
    for (const auto& [index, line] : records)
        failed += sweep::recordFailed(line) ? 1 : 0;
    err << "stagecraft sweep: " << records.size() << " of " << points << " points recorded, "
        << failed << " failed; results in " << dir.results().string() << " and "
        << dir.csv().string() << "\n";
}

void printParetoFront(const sweep::SweepSpec& spec, const sweep::Records& records,
                      const std::vector<sweep::Objective>& objectives,
                      const std::vector<int64_t>& front, std::ostream& out) {
    std::vector<std::string> columns{"point",     objectives[0].column, objectives[1].column,
                                     "model",     "strategy",           "precision",
                                     "level_used"};
    for (const sweep::ArchAxis& axis : spec.axes)
        if (std::find(columns.begin(), columns.end(), axis.field) == columns.end())
            columns.push_back(axis.field);
    std::vector<std::vector<std::string>> rows{columns};
    for (int64_t point : front) {
        Json record = Json::parse(records.at(point), nullptr, false);
        std::vector<std::string> row;
        for (const std::string& column : columns)
            row.push_back(cell(record, column));
        rows.push_back(std::move(row));
    }
    out << "Pareto front of " << (objectives[0].maximize ? "max " : "min ") << objectives[0].column
        << " and " << (objectives[1].maximize ? "max " : "min ") << objectives[1].column << ": "
        << front.size() << " of " << records.size() << " points\n";
    printTable(rows, out);
}

} // namespace stagecraft::cli
