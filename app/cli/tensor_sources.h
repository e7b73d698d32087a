#pragma once
// Tensors the CLI reads: a stagecraft-tensors JSON file, one ONNX
// TensorProto file (.pb), or a directory of them as the ONNX backend tests
// store theirs (test_data_set_N/input_K.pb and output_K.pb).

#include "codegen/tensors.h"
#include "ir/const_tensor.h"
#include "onnx/declared_inputs.h"
#include "support/expected.h"

#include <map>
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

/// A file model's declared inputs, read once (a zoo model or a session
/// declares none before import; an unreadable file gives none, and import
/// reports it).
std::vector<onnxio::DeclaredInput> declaredInputsOf(const KernelRequest& kernels);

/// Their names: the names nameless .pb inputs take by position.
std::vector<std::string> inputNames(const std::vector<onnxio::DeclaredInput>& declared);

/// The file's inputs (\p declared) whose shapes are open take the given
/// tensors' shapes (unless --input or --dim bind them), and the importer may
/// compile in the given values where it needs a constant
/// (onnxio::ImportOptions::inputValues).
void bindGivenInputs(KernelRequest& kernels, const codegen::TensorSet& given,
                     const std::vector<onnxio::DeclaredInput>& declared);

/// The inputs given by --value (\p bound) replace what \p tensors (seeded
/// or read) hold for them: the kernels were compiled for those values.
void applyBoundValues(codegen::TensorSet& tensors,
                      const std::map<std::string, ir::ConstTensor>& bound);

/// The ONNX backend tests store bfloat16 tensors as uint16 bit patterns
/// (numpy has no bfloat16): a u16 tensor given for a bf16 tensor of \p ids
/// (the graph's inputs or outputs) is read as bf16.
void readBFloat16Bits(codegen::TensorSet& tensors, const ir::Graph& graph,
                      const std::vector<ir::TensorId>& ids);

} // namespace stagecraft::cli
