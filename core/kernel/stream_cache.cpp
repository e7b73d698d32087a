// A GB that is a hardware cache (docs/simulator.md, "A GB that is a cache"):
// on a CPU, the global buffer is the last-level cache in front of DRAM, so a
// tensor the schedule puts in DDR is read from the cache while the cache
// still holds it, and a store to DDR is written into the cache (write-back).
// The residency rule is least-recently-used by bytes, in program order:
// every byte stored through the cache or brought into it (a read that
// missed, a weight fetched from DDR) advances a clock; a tensor last touched
// when the clock read t is still held while the bytes since t, and its own,
// fit the cache. A graph input is held from the start (its caller wrote it).
// A store to lines the cache does not hold reads them from DRAM first
// (write-allocate); a run starts with what the run before left in the cache
// (the program is built twice, streams.cpp), as the measurement repeats it.
// Write-backs of evicted lines to DRAM are not charged: they overlap later
// work. Every strategy alike; architectures whose GB is a scratchpad never
// use it.

#include "kernel/internal/stream_builder.h"

namespace stagecraft::kernel::detail {

CacheResidency::CacheResidency(int64_t capacity)
    : capacity_(capacity) {}

void CacheResidency::continueFrom(const CacheResidency& previous) {
    touched_.clear();
    for (const auto& [key, at] : previous.touched_)
        if (key.input == ir::kNoTensor) // an input is written afresh by the caller
            touched_[key] = at - previous.clock_;
    clock_ = 0;
}

bool CacheResidency::held(Key key, int64_t bytes) const {
    auto it = touched_.find(key);
    if (it == touched_.end())
        return key.input != ir::kNoTensor && clock_ + bytes <= capacity_;
    return clock_ - it->second + bytes <= capacity_;
}

bool CacheResidency::stored(Key key, int64_t bytes) {
    bool hit = held(key, bytes);
    clock_ += bytes;
    touched_[key] = clock_;
    return hit;
}

bool CacheResidency::read(Key key, int64_t bytes) {
    if (held(key, bytes)) {
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
