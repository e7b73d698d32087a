#pragma once
// What `stagecraft emit` and `stagecraft run` share: the options naming a
// model (or a studio session) and a schedule of it, and the build of its
// code plan (schedule → kernel plans → code plan).

#include "arch/arch.h"
#include "cli/args.h"
#include "cli/schedule_model.h"
#include "codegen/code_plan.h"
#include "codegen/codegen.h"
#include "sim/compare.h"

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stagecraft::cli {

struct KernelRequest {
    ModelSpec model;
    /// A studio session file: model, bindings, architecture, strategy, level,
    /// order and overrides come from it.
    std::optional<std::string> session;
    std::string arch;
    std::string strategy = "graphturbo";
    schedule::LevelChoice level;
    schedule::OrderChoice order = schedule::OrderChoice::Best;
    std::optional<std::string> overrides;
    /// The options given on the command line (they win over a session's).
    std::set<std::string> given;
    /// Run the strategy at its best configuration for the model's batch
    /// (driver::bestConfiguration, as compare does), the level and order
    /// given fixed; else the driver's pipeline (emit, run).
    bool tuned = false;
};

/// A model scheduled and planned for code generation.
struct KernelBuild {
    /// The model as given (or as the session names it).
    ModelSpec spec;
    LoadedModel model;
    arch::Arch arch;
    std::string strategy;
    sim::Evaluation evaluation;
    codegen::CodePlan plan;
    std::vector<std::string> warnings;
    /// What was chosen for the user (the level under auto), for stderr.
    std::vector<std::string> notes;
};

/// Adds --arch, --strategy, --level, --order, --overrides, --seq, --input,
/// --dim (and --session when \p sessionOption).
void addKernelOptions(ArgParser& parser, bool sessionOption);

/// Reads the options of addKernelOptions; MODEL may be a session file
/// (.stagecraft). Returns a usage error message, or nothing.
std::optional<std::string> readKernelRequest(const ArgParser& parser, const std::string& model,
                                             KernelRequest& request);

/// Loads, schedules (the strategy's grouping, splits and scopes, with the
/// user's overrides) and plans the code.
Expected<KernelBuild> buildKernelPlan(const KernelRequest& request);

/// "compiled N kernels in T s (K from the object cache, C s compiling)":
/// the wall time since \p start and the kernels' own summed times.
std::string compileSummary(const codegen::EmittedProgram& program,
                           std::chrono::steady_clock::time_point start);

} // namespace stagecraft::cli
