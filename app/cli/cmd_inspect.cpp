// stagecraft inspect: import a model and report what it is made of.

#include "arch/presets.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/inspect_report.h"
#include "onnx/importer.h"
#include "zoo/zoo.h"

#include <filesystem>
#include <ostream>

namespace stagecraft::cli {

namespace {

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft inspect MODEL [options]",
        "Imports an ONNX model (every tensor made static) and reports ops, tensors,\n"
        "parameters, MACs, FLOPs, activation bytes, inputs and outputs, the op types,\n"
        "the opaque ops and where the ops can run on the architecture.");
    parser.addPositional("MODEL", "the .onnx file");
    parser.addRepeatedOption("input", "NAME:SHAPE", "bind a whole input shape, e.g. x:1x3x224x224");
    parser.addRepeatedOption("dim", "NAME=N", "bind a named dynamic dimension, e.g. batch=8");
    parser.addRepeatedOption(
        "value", "NAME=V[,V...]",
        "bind a scalar or vector input's value, e.g. sr=16000; folds an If on it");
    parser.addOption("arch", "A", "architecture preset or file (default stcp920)");
    parser.addSwitch("json", "print a JSON document instead of text");
    parser.addSwitch("ops", "list every op with its loop nest and access maps");
    parser.addSwitch("no-fold-batchnorm", "keep BatchNormalization ops after convolutions");
    parser.addSwitch("keep-identity", "keep Identity and Dropout ops");
    parser.addSwitch("no-fold-constants", "keep ops whose inputs are all constant");
    return parser;
}

Status readBindings(const ArgParser& parser, onnxio::ImportOptions& options) {
    for (const std::string& text : parser.values("input"))
        SC_RETURN_IF_ERROR(onnxio::addInputBinding(options, text));
    for (const std::string& text : parser.values("dim"))
        SC_RETURN_IF_ERROR(onnxio::addDimBinding(options, text));
    for (const std::string& text : parser.values("value"))
        SC_RETURN_IF_ERROR(onnxio::addValueBinding(options, text));
    options.foldBatchNorm = !parser.has("no-fold-batchnorm");
    options.dropIdentity = !parser.has("keep-identity");
    options.foldConstants = !parser.has("no-fold-constants");
    return Status::success();
}

} // namespace

int runInspect(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << "stagecraft inspect: " << parser.error() << " (see --help)\n";
        return kExitBadUsage;
    }
    if (parser.helpRequested()) {
        out << parser.helpText();
        return kExitOk;
    }
    onnxio::ImportOptions options;
    if (auto status = readBindings(parser, options); !status.ok()) {
        err << "stagecraft inspect: " << status.error().message() << "\n";
        return kExitBadUsage;
    }
    auto arch = arch::resolveArch(parser.value("arch", std::string(arch::kDefaultPreset)));
    if (!arch.ok()) {
        err << "stagecraft inspect: " << arch.error().message() << "\n";
        return kExitBadInput;
    }
    std::string model = *parser.positional("MODEL");
    std::string path = model;
    if (model.starts_with("zoo:")) { // written once to the cache, as every command does
        Expected<std::filesystem::path> file = zoo::cachedZooModel(model.substr(4), 0, 0);
        if (!file.ok()) {
            err << "stagecraft inspect: " << model << ": " << file.error().message() << "\n";
            return kExitBadInput;
        }
        path = file->string();
    }
    auto imported = onnxio::importModel(path, options);
    if (!imported.ok()) {
        err << "stagecraft inspect: " << imported.error().message() << "\n";
        return kExitBadInput;
    }
    auto stats = ops::computeModelStats(imported->graph);
    if (!stats.ok()) {
        err << "stagecraft inspect: " << model << ": " << stats.error().message() << "\n";
        return kExitBadInput;
    }
    for (const std::string& warning : imported->warnings)
        err << "stagecraft inspect: warning: " << warning << "\n";
    InspectData data{model,  &imported->graph,   *stats,
                     &*arch, imported->warnings, parser.has("ops")};
    if (parser.has("json"))
        printInspectJson(data, out);
    else
        printInspectText(data, out);
    return kExitOk;
}

} // namespace stagecraft::cli
