// stagecraft zoo: lists the built-in models or writes one as ONNX + weights.

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/output_paths.h"
#include "ir/precision.h"
#include "support/strings.h"
#include "zoo/zoo.h"

#include <optional>
#include <ostream>
#include <utility>

namespace stagecraft::cli {

namespace {

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft zoo --list | stagecraft zoo NAME --out FILE [options]",
        "Writes a model of the GraphTurbo paper's evaluation (or of its figures) as\n"
        "an ONNX file (opset 13, static shapes) and its weights as <FILE stem>.weights\n"
        "next to it.");
    parser.addPositional("NAME", "the model to write (see --list)", false);
    parser.addSwitch("list", "list the models with their default configuration");
    parser.addOption("out", "FILE", "the ONNX file to write");
    parser.addOption("batch", "N", "batch size (default: the model's)");
    parser.addOption("seq", "N", "sequence length of BERT (tokens) or the Conformer (frames)");
    parser.addOption("weights", "zeros|seeded",
                     "zero weights (a sparse file, default) or seeded random values");
    parser.addOption("precision", "f32|f16|bf16|i8|i8-dynamic",
                     "store weights and activations at this width, inputs and outputs f32 "
                     "(default f32); i8: int8 QDQ (static scales), i8-dynamic: "
                     "DynamicQuantizeLinear with ConvInteger/MatMulInteger");
    return parser;
}

std::string defaults(const zoo::ZooModelInfo& model) {
    std::string text = "batch " + std::to_string(model.defaultBatch);
    if (model.defaultSeq)
        text += ", seq " + std::to_string(*model.defaultSeq);
    return text;
}

void printList(std::ostream& out) {
    for (const zoo::ZooModelInfo& model : zoo::zooModels()) {
        std::string name = model.name;
        std::string config = defaults(model);
        out << name << std::string(name.size() < 14 ? 14 - name.size() : 1, ' ') << config
            << std::string(config.size() < 20 ? 20 - config.size() : 1, ' ') << model.description
            << "\n";
    }
}

/// Reads a whole-number option; false (with a message in \p err) when it is
/// not a number.
bool readCount(const ArgParser& parser, const std::string& name, int64_t& value,
               std::ostream& err) {
    std::optional<std::string> text = parser.value(name);
    if (!text)
        return true;
    std::optional<int64_t> parsed = parseInt(*text);
    if (!parsed) {
        err << "stagecraft zoo: --" << name << " needs a whole number, got " << quote(*text)
            << "\n";
        return false;
    }
    value = *parsed;
    return true;
}

} // namespace

int runZoo(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << "stagecraft zoo: " << parser.error() << " (see 'stagecraft zoo --help')\n";
        return kExitBadUsage;
    }
    if (parser.helpRequested()) {
        out << parser.helpText();
        return kExitOk;
    }
    if (parser.has("list")) {
        printList(out);
        return kExitOk;
    }
    std::optional<std::string> name = parser.positional("NAME");
    std::optional<std::string> file = parser.value("out");
    if (!name || !file) {
        err << "stagecraft zoo: missing " << (name ? "--out FILE" : "NAME")
            << " (see 'stagecraft zoo --help')\n";
        return kExitBadUsage;
    }
    zoo::ZooOptions options;
    if (!readCount(parser, "batch", options.batch, err) ||
        !readCount(parser, "seq", options.seq, err))
        return kExitBadUsage;
    std::string fill = parser.value("weights", "zeros");
    if (fill != "zeros" && fill != "seeded") {
        err << "stagecraft zoo: --weights must be zeros or seeded, got " << quote(fill) << "\n";
        return kExitBadUsage;
    }
    options.weights = fill == "seeded" ? onnxio::WeightFill::Seeded : onnxio::WeightFill::Zeros;
    std::optional<std::string> precisionText = parser.value("precision");
    if (precisionText == "i8" || precisionText == "i8-dynamic") {
        options.quantization =
            *precisionText == "i8" ? onnxio::Quantization::Static : onnxio::Quantization::Dynamic;
    } else if (std::optional<std::string> text = precisionText) {
        Expected<ir::DType> precision = ir::parsePrecision(*text);
        if (!precision.ok()) {
            err << "stagecraft zoo: --precision: unknown precision " << quote(*text)
                << " (expected f32, f16, bf16, i8 or i8-dynamic)\n";
            return kExitBadUsage;
        }
        options.precision = *precision;
    }
    // 0 means "the model's default" in the API; on the command line it is a mistake.
    const std::pair<const char*, int64_t> counts[] = {{"batch", options.batch},
                                                      {"seq", options.seq}};
    for (auto [option, value] : counts)
        if (parser.has(option) && value < 1) {
            err << "stagecraft zoo: --" << option << " must be at least 1, got " << value << "\n";
            return kExitBadInput;
        }

    if (Status output = checkOutputOptions(parser, {"out"}); !output.ok()) {
        err << "stagecraft zoo: " << output.error().message() << "\n";
        return kExitBadInput;
    }
    auto written = zoo::writeZooModel(*name, options, *file);
    if (!written.ok()) {
        err << "stagecraft zoo: " << written.error().message() << "\n";
        return kExitBadInput;
    }
    out << "wrote " << *name << " (batch " << written->batch;
    if (written->seq != 0)
        out << ", seq " << written->seq;
    out << ", " << formatCount(written->parameters) << " parameters) to "
        << written->modelPath.string() << " and " << written->weightsPath.string() << " ("
        << formatBytes(written->weightBytes) << ", " << fill << ")\n";
    return kExitOk;
}

} // namespace stagecraft::cli
