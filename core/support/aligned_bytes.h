#pragma once
/// \file
/// Bytes that start at a cache line: a 64-byte vector of them is one line,
/// not two. The host runner's tensors, arena and per-core scratch live in
/// these, and inline and derived weights (docs/codegen.md, "Host memory").

#include <cstddef>
#include <new>
#include <vector>

namespace stagecraft {

/// The alignment of AlignedBytes: a cache line, and an AVX-512 vector.
inline constexpr std::size_t kCacheLine = 64;

/// An allocator whose blocks start at a kCacheLine boundary.
template <class T>
struct CacheLineAllocator {
    using value_type = T;

    CacheLineAllocator() = default;
    template <class U>
    CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{kCacheLine}));
    }
    void deallocate(T* p, std::size_t) noexcept {
        ::operator delete (p, std::align_val_t{kCacheLine});
    }
    template <class U>
    bool operator==(const CacheLineAllocator<U>&) const noexcept {
        return true;
    }
};

using AlignedBytes = std::vector<std::byte, CacheLineAllocator<std::byte>>;

} // namespace stagecraft
