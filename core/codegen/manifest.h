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
#include <vector>

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

/// Creates \p dir if missing and checks that an emission may write there:
/// a manifest.json in it must be one of ours. Called before compiling, so a
/// bad directory fails at once.
Status prepareKernelDirectory(const std::filesystem::path& dir);

/// Writes every file into \p dir (prepared as above), each atomically, the
/// manifest last. Files an earlier manifest in \p dir recorded as written
/// by it (with their SHA-256), that this emission does not write and that
/// still hold what was written, are removed; nothing else in \p dir is
/// touched. \returns notes on files kept because they changed.
Expected<std::vector<std::string>> writeKernelFiles(const std::filesystem::path& dir,
                                                    const ir::Graph& graph, const CodePlan& plan,
                                                    const EmittedProgram& program,
                                                    const ManifestInfo& info);

} // namespace stagecraft::codegen
