#pragma once
/// \file
/// LLVM's allocation failures as Stagecraft's one-line error (docs/limits.md,
/// "How much is allocated"): LLVM reports running out of memory through
/// report_bad_alloc_error, which aborts with a core dump by default. The
/// handler prints one line and exits with status 1 instead. It must not
/// allocate, so the line is fixed text written with write(2). For the
/// translation units that already use LLVM; include nothing else with it.

#include <llvm/Support/ErrorHandling.h>

#include <cstring>
#include <unistd.h>

namespace stagecraft::support {

[[noreturn]] inline void llvmOutOfMemory(void*, const char*, bool) {
    static const char line[] =
        "stagecraft: error: LLVM ran out of memory while compiling kernels; free memory, raise "
        "the process's limits or compile fewer kernels at once\n";
    ssize_t ignored = ::write(STDERR_FILENO, line, sizeof line - 1);
    (void)ignored;
    ::_exit(1);
}

/// Installs llvmOutOfMemory once per process (call before any LLVM work).
inline void installLlvmOutOfMemoryHandler() {
    static const bool installed = [] {
        llvm::install_bad_alloc_error_handler(llvmOutOfMemory);
        return true;
    }();
    (void)installed;
}

} // namespace stagecraft::support
