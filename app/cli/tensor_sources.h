#pragma once
// Tensors the CLI reads: a stagecraft-tensors JSON file, one ONNX
// TensorProto file (.pb), or a directory of them as the ONNX backend tests
// store theirs (test_data_set_N/input_K.pb and output_K.pb).

#include "codegen/tensors.h"
#include "support/expected.h"

#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::cli {

/// Reads \p path. In a directory the files are PREFIX_0.pb, PREFIX_1.pb, ...;
/// a .pb tensor without a name takes the name of \p positional at its index
/// (the model's inputs or outputs in order). Errors name the file.
Expected<codegen::TensorSet> readTensorSource(const std::string& path, std::string_view prefix,
                                              const std::vector<std::string>& positional);

} // namespace stagecraft::cli
