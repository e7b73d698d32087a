// The import pipeline: read and check the file, build the graph with bound
// inputs, infer shapes (canonicalizing and folding), simplify, validate.

#include "onnx/importer.h"

#include "onnx/internal/import_session.h"
#include "onnx/internal/infer_context.h"

namespace stagecraft::onnxio {

namespace {

/// Every import error names the file: stages that know it say it, the
/// others get it put in front here.
Error inFile(const ImportSession& session, const Error& error) {
    if (error.message().rfind(session.source + ":", 0) == 0)
        return error;
    return error.withContext(session.source);
}

Status runStages(ImportSession& session) {
    SC_RETURN_IF_ERROR(loadModelProto(session));
    SC_RETURN_IF_ERROR(inlineFunctions(session));
    SC_RETURN_IF_ERROR(buildGraph(session));
    SC_RETURN_IF_ERROR(inferShapes(session));
    return simplifyGraph(session);
}

} // namespace

Expected<ImportResult> importModel(const std::filesystem::path& path,
                                   const ImportOptions& options) {
    ImportSession session(options, path);
    if (auto status = runStages(session); !status.ok())
        return inFile(session, status.error());
    session.model.Clear();
    if (auto valid = ir::validateGraph(session.graph); !valid.ok())
        return session.error("internal error after import: " + valid.error().message());
    return ImportResult{std::move(session.graph), std::move(session.warnings)};
}

std::vector<std::string> supportedOpTypes() {
    return inferRuleOpTypes();
}

} // namespace stagecraft::onnxio
