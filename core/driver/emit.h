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

/// What an emission writes: the model library (codegen/model_library.h)
/// with the kernels, or the kernels and the manifest alone.
enum class EmitFormat { Library, Objects };

/// Prepares \p dir, compiles \p plan's kernels with \p options (progress and
/// cancellation through \p progress) and writes them into \p dir in
/// \p format. A compilation error names the model (\p info.model).
Expected<Emitted> emitKernels(const std::filesystem::path& dir, const ir::Graph& graph,
                              const partition::SemanticsCache& semantics,
                              const codegen::CodePlan& plan, const codegen::EmitOptions& options,
                              const codegen::ManifestInfo& info,
                              const codegen::EmitProgress& progress = {},
                              EmitFormat format = EmitFormat::Library);

} // namespace stagecraft::driver
