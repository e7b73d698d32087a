#pragma once
// Small ONNX models for the seed corpus of the ONNX harness (seed_models.cpp).

#include <string>
#include <utility>
#include <vector>

namespace stagecraft::fuzz {

/// Named serialized models, each a few op families at one opset, with
/// inline weights: convolutions, attention, shape chains, data movement,
/// reductions and selection, the opset 9 forms, an opset 7 model (converted),
/// a custom-domain op, an unbound symbolic dimension.
std::vector<std::pair<std::string, std::string>> seedModels();

} // namespace stagecraft::fuzz
