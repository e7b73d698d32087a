#pragma once
/// \file
/// Threads held on CPUs (docs/decisions.md, "Host threads pinned"): the
/// host runner keeps each of its threads on a CPU of its own while a
/// program runs, as OpenMP's OMP_PROC_BIND does, so that a guest kernel that
/// packs runnable threads onto one virtual CPU cannot halve a run.

#include <cstddef>
#include <thread>
#include <vector>

namespace stagecraft::codegen {

/// The CPUs the calling thread may run on (its affinity), in order.
std::vector<int> allowedCpus();

/// Holds the calling thread on the \p index-th of \p cpus (modulo their
/// count) where there are two or more; whether it did.
bool pinThisThread(const std::vector<int>& cpus, size_t index);
/// Holds \p thread on the \p index-th of \p cpus (as pinThisThread), from
/// the thread that made it: held from then on, whether or not it has run yet.
bool pinThread(std::thread& thread, const std::vector<int>& cpus, size_t index);

/// Holds the calling thread on the first of its allowed CPUs for its
/// lifetime and gives it its own affinity back after; does nothing where
/// the thread may run on one CPU only.
class PinnedCaller {
public:
    PinnedCaller();
    ~PinnedCaller();
    PinnedCaller(const PinnedCaller&) = delete;
    PinnedCaller& operator=(const PinnedCaller&) = delete;

private:
    bool pinned_ = false;
    alignas(unsigned long) unsigned char saved_[128] = {}; // a cpu_set_t, out of this header
};

} // namespace stagecraft::codegen
