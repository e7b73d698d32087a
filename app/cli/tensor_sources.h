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

struct KernelRequest;

/// The names nameless .pb inputs take by position: a file model's declared
/// inputs (a zoo model or a session declares none before import).
std::vector<std::string> declaredInputNames(const KernelRequest& kernels);

/// A file's inputs whose shapes are open take the given tensors' shapes
/// (unless --input or --dim bind them), and the importer may compile in the
/// given values where it needs a constant (onnxio::ImportOptions::inputValues).
void bindGivenInputs(KernelRequest& kernels, const codegen::TensorSet& given);

/// The ONNX backend tests store bfloat16 tensors as uint16 bit patterns
/// (numpy has no bfloat16): a u16 tensor given for a bf16 tensor of \p ids
/// (the graph's inputs or outputs) is read as bf16.
void readBFloat16Bits(codegen::TensorSet& tensors, const ir::Graph& graph,
                      const std::vector<ir::TensorId>& ids);

} // namespace stagecraft::cli
