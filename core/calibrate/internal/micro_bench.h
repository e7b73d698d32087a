#pragma once
/// \file
/// Micro-benchmarks of this machine for `stagecraft arch calibrate`
/// (docs/simulator.md, "Fidelity"): loops written in LLVM IR and compiled
/// by the same LLVM and host target as the emitted kernels, so that they see
/// the machine as the kernels do. Internal to core/calibrate.

#include "ir/dtype.h"
#include "support/expected.h"

#include <cstdint>

namespace stagecraft::calibrate {

/// Sustained streaming bandwidth in bytes per ns (reads plus writes) of
/// \p threads threads, each computing y[i] = x[i] * a + b over its own
/// pair of f32 buffers of \p bytes / threads bytes in all, repeated for at
/// least \p seconds.
Expected<double> streamBandwidth(int64_t bytes, int threads, double seconds);

/// Multiply-accumulates per ns one thread sustains on \p dtype (f32, f64 or
/// i32) with eight independent chains of host-width vectors, for at least
/// \p seconds.
Expected<double> multiplyAddRate(ir::DType dtype, double seconds);

} // namespace stagecraft::calibrate
