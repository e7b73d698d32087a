#pragma once
/// \file
/// A content-addressed cache of compiled kernels (docs/codegen.md, "The
/// object cache"). A kernel's key is the SHA-256 of everything its object
/// depends on: its unoptimized IR, the target (triple, CPU, features), the
/// optimization level and LLVM's version. An entry holds the optimized IR
/// text and the ELF object behind a header that repeats the key and carries
/// the SHA-256 of the payload, so a truncated, corrupt or foreign file is
/// treated as a miss and replaced, never trusted. Entries are written
/// atomically (a temporary file renamed over the entry), so processes that
/// share the cache never read half an entry.

#include "support/expected.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace stagecraft::codegen {

struct TargetInfo;

/// What a cache entry gives back.
struct CachedKernel {
    std::string ir;
    std::string object;
    int64_t instructions = 0;
};

/// $STAGECRAFT_CACHE_DIR/objects, else $XDG_CACHE_HOME/stagecraft/objects,
/// else ~/.cache/stagecraft/objects.
std::filesystem::path defaultObjectCacheDir();

class ObjectCache {
public:
    explicit ObjectCache(std::filesystem::path dir)
        : dir_(std::move(dir)) {}

    /// The key of a kernel whose unoptimized IR is \p ir.
    static std::string keyOf(std::string_view ir, const TargetInfo& target, int optLevel);

    /// The entry of \p key when it is present and intact.
    std::optional<CachedKernel> load(const std::string& key) const;
    /// Writes the entry of \p key (replacing whatever is there).
    Status store(const std::string& key, const CachedKernel& kernel) const;

    /// Where the entry of \p key lives.
    std::filesystem::path pathOf(const std::string& key) const;

private:
    std::filesystem::path dir_;
};

} // namespace stagecraft::codegen
