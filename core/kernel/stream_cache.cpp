// A GB that is a hardware cache (docs/simulator.md, "A GB that is a cache"):
// on a CPU, the global buffer is the last-level cache in front of DRAM, so a
// tensor the schedule puts in DDR is read from the cache while the cache
// still holds it, and a store to DDR is written into the cache (write-back).
// The residency rule is least-recently-used by bytes, in program order:
// every byte stored through the cache or brought into it (a read that
// missed, a weight fetched from DDR) advances a clock; a tensor last touched
// when the clock read t is still held while the bytes since t, and its own,
// fit the cache. A graph input is held from the start (its caller wrote it).
// Write-backs of evicted lines to DRAM are not charged: they overlap later
// work. Every strategy alike; architectures whose GB is a scratchpad never
// use it.

#include "kernel/internal/stream_builder.h"

namespace stagecraft::kernel::detail {

CacheResidency::CacheResidency(int64_t capacity)
    : capacity_(capacity) {}

void CacheResidency::stored(Key key, int64_t bytes) {
    clock_ += bytes;
    touched_[key] = clock_;
}

bool CacheResidency::read(Key key, int64_t bytes) {
    auto it = touched_.find(key);
    int64_t since = it == touched_.end() ? (key.input != ir::kNoTensor ? 0 : -1) : it->second;
    if (since >= 0 && clock_ - since + bytes <= capacity_) {
        touched_[key] = clock_;
        return true;
    }
    clock_ += bytes;
    touched_[key] = clock_;
    return false;
}

void CacheResidency::brought(int64_t bytes) {
    clock_ += bytes;
}

} // namespace stagecraft::kernel::detail
