// The object cache (object_cache.h). An entry is a text header, then the
// payload (the optimized IR, then the object):
//
//   stagecraft-object-cache 2
//   key <64 hex digits>
//   ir <bytes>
//   object <bytes>
//   instructions <count>
//   sha256 <64 hex digits of the payload>
//   hmac <64 hex digits: HMAC-SHA256 of the lines above under the secret>
//   <empty line>
//
// load() checks every field against the file and the key it was asked for,
// and the seal against this user's secret; anything else is a miss. The
// secret is 32 random bytes in "object-cache.key" of the user's private
// config directory, made once (the first writer wins a race, the others
// read it).

#include "codegen/object_cache.h"

#include "codegen/codegen.h"
#include "support/limits.h"
#include "support/sha256.h"
#include "support/strings.h"

#include <llvm/Config/llvm-config.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <map>
#include <sys/random.h>
#include <tuple>

namespace stagecraft::codegen {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "stagecraft-object-cache 2";

constexpr std::string_view kSecretFile = "object-cache.key";

/// Bumped when emit_program.cpp's pipeline changes what an IR compiles to.
constexpr std::string_view kPipeline = "pipeline 2";

/// An entry's header fields, by name; nullopt when the header is malformed.
std::optional<std::map<std::string, std::string, std::less<>>> readHeader(std::string_view text,
                                                                          size_t& payloadStart) {
    size_t end = text.find("\n\n");
    if (end == std::string_view::npos ||
        text.substr(0, kMagic.size() + 1) != std::string(kMagic) + "\n")
        return std::nullopt;
    std::map<std::string, std::string, std::less<>> fields;
    size_t at = kMagic.size() + 1;
    while (at < end) {
        size_t lineEnd = text.find('\n', at);
        std::string_view line = text.substr(at, lineEnd - at);
        size_t space = line.find(' ');
        if (space == std::string_view::npos)
            return std::nullopt;
        fields.emplace(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
        at = lineEnd + 1;
    }
    payloadStart = end + 2;
    return fields;
}

std::optional<int64_t> number(const std::map<std::string, std::string, std::less<>>& fields,
                              std::string_view name) {
    auto found = fields.find(name);
    if (found == fields.end())
        return std::nullopt;
    int64_t value = 0;
    const std::string& text = found->second;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 0)
        return std::nullopt;
    return value;
}

bool isHex64(std::string_view text) {
    return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

/// The secret kept in \p dir, made there if missing or malformed.
Expected<std::string> secretIn(const PrivateDir& dir) {
    SC_ASSIGN_OR_RETURN(std::optional<std::string> kept, dir.read(kSecretFile, 1024));
    if (kept && isHex64(*kept))
        return *kept;
    std::array<std::byte, 32> random{};
    if (::getrandom(random.data(), random.size(), 0) != static_cast<ssize_t>(random.size()))
        return Error(dir.path().string() + ": cannot draw the object cache's secret");
    std::string fresh = toHex(random);
    if (kept) { // malformed: only its owner could have written it; make it anew
        SC_RETURN_IF_ERROR(dir.write(kSecretFile, fresh));
        return fresh;
    }
    SC_ASSIGN_OR_RETURN(bool created, dir.create(kSecretFile, fresh));
    if (created)
        return fresh;
    SC_ASSIGN_OR_RETURN(kept, dir.read(kSecretFile, 1024)); // another process made it
    if (!kept || !isHex64(*kept))
        return Error((dir.path() / kSecretFile).string() + ": not a secret of this cache");
    return *kept;
}

std::string header(const std::string& key, const CachedKernel& kernel, std::string_view payload) {
    return std::string(kMagic) + "\nkey " + key + "\nir " + std::to_string(kernel.ir.size()) +
           "\nobject " + std::to_string(kernel.object.size()) + "\ninstructions " +
           std::to_string(kernel.instructions) + "\nsha256 " + sha256Hex(payload) + "\n";
}

} // namespace

fs::path defaultObjectCacheDir() {
    std::optional<fs::path> cache = privateDirPath(StateKind::Cache);
    return cache ? *cache / "objects" : fs::path();
}

std::string noObjectCacheDirNote() {
    return "no object cache: neither $STAGECRAFT_CACHE_DIR, $XDG_CACHE_HOME nor $HOME is set, "
           "and Stagecraft keeps no cache in a shared folder";
}

Expected<ObjectCache> ObjectCache::open(const fs::path& dir) {
    SC_ASSIGN_OR_RETURN(PrivateDir cache, PrivateDir::openPath(dir, false));
    Expected<PrivateDir> config = PrivateDir::open(StateKind::Config);
    SC_ASSIGN_OR_RETURN(std::string secret, secretIn(config.ok() ? *config : cache));
    return ObjectCache(std::move(cache), std::move(secret));
}

std::string ObjectCache::keyOf(std::string_view ir, const TargetInfo& target, int optLevel) {
    Sha256 hash;
    for (std::string_view part :
         {kMagic, kPipeline, std::string_view(LLVM_VERSION_STRING), std::string_view(target.triple),
          std::string_view(target.cpu), std::string_view(target.features)}) {
        hash.update(part);
        hash.update(std::string_view("\n", 1));
    }
    hash.update("O" + std::to_string(optLevel) + "\n");
    hash.update(ir);
    return toHex(hash.digest());
}

fs::path ObjectCache::pathOf(const std::string& key) const {
    return dir_.path() / key.substr(0, 2) / (key + ".entry");
}

int64_t objectCacheMaxBytes() {
    constexpr int64_t kDefault = int64_t{1} << 30;
    const char* text = std::getenv("STAGECRAFT_CACHE_MAX");
    std::optional<int64_t> bytes = text ? parseByteSize(text) : std::nullopt;
    return bytes ? *bytes : kDefault;
}

namespace {

/// One entry file of the cache: its shard, name, size and last use.
struct EntryFile {
    std::string shard;
    DirEntry file;
};

/// Every entry of \p dir (the shards are its two-hex-digit directories).
Expected<std::vector<EntryFile>> entriesOf(const PrivateDir& dir) {
    SC_ASSIGN_OR_RETURN(std::vector<DirEntry> shards, dir.list());
    std::vector<EntryFile> entries;
    for (const DirEntry& shard : shards) {
        if (!shard.directory || shard.name.size() != 2)
            continue;
        SC_ASSIGN_OR_RETURN(PrivateDir sub, dir.sub(shard.name));
        SC_ASSIGN_OR_RETURN(std::vector<DirEntry> files, sub.list());
        for (DirEntry& file : files)
            if (!file.directory && file.name.ends_with(".entry"))
                entries.push_back({shard.name, std::move(file)});
    }
    return entries;
}

} // namespace

Expected<CacheUse> objectCacheUse(const PrivateDir& dir) {
    SC_ASSIGN_OR_RETURN(std::vector<EntryFile> entries, entriesOf(dir));
    CacheUse use;
    for (const EntryFile& e : entries) {
        ++use.entries;
        use.bytes += e.file.bytes;
    }
    return use;
}

Expected<CacheUse> pruneObjectCache(const PrivateDir& dir, int64_t maxBytes) {
    SC_ASSIGN_OR_RETURN(std::vector<EntryFile> entries, entriesOf(dir));
    int64_t total = 0;
    for (const EntryFile& e : entries)
        total += e.file.bytes;
    // Oldest use first; ties by name, so the same cache prunes the same way.
    std::sort(entries.begin(), entries.end(), [](const EntryFile& a, const EntryFile& b) {
        return std::tie(a.file.modifiedNs, a.shard, a.file.name) <
               std::tie(b.file.modifiedNs, b.shard, b.file.name);
    });
    CacheUse removed;
    for (const EntryFile& e : entries) {
        if (total <= maxBytes)
            break;
        SC_ASSIGN_OR_RETURN(PrivateDir shard, dir.sub(e.shard));
        SC_RETURN_IF_ERROR(shard.remove(e.file.name));
        total -= e.file.bytes;
        ++removed.entries;
        removed.bytes += e.file.bytes;
    }
    return removed;
}

Expected<CacheUse> ObjectCache::use() const {
    return objectCacheUse(dir_);
}

Expected<CacheUse> ObjectCache::prune(int64_t maxBytes) const {
    return pruneObjectCache(dir_, maxBytes);
}

std::optional<CachedKernel> ObjectCache::load(const std::string& key) const {
    if (!isHex64(key))
        return std::nullopt;
    Expected<PrivateDir> shard = dir_.sub(key.substr(0, 2));
    if (!shard.ok())
        return std::nullopt;
    Expected<std::optional<std::string>> read = shard->read(key + ".entry", memoryCap() / 4);
    if (!read.ok() || !*read)
        return std::nullopt;
    const std::string* text = &**read;
    size_t payload = 0;
    auto fields = readHeader(*text, payload);
    if (!fields)
        return std::nullopt;
    auto irBytes = number(*fields, "ir");
    auto objectBytes = number(*fields, "object");
    auto instructions = number(*fields, "instructions");
    auto keyField = fields->find("key");
    auto sum = fields->find("sha256");
    auto sealField = fields->find("hmac");
    if (!irBytes || !objectBytes || !instructions || keyField == fields->end() ||
        keyField->second != key || sum == fields->end() || sealField == fields->end() ||
        static_cast<int64_t>(text->size() - payload) != *irBytes + *objectBytes)
        return std::nullopt;
    std::string_view body = std::string_view(*text).substr(payload);
    std::string_view sealed = std::string_view(*text).substr(0, text->find("\nhmac ") + 1);
    if (sha256Hex(body) != sum->second || hmacSha256Hex(secret_, sealed) != sealField->second)
        return std::nullopt;
    shard->touch(key + ".entry"); // used now: pruned last
    CachedKernel kernel;
    kernel.ir = std::string(body.substr(0, static_cast<size_t>(*irBytes)));
    kernel.object = std::string(body.substr(static_cast<size_t>(*irBytes)));
    kernel.instructions = *instructions;
    return kernel;
}

Status ObjectCache::store(const std::string& key, const CachedKernel& kernel) const {
    if (!isHex64(key))
        return Error("object cache: " + quote(key) + " is not a key");
    SC_ASSIGN_OR_RETURN(PrivateDir shard, dir_.sub(key.substr(0, 2)));
    std::string payload = kernel.ir + kernel.object;
    std::string sealed = header(key, kernel, payload);
    std::string entry = sealed + "hmac " + hmacSha256Hex(secret_, sealed) + "\n\n" + payload;
    return shard.write(key + ".entry", entry);
}

} // namespace stagecraft::codegen
