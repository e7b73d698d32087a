#pragma once
// What `stagecraft inspect` prints: a text report or a JSON document of one
// imported model, optionally with every op's loop nest.

#include "arch/arch.h"
#include "ir/graph.h"
#include "ops/model_stats.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace stagecraft::cli {

struct InspectData {
    std::string modelPath;
    const ir::Graph* graph = nullptr;
    ops::ModelStats stats;
    const arch::Arch* arch = nullptr;
    std::vector<std::string> warnings;
    bool listOps = false;
};

/// Where each op would run on the architecture: a compute unit, the fallback
/// CPU, or nowhere.
struct Placement {
    int64_t onUnits = 0;
    int64_t onFallback = 0;
    int64_t unsupported = 0;
    /// "Type (category, dtype)" of the ops that do not run on a unit.
    std::vector<std::string> notOnUnits;
};

Placement placeOps(const ir::Graph& graph, const arch::Arch& arch);

void printInspectText(const InspectData& data, std::ostream& out);
void printInspectJson(const InspectData& data, std::ostream& out);

} // namespace stagecraft::cli
