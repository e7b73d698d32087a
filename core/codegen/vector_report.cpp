// The vector-use report of a riscv64 emission (vector_report.h): the
// loops of every kernel part's assembly, named by kernel, layer and anchor
// op, with their lane fill at the VLENs the objects run at; written as JSON
// (one entry per loop) and as a table per layer for the terminal.

#include "codegen/vector_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace stagecraft::codegen {

namespace {

using Json = nlohmann::ordered_json;

constexpr double kThreeQuarters = 0.75;

std::vector<int> reportedVlens(int compiledVlen) {
    std::vector<int> vlens;
    for (int vlen : {128, 256, 512})
        if (vlen >= compiledVlen)
            vlens.push_back(vlen);
    return vlens;
}

std::string percent(double share) {
    if (share < 0)
        return "-";
    char text[16];
    std::snprintf(text, sizeof text, "%.0f %%", share * 100);
    return text;
}

double rounded(double value) {
    return std::round(value * 1e4) / 1e4;
}

Json shapesJson(const std::map<VectorShape, int64_t>& shapes) {
    Json json = Json::object();
    for (const auto& [shape, n] : shapes)
        json[shape.text()] = n;
    return json;
}

Json loopJson(const ReportedLoop& reported, const std::vector<int>& vlens) {
    const CodeLoop& loop = reported.loop;
    Json fill = Json::object();
    Json macs = Json::object();
    for (int vlen : vlens) {
        double share = loop.laneFill(vlen);
        fill[std::to_string(vlen)] = share < 0 ? Json(nullptr) : Json(rounded(share));
        macs[std::to_string(vlen)] = rounded(loop.multiplyAddsPerVectorFma(vlen));
    }
    return {{"kernel", reported.kernel},
            {"function", loop.function},
            {"layer", loop.layer},
            {"op", reported.op},
            {"op_type", reported.opType},
            {"header", loop.header},
            {"depth", loop.depth},
            {"innermost", loop.innermost},
            {"instructions", loop.instructions},
            {"vector_instructions", loop.vectorInstructions},
            {"vector_configs", loop.vectorConfigs},
            {"vector_fmas", loop.vectorFmaCount()},
            {"scalar_fmas", loop.scalarFmas},
            {"vector_shapes", shapesJson(loop.vectorOps)},
            {"lanes_filled", fill},
            {"multiply_adds_per_vector_fma", macs},
            {"vector_spills", loop.vectorSpills},
            {"vector_reloads", loop.vectorReloads}};
}

/// The loops of one layer that multiply-add, for the table.
struct LayerRow {
    std::string kernel;
    int layer = -1;
    std::string op;
    std::string opType;
    std::vector<const CodeLoop*> loops;
};

std::vector<LayerRow> layerRows(const VectorReport& report) {
    std::vector<LayerRow> rows;
    for (const ReportedLoop& reported : report.loops) {
        if (!reported.loop.multiplyAdds())
            continue;
        if (rows.empty() || rows.back().kernel != reported.kernel ||
            rows.back().layer != reported.loop.layer)
            rows.push_back(
                {reported.kernel, reported.loop.layer, reported.op, reported.opType, {}});
        rows.back().loops.push_back(&reported.loop);
    }
    return rows;
}

} // namespace

VectorReport buildVectorReport(const ir::Graph& graph, const CodePlan& plan,
                               const std::vector<KernelAssembly>& kernels, int compiledVlen) {
    VectorReport report;
    report.compiledVlen = compiledVlen;
    report.vlens = reportedVlens(compiledVlen);
    for (size_t k = 0; k < kernels.size() && k < plan.kernels.size(); ++k) {
        const KernelCode& code = plan.kernels[k];
        for (const std::string& part : kernels[k].parts)
            for (CodeLoop& loop : readLoops(part)) {
                ReportedLoop reported{kernels[k].symbol, {}, {}, std::move(loop)};
                int layer = reported.loop.layer;
                if (layer >= 0 && static_cast<size_t>(layer) < code.layers.size()) {
                    const ir::Op& anchor = graph.op(code.layers[static_cast<size_t>(layer)].anchor);
                    reported.op = anchor.name;
                    reported.opType = anchor.type;
                }
                report.loops.push_back(std::move(reported));
            }
    }
    return report;
}

