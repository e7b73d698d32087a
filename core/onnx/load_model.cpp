// Reading an ONNX file: parse, opset check (old files converted with libonnx's
// version converter), ONNX checker findings as warnings.

#include "onnx/internal/import_session.h"
#include "support/file.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include <stdexcept>
#include <unordered_map>

namespace stagecraft::onnxio {

namespace {

constexpr int64_t kOldestOpset = 9;
constexpr int64_t kNewestTestedOpset = 17;

/// A ModelProto starts with field 1 (ir_version, varint: tag 0x08) in every
/// exporter we know; a file that starts that way but does not parse is cut short.
bool looksLikeOnnx(std::span<const std::byte> bytes) {
    return !bytes.empty() && (bytes[0] == std::byte{0x08} || bytes[0] == std::byte{0x3a});
}

Status parseFile(ImportSession& session) {
    auto mapped = MappedFile::open(session.modelPath);
    if (!mapped.ok())
        return mapped.error();
    auto bytes = (*mapped)->bytes();
    if (bytes.size() > static_cast<size_t>(INT32_MAX))
        return session.error("larger than 2 GiB; store the weights as external data");
    if (bytes.empty())
        return session.error("empty file, not an ONNX model");
    if (!session.model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
        if (looksLikeOnnx(bytes))
            return session.error(
                "cannot parse the ONNX protobuf (the file is truncated or corrupt)");
        return session.error("not an ONNX model (the file is not an ONNX protobuf)");
    }
    if (!session.model.has_graph() || session.model.opset_import_size() == 0)
        return session.error("not an ONNX model (no graph or no opset import)");
    return Status::success();
}

/// Why a model that imports no default-domain opset is refused: the
/// domains it imports and its first op.
std::string otherDomainsOnly(const onnx::ModelProto& model) {
    std::string domains;
    for (const auto& opset : model.opset_import())
        domains += (domains.empty() ? "" : ", ") + opset.domain();
    std::string first;
    if (model.graph().node_size() > 0) {
        const onnx::NodeProto& node = model.graph().node(0);
        first = " (its first op: " +
                (node.name().empty() ? node.op_type()
                                     : "'" + node.name() + "' (" + node.op_type() + ")") +
                ")";
    }
    return "the model imports only " + domains + first +
           ", not the default ONNX domain, whose ops are the ones Stagecraft computes";
}

Status checkOpset(ImportSession& session) {
    for (const auto& opset : session.model.opset_import())
        if (opset.domain().empty() || opset.domain() == "ai.onnx")
            session.opset = opset.version();
    if (session.opset == 0)
        return session.error(otherDomainsOnly(session.model));
    if (session.opset > kNewestTestedOpset)
        session.warn("opset " + std::to_string(session.opset) +
                     " is newer than the tested opsets 9-17; reading it anyway");
    session.fileOpset = session.opset;
    if (session.opset >= kOldestOpset)
        return Status::success();
    int64_t original = session.opset;
    try {
        // The converter's adapters (Add's broadcasting from opset 6 to 7,
        // Gemm's) assert that their inputs' shapes are known: ONNX shape
        // inference records them first.
        onnx::ShapeInferenceOptions options{false, 0, false};
        onnx::shape_inference::InferShapes(session.model, onnx::OpSchemaRegistry::Instance(),
                                           options);
    } catch (const std::exception&) {
        // the converter then reports what it lacks
    }
    try {
        session.model = onnx::version_conversion::ConvertVersion(session.model, kOldestOpset);
    } catch (const std::exception& e) {
        return session.error("opset " + std::to_string(original) +
                             " is older than the supported 9-17 and the ONNX version converter "
                             "failed: " +
                             e.what());
    }
    session.opset = kOldestOpset;
    session.fileOpset = original;
    session.warn("converted the model from opset " + std::to_string(original) + " to opset 9");
    return Status::success();
}

/// onnx::checker::check_model(ModelProto) without a model directory looks
/// for external data in the working directory; this is the same check with
/// the model's directory.
void checkModel(const ImportSession& session) {
    const onnx::ModelProto& model = session.model;
    if (model.ir_version() > onnx::Version::IR_VERSION)
        throw std::runtime_error("IR version " + std::to_string(model.ir_version()) +
                                 " is newer than the checker's " +
                                 std::to_string(onnx::Version::IR_VERSION));
    onnx::checker::CheckerContext context;
    context.set_ir_version(static_cast<int>(model.ir_version()));
    std::unordered_map<std::string, int> imports;
    for (const auto& opset : model.opset_import())
        imports[opset.domain()] = static_cast<int>(opset.version());
    context.set_opset_imports(imports);
    context.set_model_dir(session.modelDir().empty() ? "." : session.modelDir().string());
    onnx::checker::LexicalScopeContext scope;
    onnx::checker::check_graph(model.graph(), context, scope);
    onnx::checker::check_model_local_functions(model, context, scope);
}

void runChecker(ImportSession& session) {
    try {
        checkModel(session);
    } catch (const std::exception& e) {
        std::string what = e.what();
        if (auto newline = what.find('\n'); newline != std::string::npos)
            what = what.substr(0, newline);
        session.warn("ONNX checker: " + what);
    }
}

} // namespace

Status loadModelProto(ImportSession& session) {
    SC_RETURN_IF_ERROR(parseFile(session));
    SC_RETURN_IF_ERROR(checkOpset(session));
    if (session.options.runChecker)
        runChecker(session);
    return Status::success();
}

} // namespace stagecraft::onnxio
