#pragma once
/// \file
/// The files of an emission (docs/codegen.md): one `.ll` (optimized IR) and
/// one `.o` per kernel, the model library (model_library.h) and
/// `manifest.json` ("stagecraft-kernels": the
/// target, the kernel ABI, the tensor table, and per kernel in execution
/// order its symbol, instance, cores, arguments, buffers, tiles and
/// promotions).

#include "codegen/codegen.h"
#include "codegen/model_library.h"

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
/// The "format" of every manifest.json ("stagecraft-kernels").
extern const char* const kManifestFormat;
/// The vector-use report an emission writes with EmitOptions::vectorReport.
extern const char* const kVectorReportFile;

/// \p library: the model library written with the kernels ("kind":
/// "library"), or null ("kind": "objects").
std::string writeManifestJson(const ir::Graph& graph, const CodePlan& plan,
                              const EmittedProgram& program, const ManifestInfo& info,
                              const ModelLibrary* library = nullptr);

/// Creates \p dir if missing and checks that an emission may write there:
/// a manifest.json in it must be one of ours. Called before compiling, so a
/// bad directory fails at once.
Status prepareKernelDirectory(const std::filesystem::path& dir);

/// Writes every file into \p dir (prepared as above) through a staging
/// folder inside it, then switches them in: the old manifest removed first,
/// the kernel files renamed over their names (a link there is replaced,
/// never followed), the new manifest last (kernel_files.cpp). Files an
/// earlier manifest in \p dir recorded as written by it (with their
/// SHA-256), that this emission does not write and that still hold what was
/// written, are removed, and so is what an interrupted emission left;
/// nothing else in \p dir is touched. With \p library, its files too
/// (weights.bin, model.c …, runtime/ created as a real folder, never
/// through a link). A kernel's .ll is written when its IR was kept.
/// \returns notes on files kept because they changed and on leftovers
/// removed.
Expected<std::vector<std::string>> writeKernelFiles(const std::filesystem::path& dir,
                                                    const ir::Graph& graph, const CodePlan& plan,
                                                    const EmittedProgram& program,
                                                    const ManifestInfo& info,
                                                    const ModelLibrary* library = nullptr);

} // namespace stagecraft::codegen