VectorSummary summarize(const VectorReport& report) {
    VectorSummary summary;
    summary.atThreeQuarters.assign(report.vlens.size(), 0);
    summary.meanFill.assign(report.vlens.size(), 0);
    for (const ReportedLoop& reported : report.loops) {
        const CodeLoop& loop = reported.loop;
        if (!loop.multiplyAdds())
            continue;
        ++summary.loops;
        summary.vectorized += loop.vectorFmaCount() > 0 ? 1 : 0;
        summary.withVectorSpills += loop.vectorSpills + loop.vectorReloads > 0 ? 1 : 0;
        for (size_t v = 0; v < report.vlens.size(); ++v) {
            double fill = loop.laneFill(report.vlens[v]);
            summary.atThreeQuarters[v] += fill >= kThreeQuarters ? 1 : 0;
            summary.meanFill[v] += fill;
        }
    }
    for (double& mean : summary.meanFill)
        mean = summary.loops > 0 ? mean / static_cast<double>(summary.loops) : 0;
    return summary;
}

std::string vectorReportJson(const VectorReport& report) {
    VectorSummary summary = summarize(report);
    Json atThreeQuarters = Json::object();
    Json meanFill = Json::object();
    for (size_t v = 0; v < report.vlens.size(); ++v) {
        atThreeQuarters[std::to_string(report.vlens[v])] = summary.atThreeQuarters[v];
        meanFill[std::to_string(report.vlens[v])] = rounded(summary.meanFill[v]);
    }
    Json loops = Json::array();
    for (const ReportedLoop& reported : report.loops)
        loops.push_back(loopJson(reported, report.vlens));
    Json json = {{"format", "stagecraft-vector-report"},
                 {"version", 1},
                 {"compiled_vlen", report.compiledVlen},
                 {"vlens", report.vlens},
                 {"multiply_add_loops",
                  {{"loops", summary.loops},
                   {"vectorized", summary.vectorized},
                   {"at_three_quarters_of_the_lanes", atThreeQuarters},
                   {"mean_lanes_filled", meanFill},
                   {"with_vector_spills", summary.withVectorSpills}}},
                 {"loops", loops}};
    return json.dump(2) + "\n";
}

std::string vectorReportText(const VectorReport& report) {
    std::string text = "loops that multiply-add, by layer (lanes filled: worst / mean loop)\n";
    text += "kernel        layer  op                               loops  vector";
    for (int vlen : report.vlens)
        text += "  VLEN " + std::to_string(vlen) + "   ";
    text += "  spills\n";
    char line[256];
    for (const LayerRow& row : layerRows(report)) {
        int64_t vector = 0;
        int64_t spills = 0;
        for (const CodeLoop* loop : row.loops) {
            vector += loop->vectorFmaCount() > 0 ? 1 : 0;
            spills += loop->vectorSpills + loop->vectorReloads;
        }
        std::string op = row.op.empty() ? "-" : row.op + " (" + row.opType + ")";
        std::snprintf(line, sizeof line, "%-13s %5d  %-32.32s %5zu  %6lld", row.kernel.c_str(),
                      row.layer, op.c_str(), row.loops.size(), static_cast<long long>(vector));
        text += line;
        for (int vlen : report.vlens) {
            double worst = 1;
            double sum = 0;
            for (const CodeLoop* loop : row.loops) {
                worst = std::min(worst, loop->laneFill(vlen));
                sum += loop->laneFill(vlen);
            }
            std::snprintf(line, sizeof line, "  %4s/%-5s", percent(worst).c_str(),
                          percent(sum / static_cast<double>(row.loops.size())).c_str());
            text += line;
        }
        text += "  " + std::to_string(spills) + "\n";
    }
    VectorSummary summary = summarize(report);
    text += std::to_string(summary.loops) + " loops multiply-add, " +
            std::to_string(summary.vectorized) + " with vector multiply-adds;";
    for (size_t v = 0; v < report.vlens.size(); ++v)
        text += " VLEN " + std::to_string(report.vlens[v]) + ": " +
                std::to_string(summary.atThreeQuarters[v]) + " at >= 75 % of the lanes (mean " +
                percent(summary.meanFill[v]) + ")" + (v + 1 < report.vlens.size() ? "," : ";");
    text += " " + std::to_string(summary.withVectorSpills) + " with vector spills\n";
    return text;
}

} // namespace stagecraft::codegen
