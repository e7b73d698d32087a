// Text tables of `stagecraft compare` (compare_report.h).

#include "cli/compare_report.h"

#include "support/strings.h"

#include <iomanip>
#include <ostream>
#include <sstream>

namespace stagecraft::cli {

namespace {

std::string fixed(double value, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << value;
    return s.str();
}

std::string mb(int64_t bytes) {
    return fixed(static_cast<double>(bytes) / 1e6, 1);
}

} // namespace

void printSimulationText(const sim::Report& r, std::ostream& out) {
    out << "\nsimulation (kernel plans §4, across-layer scheduling on)\n";
    out << "  kernels " << r.kernels << " per cluster and iteration, " << r.iterations
        << " iteration(s)\n";
    out << "  latency " << fixed(r.latencyUs / 1000, 3) << " ms, throughput "
        << fixed(r.throughput, 1) << " samples/s\n";
    out << "  roofline " << fixed(r.rooflineUs / 1000, 3) << " ms (efficiency "
        << fixed(r.efficiency, 2) << ")\n";
    out << "  traffic DDR " << mb(r.trafficBytes[0]) << " MB, GB " << mb(r.trafficBytes[1])
        << " MB, LB " << mb(r.trafficBytes[2]) << " MB\n";
    out << "  tensors by scope DDR " << r.scopes[0] << ", GB " << r.scopes[1] << ", LB "
        << r.scopes[2] << "; spills " << r.spills << "\n";
    out << "  units";
    for (const auto& [name, value] : r.cuUtilization)
        out << " " << name << " " << fixed(100 * value, 1) << "%";
    out << ", concurrency " << fixed(r.concurrency, 2) << "\n";
}

void printCompareText(const io::CompareInfo& info, const std::vector<sim::Report>& reports,
                      std::ostream& out) {
    out << "model " << info.model << " on " << info.arch;
    if (!info.table2.empty())
        out << " (Table 2 configuration " << info.table2 << ")";
    out << "\n\n";
    out << std::left << std::setw(13) << "strategy" << std::right << std::setw(6) << "K"
        << std::setw(6) << "iter" << std::setw(8) << "kernels" << std::setw(12) << "latency ms"
        << std::setw(12) << "samples/s" << std::setw(9) << "speedup" << std::setw(11) << "DDR MB"
        << std::setw(11) << "GB MB" << std::setw(11) << "LB MB" << std::setw(17) << "scopes D/G/L"
        << std::setw(8) << "spills" << std::setw(13) << "roofline ms" << std::setw(7) << "eff"
        << "\n";
    for (const sim::Report& r : reports) {
        std::string scopes = std::to_string(r.scopes[0]) + "/" + std::to_string(r.scopes[1]) + "/" +
                             std::to_string(r.scopes[2]);
        out << std::left << std::setw(13) << r.strategy << std::right << std::setw(6)
            << r.perCluster << std::setw(6) << r.iterations << std::setw(8) << r.kernels
            << std::setw(12) << fixed(r.latencyUs / 1000, 3) << std::setw(12)
            << fixed(r.throughput, 1) << std::setw(9) << fixed(r.speedupVsTvm, 2) + "x"
            << std::setw(11) << mb(r.trafficBytes[0]) << std::setw(11) << mb(r.trafficBytes[1])
            << std::setw(11) << mb(r.trafficBytes[2]) << std::setw(17) << scopes << std::setw(8)
            << r.spills << std::setw(13) << fixed(r.rooflineUs / 1000, 3) << std::setw(7)
            << fixed(r.efficiency, 2) << "\n";
    }
    out << "\nunit utilization (busy share of the cluster's cores) and mean units busy at once\n";
    for (const sim::Report& r : reports) {
        out << "  " << std::left << std::setw(13) << r.strategy;
        for (const auto& [name, value] : r.cuUtilization)
            out << " " << name << " " << fixed(100 * value, 1) << "%";
        out << "  concurrency " << fixed(r.concurrency, 2) << "\n";
    }
}

} // namespace stagecraft::cli
