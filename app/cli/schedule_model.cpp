// The --precision option of the CLI's schedule-based commands
// (schedule_model.h).

#include "cli/schedule_model.h"

#include "ir/precision.h"

namespace stagecraft::cli {

void addPrecisionOption(ArgParser& parser) {
    parser.addOption("precision", "f32|f16|bf16",
                     "store, move and compute the model's floating-point tensors at this width "
                     "(default: as the model stores them)");
}

std::optional<std::string> readPrecision(const ArgParser& parser, ModelSpec& spec) {
    std::optional<std::string> text = parser.value("precision");
    if (!text)
        return std::nullopt;
    Expected<ir::DType> precision = ir::parsePrecision(*text);
    if (!precision.ok())
        return "--precision: " + precision.error().message();
    spec.precision = *precision;
    return std::nullopt;
}

Status checkPrecision(const ModelSpec& spec, const arch::Arch& arch) {
    return spec.precision ? arch::checkPrecisionRates(arch, *spec.precision) : Status::success();
}

} // namespace stagecraft::cli
