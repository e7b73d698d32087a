#pragma once
/// \file
/// Serialized ONNX TensorProto files, as the ONNX backend tests store their
/// inputs and expected outputs (test_data_set_N/input_K.pb, output_K.pb).

#include "ir/const_tensor.h"
#include "support/expected.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::onnxio {

/// One tensor of a .pb file; \p name is empty when the file names none.
struct NamedTensor {
    std::string name;
    ir::ConstTensor value;
};

/// Reads one TensorProto file; errors name the file and what is wrong with
/// it (not a TensorProto, an element type without a fixed width, external
/// data).
Expected<NamedTensor> readTensorProtoFile(const std::filesystem::path& file);

/// The files PREFIX_0.pb, PREFIX_1.pb, ... of \p dir in order of K, up to the
/// first missing one; an error when there is none.
Expected<std::vector<NamedTensor>> readTensorProtoDir(const std::filesystem::path& dir,
                                                      std::string_view prefix);

} // namespace stagecraft::onnxio
