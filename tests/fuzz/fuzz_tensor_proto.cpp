// Fuzzes the ONNX TensorProto file reader, onnxio::readTensorProtoFile
// (`run --inputs`/`--reference` with .pb files, docs/codegen.md): any bytes
// give a tensor or a one-line error naming the file, never a crash, hang or
// exception. An accepted tensor holds exactly its shape's bytes. The seeds
// are data sets of the ONNX backend tests (libonnx-testdata): float, int64,
// bfloat16 stored as uint16, a scalar and an empty tensor.

#include "fuzz_harness.h"
#include "fuzz_support.h"
#include "onnx/tensor_file.h"

#include <fstream>

using namespace stagecraft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::filesystem::path path = fuzz::scratchDirectory() / "tensor.pb";
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        out.close();
        fuzz::check(!out.fail(), "the input is written to the scratch directory");
    }
    auto read = onnxio::readTensorProtoFile(path);
    if (!read.ok()) {
        fuzz::check(read.error().message().find('\n') == std::string::npos, "errors are one line");
        return 0;
    }
    const ir::ConstTensor& t = read->value;
    fuzz::check(static_cast<int64_t>(t.bytes().size()) ==
                    t.elementCount() * ir::dtypeSize(t.dtype()),
                "a tensor holds its shape's bytes");
    return 0;
}
