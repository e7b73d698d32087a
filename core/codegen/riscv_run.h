#pragma once
/// \file
/// Running the riscv64 kernels (docs/codegen.md, "The riscv64 runner"): the
/// objects `emit --target riscv64` writes are linked with the model library
/// (model_library.h: weights.bin, model.c, the C runtime, the example
/// program) by Debian's riscv64 cross compiler into a static program, which
/// qemu-riscv64 runs with the vector extension (RVV 1.0) at the VLEN asked
/// for: each kernel on as many threads as its binding has cores
/// (sc_barrier is a pthread barrier), inputs and outputs as tensors files.
/// Everything lives in a temporary directory, removed afterwards.

#include "codegen/codegen.h"
#include "codegen/tensors.h"

namespace stagecraft::codegen {

struct RiscvRunOptions {
    /// VLEN of the emulated vector unit in bits: 128, 256, 512 or 1024.
    int vlen = 256;
};

/// The cross compiler and the emulator the runner needs.
inline constexpr const char* kRiscvCompiler = "riscv64-linux-gnu-gcc";
inline constexpr const char* kRiscvEmulator = "qemu-riscv64";

/// An error naming the Debian packages to install when the cross compiler or
/// qemu-riscv64 is not on the PATH.
Status checkRiscvTools();

/// Runs \p program (emitted for riscv64 from \p plan) on \p inputs (matched
/// to the graph's inputs by name) and returns the graph's outputs in graph
/// order. The error names the step that failed and what it printed.
Expected<TensorSet> runOnRiscv(const ir::Graph& graph, const CodePlan& plan,
                               const EmittedProgram& program, const TensorSet& inputs,
                               const RiscvRunOptions& options = {});

} // namespace stagecraft::codegen
