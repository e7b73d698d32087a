// Text tables of `stagecraft compare` (compare_report.h).

#include "cli/compare_report.h"

#include "support/strings.h"

#include <algorithm>
#include <initializer_list>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <utility>
#include <vector>

namespace stagecraft::cli {

namespace {

std::string fixed(double value, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << value;
    return s.str();
}

/// \p text right-aligned in \p width columns after at least one space, so
/// that a long value never runs into the one before it.
std::string column(const std::string& text, int width) {
    auto size = static_cast<int>(text.size());
    return std::string(static_cast<size_t>(std::max(1, width - size)), ' ') + text;
}

std::string mb(int64_t bytes) {
    return fixed(static_cast<double>(bytes) / 1e6, 1);
}

/// "name 1.234 ms (12.3%)" for every cause of \p causes with time.
void printCauses(const sim::Breakdown& b, std::initializer_list<sim::Cause> causes,
                 std::ostream& out) {
    bool first = true;
    for (sim::Cause c : causes) {
        double ns = b.at(c);
        if (ns <= 0)
            continue;
        out << (first ? " " : ", ") << sim::causeName(c) << " " << fixed(ns / 1e6, 3) << " ms ("
            << fixed(100 * ns / std::max(b.totalNs, 1e-9), 1) << "%)";
        first = false;
    }
    if (first)
        out << " none";
    out << "\n";
}

/// The cause with the most time in \p b.
void printBreakdownText(const sim::Attribution& a, std::ostream& out) {
    using sim::Cause;
    const sim::Breakdown& b = a.run;
    out << "\nwhere the time goes (of " << fixed(b.totalNs / 1e6, 3)
        << " ms; docs/simulator.md, Attribution)\n  compute:";
    printCauses(
        b,
        {Cause::ComputeMatrix, Cause::ComputeVector, Cause::ComputeScalar, Cause::ComputeFallback},
        out);
    out << "  units waiting for DMA:";
    printCauses(b,
                {Cause::WeightLoad, Cause::ActivationLoad, Cause::ActivationStore, Cause::SpillOut,
                 Cause::SpillBack, Cause::DataMovement},
                out);
    out << "  control and idle:";
    printCauses(b, {Cause::Launch, Cause::Sync, Cause::Idle}, out);
    out << "  bytes moved:";
    for (size_t c = 0; c < sim::kCauseCount; ++c)
        if (sim::isTransferCause(static_cast<Cause>(c)))
            out << " " << sim::causeName(static_cast<Cause>(c)) << " " << mb(b.bytes[c]) << " MB"
                << (c == static_cast<size_t>(Cause::DataMovement) ? "" : ",");
    out << "\n";
    std::vector<const sim::GroupBreakdown*> groups;
    for (const sim::GroupBreakdown& g : a.groups)
        groups.push_back(&g);
    std::stable_sort(groups.begin(), groups.end(), [](const auto* x, const auto* y) {
        return x->breakdown.totalNs > y->breakdown.totalNs;
    });
    out << "  groups by time:";
    for (size_t i = 0; i < groups.size() && i < 5; ++i)
        out << (i ? ", " : " ") << groups[i]->label << " "
            << fixed(100 * groups[i]->breakdown.totalNs / std::max(b.totalNs, 1e-9), 1) << "% ("
            << groups[i]->kernels << " kernels, mostly "
            << sim::causeName(sim::dominantCause(groups[i]->breakdown)) << ")";
    out << "\n";
}

std::string mj(double pj) {
    return fixed(pj * 1e-9, 3);
}

/// "compute 1.234 mJ (12.3%), LB ..." for each energy level.
std::string levelsText(const sim::Energy& e) {
    std::string text;
    for (std::string_view level : sim::energyLevels())
        text += (text.empty() ? "" : ", ") + std::string(level) + " " + mj(e.levelPj(level)) +
                " mJ (" + fixed(100 * e.levelPj(level) / std::max(e.totalPj(), 1e-30), 1) + "%)";
    return text;
}

void printEnergyText(const sim::Report& r, std::ostream& out) {
    if (!r.energy) {
        out << "  energy unknown: the architecture has no energy table (docs/arch.md, Energy)\n";
        return;
    }
    const sim::EnergyReport& e = *r.energy;
    out << "  energy " << mj(e.run.totalPj()) << " mJ (dynamic " << mj(e.run.dynamicPj())
        << ", static " << mj(e.run.staticPj()) << "), EDP " << fixed(r.edpMjMs().value_or(0), 4)
        << " mJ*ms\n";
    out << "  energy by level: " << levelsText(e.run) << "\n";
    out << "  energy by action:";
    for (size_t a = 0; a < sim::kEnergyActionCount; ++a)
        if (e.run.pj[a] > 0)
            out << " " << sim::energyActionName(static_cast<sim::EnergyAction>(a)) << " "
                << mj(e.run.pj[a]);
    out << " (mJ)\n";
    std::vector<const sim::GroupEnergy*> groups;
    for (const sim::GroupEnergy& g : e.groups)
        groups.push_back(&g);
    std::stable_sort(groups.begin(), groups.end(), [](const auto* x, const auto* y) {
        return x->energy.totalPj() > y->energy.totalPj();
    });
    out << "  groups by energy:";
    for (size_t i = 0; i < groups.size() && i < 5; ++i)
        out << (i ? ", " : " ") << groups[i]->label << " " << mj(groups[i]->energy.totalPj())
            << " mJ";
    out << "\n";
}

/// Per strategy: energy by level and what it saves against tvm, with the
/// share of the saving that is DDR traffic avoided (reads, writes, links).
void printCompareEnergy(const std::vector<sim::Report>& reports, std::ostream& out) {
    const sim::Report* tvm = nullptr;
    for (const sim::Report& r : reports)
        tvm = r.strategy == "tvm" && r.energy ? &r : tvm;
    out << "\nenergy per batch, by level (docs/simulator.md, Energy)\n";
    for (const sim::Report& r : reports) {
        out << "  " << std::left << std::setw(13) << r.strategy;
        if (!r.energy) {
            out << " unknown (the architecture has no energy table)\n";
            continue;
        }
        const sim::Energy& e = r.energy->run;
        out << " " << mj(e.totalPj()) << " mJ, EDP " << fixed(r.edpMjMs().value_or(0), 4)
            << " mJ*ms: " << levelsText(e);
        if (tvm != nullptr && &r != tvm) {
            double saved = tvm->energy->run.totalPj() - e.totalPj();
            double ddr = tvm->energy->run.ddrTrafficPj() - e.ddrTrafficPj();
            out << "; saves " << mj(saved) << " mJ against tvm";
            if (saved > 0)
                out << ", " << fixed(100 * ddr / saved, 1) << "% of it DDR traffic avoided";
        }
        out << "\n";
    }
}

} // namespace

void printSimulationText(const sim::Report& r, std::ostream& out) {
    out << "\nsimulation (kernel plans §4, across-layer scheduling on; " << r.precision << ")\n";
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
    printEnergyText(r, out);
    printBreakdownText(r.attribution, out);
}

void printCompareText(const io::CompareInfo& info, const std::vector<sim::Report>& reports,
                      std::ostream& out) {
    out << "model " << info.model << " on " << info.arch;
    if (!reports.empty())
        out << " in " << reports.front().precision;
    if (!info.table2.empty())
        out << " (Table 2 configuration " << info.table2 << ")";
    out << "\n\n";
    const std::vector<std::pair<const char*, int>> columns = {{"K", 6},
                                                              {"iter", 6},
                                                              {"level", 6},
                                                              {"order", 6},
                                                              {"tried", 6},
                                                              {"kernels", 8},
                                                              {"latency ms", 12},
                                                              {"samples/s", 12},
                                                              {"speedup", 9},
                                                              {"DDR MB", 11},
                                                              {"GB MB", 11},
                                                              {"LB MB", 11},
                                                              {"scopes D/G/L", 17},
                                                              {"spills", 8},
                                                              {"roofline ms", 13},
                                                              {"eff", 7}};
    out << std::left << std::setw(13) << "strategy";
    for (const auto& [title, width] : columns)
        out << column(title, width);
    out << "\n";
    for (const sim::Report& r : reports) {
        std::string scopes = std::to_string(r.scopes[0]) + "/" + std::to_string(r.scopes[1]) + "/" +
                             std::to_string(r.scopes[2]);
        const std::string cells[] = {std::to_string(r.perCluster),
                                     std::to_string(r.iterations),
                                     r.level.empty() ? "-" : r.level,
                                     r.order.empty() ? "-" : r.order,
                                     std::to_string(r.trials),
                                     std::to_string(r.kernels),
                                     fixed(r.latencyUs / 1000, 3),
                                     fixed(r.throughput, 1),
                                     fixed(r.speedupVsTvm, 2) + "x",
                                     mb(r.trafficBytes[0]),
                                     mb(r.trafficBytes[1]),
                                     mb(r.trafficBytes[2]),
                                     scopes,
                                     std::to_string(r.spills),
                                     fixed(r.rooflineUs / 1000, 3),
                                     fixed(r.efficiency, 2)};
        out << std::left << std::setw(13) << r.strategy;
        for (size_t i = 0; i < columns.size(); ++i)
            out << column(cells[i], columns[i].second);
        out << "\n";
    }
    out << "\nK samples per cluster x iter loop iterations, level and order: each strategy's "
           "fastest of the configurations it tried (docs/baselines.md)\n";
    out << "\nunit utilization (busy share of the cluster's cores) and mean units busy at once\n";
    for (const sim::Report& r : reports) {
        out << "  " << std::left << std::setw(13) << r.strategy;
        for (const auto& [name, value] : r.cuUtilization)
            out << " " << name << " " << fixed(100 * value, 1) << "%";
        out << "  concurrency " << fixed(r.concurrency, 2) << "\n";
    }
    printCompareEnergy(reports, out);
}

} // namespace stagecraft::cli
