#pragma once
/// \file
/// The vector-use report of a riscv64 emission (`stagecraft emit --report`,
/// docs/codegen.md "Vector use on the DSA"): every loop of every
/// kernel (vector_use.h) named by its kernel, layer and the layer's anchor
/// op, its lane fill at VLEN 128, 256 and 512 (those the objects run at),
/// and a summary over the loops that multiply-add: the contractions'.

#include "codegen/code_plan.h"
#include "codegen/vector_use.h"

#include <string>
#include <vector>

namespace stagecraft::codegen {

/// The assembly of one kernel's parts, in part order.
struct KernelAssembly {
    std::string symbol;
    std::vector<std::string> parts;
};

struct ReportedLoop {
    std::string kernel;
    /// The layer's anchor op and its ONNX type; empty for the kernel function.
    std::string op;
    std::string opType;
    CodeLoop loop;
};

struct VectorReport {
    /// The least VLEN the objects assume (emit --vlen), 0 for any.
    int compiledVlen = 0;
    /// The VLENs the figures are given at: of 128, 256 and 512 those the
    /// objects run at.
    std::vector<int> vlens;
    std::vector<ReportedLoop> loops;
};

/// Reads every part of every kernel of \p kernels (in the order of
/// \p plan's kernels).
VectorReport buildVectorReport(const ir::Graph& graph, const CodePlan& plan,
                               const std::vector<KernelAssembly>& kernels, int compiledVlen);

/// Over the loops that multiply-add.
struct VectorSummary {
    int64_t loops = 0;
    /// With at least one vector multiply-add.
    int64_t vectorized = 0;
    /// Per VLEN of the report: loops at >= 75 % of the lanes, and the mean fill.
    std::vector<int64_t> atThreeQuarters;
    std::vector<double> meanFill;
    /// Loops with a vector spill or reload inside.
    int64_t withVectorSpills = 0;
};
VectorSummary summarize(const VectorReport& report);

/// "stagecraft-vector-report" JSON: the VLENs, the summary and every loop.
std::string vectorReportJson(const VectorReport& report);

/// A table of the layers whose loops multiply-add (worst and mean fill per
/// VLEN, vector spills), then the summary.
std::string vectorReportText(const VectorReport& report);

} // namespace stagecraft::codegen
