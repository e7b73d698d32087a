#pragma once
// The model of the CLI's schedule-based commands: driver/model_load.h (shared
// with stagecraft-studio), and the --precision option that sets its type.

#include "cli/args.h"
#include "driver/model_load.h"

#include <optional>
#include <string>

namespace stagecraft::cli {

using driver::defaultBatch;
using driver::fixedBatch;
using driver::inModel;
using driver::LoadedModel;
using driver::loadModel;
using driver::ModelSpec;

/// Adds --precision f32|f16|bf16 to \p parser.
void addPrecisionOption(ArgParser& parser);

/// Reads --precision into \p spec; a usage error message, or nothing.
std::optional<std::string> readPrecision(const ArgParser& parser, ModelSpec& spec);

/// An error when \p spec asks for a precision \p arch has no rates for.
Status checkPrecision(const ModelSpec& spec, const arch::Arch& arch);

} // namespace stagecraft::cli
