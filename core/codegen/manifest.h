#pragma once
/// \file
/// The files of an emission (docs/codegen.md): one `.ll` (optimized IR) and
/// one `.o` per kernel and `manifest.json` ("stagecraft-kernels": the
/// target, the kernel ABI, the tensor table, and per kernel in execution
/// order its symbol, instance, cores, arguments, buffers, tiles and
/// promotions).

#include "codegen/codegen.h"

#include <filesystem>
#include <string>

namespace stagecraft::codegen {

/// Where the kernels came from, for the manifest.
struct ManifestInfo {
    std::string model;
    std::string arch;
    std::string strategy;
};

/// The manifest text; deterministic.
std::string writeManifestJson(const ir::Graph& graph, const CodePlan& plan,
                              const EmittedProgram& program, const ManifestInfo& info);

/// Writes every file into \p dir (created if missing), each atomically, the
/// manifest last. Kernel files an earlier manifest in \p dir listed and this
/// one does not are removed; nothing else in \p dir is touched.
Status writeKernelFiles(const std::filesystem::path& dir, const ir::Graph& graph,
                        const CodePlan& plan, const EmittedProgram& program,
                        const ManifestInfo& info);

} // namespace stagecraft::codegen
