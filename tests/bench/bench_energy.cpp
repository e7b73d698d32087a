// Energy at each strategy's optimum (bench_verdicts, docs/results.md): per
// row the batch's energy under every compared strategy, what graphturbo
// saves against each and how much of that is DDR traffic avoided (DDR
// reads, writes and links, docs/simulator.md "Energy"); and for ResNet-50
// and BERT-base (seq 128) each strategy's energy by level. Measurements, whatever
// they show.

#include "bench_verdicts.h"

#include <cstdio>
#include <string>

namespace stagecraft::bench {

namespace {

std::string mj(const sim::Report& r) {
    if (!r.energy)
        return "unknown";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", r.energy->run.totalPj() * 1e-9);
    return text;
}

/// "−12.3 mJ (45 %; DDR 30 %)": what \p ours saves against \p baseline.
std::string saving(const sim::Report& baseline, const sim::Report& ours) {
    if (!baseline.energy || !ours.energy)
        return "unknown";
    double saved = baseline.energy->run.totalPj() - ours.energy->run.totalPj();
    double ddr = baseline.energy->run.ddrTrafficPj() - ours.energy->run.ddrTrafficPj();
    char text[96];
    if (saved > 0)
        std::snprintf(text, sizeof text, "%.1f mJ (%.0f %%; DDR %.0f %%)", saved * 1e-9,
                      100 * saved / baseline.energy->run.totalPj(), 100 * ddr / saved);
    else
        std::snprintf(text, sizeof text, "%+.1f mJ more", -saved * 1e-9);
    return text;
}

void levelTable(const Row& row, const std::vector<sim::Report>& reports,
                const std::vector<std::string>& names) {
    std::printf("\n%s, energy by level (mJ; dynamic per level, then all leakage):\n\n",
                row.label.c_str());
    std::printf("| strategy | total | compute | LB | GB | DDR | links | static | EDP mJ·ms |\n");
    std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (size_t s = 0; s < reports.size(); ++s) {
        const sim::Report& r = reports[s];
        if (!r.energy)
            continue;
        std::printf("| %s | %.1f |", names[s].c_str(), r.energy->run.totalPj() * 1e-9);
        for (std::string_view level : sim::energyLevels())
            std::printf(" %.1f |", r.energy->run.levelPj(level) * 1e-9);
        std::printf(" %.3g |\n", r.edpMjMs().value_or(0));
    }
}

} // namespace

void energyTable(const std::vector<Row>& rows, const std::vector<std::vector<sim::Report>>& optima,
                 const std::vector<std::string>& names, ir::DType precision) {
    std::printf("\n### Energy at each optimum, %s (mJ per batch; STCP920's energy table)\n\n",
                std::string(ir::dtypeName(precision)).c_str());
    std::printf("| row |");
    for (const std::string& name : names)
        std::printf(" %s |", name.c_str());
    std::printf(" graphturbo saves against tvm | against astitch |\n| --- |");
    for (size_t s = 0; s < names.size() + 2; ++s)
        std::printf(" ---: |");
    std::printf("\n");
    for (size_t i = 0; i < rows.size(); ++i) {
        const std::vector<sim::Report>& reports = optima[i];
        std::printf("| %s |", rows[i].label.c_str());
        for (const sim::Report& r : reports)
            std::printf(" %s |", mj(r).c_str());
        std::printf(" %s | %s |\n", saving(reports[0], reports.back()).c_str(),
                    saving(reports[2], reports.back()).c_str());
    }
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].label.find("ResNet-50") != std::string::npos ||
            rows[i].label.find("BERT-128") != std::string::npos)
            levelTable(rows[i], optima[i], names);
}

} // namespace stagecraft::bench
