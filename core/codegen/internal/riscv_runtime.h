#pragma once
/// \file
/// The C source of the riscv64 runner's runtime (riscv_runtime.cpp).

namespace stagecraft::codegen::detail {

/// The runtime: main, the job reader, the threads and sc_barrier.
const char* riscvRuntimeSource();

} // namespace stagecraft::codegen::detail
