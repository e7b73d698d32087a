#pragma once
/// \file
/// A content-addressed cache of compiled kernels (docs/codegen.md, "The
/// object cache"). A kernel's key is the SHA-256 of everything its object
/// depends on: its unoptimized IR, the target (triple, CPU, features), the
/// optimization level and LLVM's version. An entry holds the optimized IR
/// text and the ELF object behind a header that repeats the key, carries
/// the SHA-256 of the payload and an HMAC-SHA256 of the header under the
/// user's secret (kept in the user's private config directory), so a
/// truncated, corrupt, foreign or planted file is treated as a miss and
/// replaced, never linked into a process. The cache is a private directory
/// (support/private_dir.h: the user's, 0700, writable by no one else);
/// entries are reached without following links and written atomically (a
/// temporary file renamed over the entry), so processes that share the
/// cache never read half an entry.

#include "support/expected.h"
#include "support/private_dir.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stagecraft::codegen {

struct TargetInfo;

/// What a cache entry gives back.
struct CachedKernel {
    std::string ir;
    std::string object;
    int64_t instructions = 0;
};

/// $STAGECRAFT_CACHE_DIR/objects, else $XDG_CACHE_HOME/stagecraft/objects,
/// else ~/.cache/stagecraft/objects; empty when none of them is set (then
/// there is no cache: never one in a shared folder).
std::filesystem::path defaultObjectCacheDir();

/// What to say, once, when defaultObjectCacheDir() is empty.
std::string noObjectCacheDirNote();

/// The most bytes the object cache keeps: $STAGECRAFT_CACHE_MAX ("512M",
/// "2G", bytes), else 1 GiB; an unreadable value counts as unset.
int64_t objectCacheMaxBytes();

/// Entries of the cache and the bytes they take.
struct CacheUse {
    int64_t entries = 0;
    int64_t bytes = 0;
};

/// What the cache in \p dir holds, and its pruning (ObjectCache::prune):
/// they read no entry, so they need no secret and write nothing else
/// (`stagecraft cache`).
Expected<CacheUse> objectCacheUse(const PrivateDir& dir);
Expected<CacheUse> pruneObjectCache(const PrivateDir& dir, int64_t maxBytes);

class ObjectCache {
public:
    /// The cache in \p dir (created 0700 if missing), its secret from the
    /// user's config directory (else kept in \p dir itself); an error saying
    /// why the directory cannot be used (another user's, writable by others,
    /// a symbolic link).
    static Expected<ObjectCache> open(const std::filesystem::path& dir);

    /// The key of a kernel whose unoptimized IR is \p ir.
    static std::string keyOf(std::string_view ir, const TargetInfo& target, int optLevel);

    /// The entry of \p key when it is present, intact and sealed with this
    /// user's secret.
    std::optional<CachedKernel> load(const std::string& key) const;
    /// Writes the entry of \p key (replacing whatever is there).
    Status store(const std::string& key, const CachedKernel& kernel) const;

    /// Where the entry of \p key lives.
    std::filesystem::path pathOf(const std::string& key) const;

    /// What the cache holds now.
    Expected<CacheUse> use() const;
    /// Removes the least recently used entries (a hit counts as a use)
    /// until at most \p maxBytes remain; \returns what was removed.
    Expected<CacheUse> prune(int64_t maxBytes) const;

    const std::filesystem::path& path() const { return dir_.path(); }

private:
    ObjectCache(PrivateDir dir, std::string secret)
        : dir_(std::move(dir))
        , secret_(std::move(secret)) {}

    PrivateDir dir_;
    std::string secret_;
};

} // namespace stagecraft::codegen
