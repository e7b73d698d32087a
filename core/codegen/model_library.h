#pragma once
/// \file
/// The model library (docs/codegen.md, "The model library"): what `emit
/// --format library` writes beside the kernel objects so that the kernels run
/// without Stagecraft. weights.bin holds every weight as the kernels read it
/// (folded at import, converted to the emitted precision, packed for the
/// host), each at a 64-byte aligned offset; model.h and model.c describe the
/// tensor table, the kernels in order with their cores and the graph's
/// inputs and outputs for the C runtime in runtime/; example.c runs the model
/// on a tensors file; a CMakeLists.txt and a Makefile build both.

#include "codegen/codegen.h"
#include "support/aligned_bytes.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace stagecraft::codegen {

/// Bytes every weight's offset in weights.bin is a multiple of.
inline constexpr int64_t kWeightsAlignment = 64;
/// The runtime's SC_RUNTIME_ABI_VERSION the generated model.c is for.
inline constexpr int kLibraryAbiVersion = 1;

/// weights.bin: per table slot, where its initial bytes lie (-1: the slot
/// starts zeroed) and how many there are.
struct WeightsImage {
    std::string bytes;
    std::vector<int64_t> offsets;
    std::vector<int64_t> storedBytes;
    /// FNV-1a over the little-endian 64-bit words of bytes (the last one
    /// zero-padded), which the runtime checks when it loads the file.
    uint64_t fnv1a64 = 0;
};

/// Lays out the initial bytes of \p plan's table for \p target: weights (on
/// the host as GlobalTensor::hostTransposed and hostRowPitch say) and graph
/// outputs that import folded to constants.
Expected<WeightsImage> weightsImage(const ir::Graph& graph, const CodePlan& plan, Target target);

/// The \p rows x cols matrix \p g of \p bytes as the host stores it
/// (GlobalTensor::hostTransposed, hostRowPitch).
AlignedBytes hostStoredWeight(const ir::Graph& graph, const GlobalTensor& g,
                              std::span<const std::byte> bytes);

/// A file of the library: its path relative to the output folder ("/"
/// separated; runtime files under "runtime/") and its bytes.
struct LibraryFile {
    std::string path;
    std::string bytes;
};

struct ModelLibrary {
    WeightsImage weights;
    /// weights.bin excluded; in the order they are listed in the manifest.
    std::vector<LibraryFile> files;
};

/// The runtime's and the example's sources, as shipped (library/).
std::vector<LibraryFile> libraryRuntimeFiles();

/// The library of \p program. Fails, naming the tensor or kernel, when a
/// graph output is computed by no kernel or a symbol is no C identifier.
Expected<ModelLibrary> buildModelLibrary(const ir::Graph& graph, const CodePlan& plan,
                                         const EmittedProgram& program,
                                         const std::string& modelName);

} // namespace stagecraft::codegen
