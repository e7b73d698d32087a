// The import pipeline: read and check the file, build the graph with bound
// inputs, infer shapes (canonicalizing and folding), simplify, validate.

#include "onnx/importer.h"

#include "onnx/internal/import_session.h"
#include "onnx/internal/infer_context.h"

#include <optional>

namespace stagecraft::onnxio {

namespace {

/// Every import error names the file: stages that know it say it, the
/// others get it put in front here.
Error inFile(const ImportSession& session, const Error& error) {
    if (error.message().rfind(session.source + ":", 0) == 0)
        return error;
    return error.withContext(session.source);
}

/// Builds the graph and infers its shapes; while inference finds nodes to
/// rewrite (an If whose condition is known, a Loop to unroll, ...:
/// node_rewrite.cpp), rewrites the model and starts again. Building moves
/// weight bytes out of the model, so a model with such nodes is copied first.
Status buildAndInfer(ImportSession& session) {
    constexpr int kMaxRounds = 1024;
    for (int round = 0;; ++round) {
        std::optional<onnx::ModelProto> unbuilt;
        if (mayRewrite(session))
            unbuilt = session.model;
        size_t warningsBefore = session.warnings.size();
        SC_RETURN_IF_ERROR(buildGraph(session));
        SC_RETURN_IF_ERROR(inferShapes(session));
        if (!session.rewritesPending())
            return Status::success();
        if (round == kMaxRounds)
            return session.error("more than " + std::to_string(kMaxRounds) +
                                 " rounds of rewriting control flow");
        if (!unbuilt)
            return session.error("internal error: a rewrite of a model thought to need none");
        session.model = std::move(*unbuilt);
        session.warnings.resize(warningsBefore);
        SC_RETURN_IF_ERROR(spliceRewrites(session));
        session.graph = ir::Graph();
        session.nodeOpNames.clear();
        session.boundValues.clear();
        SC_RETURN_IF_ERROR(inlineFunctions(session));
    }
}

Status runStages(ImportSession& session) {
    SC_RETURN_IF_ERROR(loadModelProto(session));
    SC_RETURN_IF_ERROR(inlineFunctions(session));
    SC_RETURN_IF_ERROR(buildAndInfer(session));
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
    return ImportResult{std::move(session.graph), std::move(session.warnings),
                        std::move(session.boundValues)};
}

std::vector<std::string> supportedOpTypes() {
    return inferRuleOpTypes();
}

} // namespace stagecraft::onnxio
