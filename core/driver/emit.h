#pragma once
/// \file
/// Kernel emission as both front ends run it: the directory prepared before
/// anything is compiled, every kernel of a validated code plan compiled
/// (driver/pipeline.h, planCode), the files and the manifest written.

#include "codegen/codegen.h"
#include "codegen/manifest.h"

#include <filesystem>
#include <string>
#include <vector>

namespace stagecraft::driver {

struct Emitted {
    codegen::EmittedProgram program;
    /// Notes of writeKernelFiles (stale files it could not remove) and why
    /// the object cache asked for was not used.
    std::vector<std::string> notes;
};

/// Prepares \p dir, compiles \p plan's kernels with \p options (progress and
/// cancellation through \p progress) and writes them into \p dir. A
/// compilation error names the model (\p info.model).
Expected<Emitted> emitKernels(const std::filesystem::path& dir, const ir::Graph& graph,
                              const partition::SemanticsCache& semantics,
                              const codegen::CodePlan& plan, const codegen::EmitOptions& options,
                              const codegen::ManifestInfo& info,
                              const codegen::EmitProgress& progress = {});

} // namespace stagecraft::driver
