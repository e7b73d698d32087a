// Kernel emission for both front ends (emit.h): prepare, compile, write.

#include "driver/emit.h"

#include "support/error_context.h"

#include <optional>

namespace stagecraft::driver {

Expected<Emitted> emitKernels(const std::filesystem::path& dir, const ir::Graph& graph,
                              const partition::SemanticsCache& semantics,
                              const codegen::CodePlan& plan, const codegen::EmitOptions& options,
                              const codegen::ManifestInfo& info,
                              const codegen::EmitProgress& progress, EmitFormat format) {
    SC_RETURN_IF_ERROR(codegen::prepareKernelDirectory(dir));
    Emitted emitted;
    Expected<codegen::EmittedProgram> program =
        codegen::emitProgram(graph, semantics, plan, options, progress);
    if (!program.ok())
        return inContext(program.error(), info.model);
    emitted.program = std::move(program).value();
    std::optional<codegen::ModelLibrary> library;
    if (format == EmitFormat::Library) {
        Expected<codegen::ModelLibrary> built =
            codegen::buildModelLibrary(graph, plan, emitted.program, info.model);
        if (!built.ok())
            return inContext(built.error(), info.model);
        library = std::move(built).value();
    }
    SC_ASSIGN_OR_RETURN(emitted.notes,
                        codegen::writeKernelFiles(dir, graph, plan, emitted.program, info,
                                                  library ? &*library : nullptr));
    if (!emitted.program.cacheNote.empty())
        emitted.notes.push_back(emitted.program.cacheNote);
    return emitted;
}

} // namespace stagecraft::driver
