// The object cache (object_cache.h). An entry is a text header, then the
// payload (the optimized IR, then the object):
//
//   stagecraft-object-cache 1
//   key <64 hex digits>
//   ir <bytes>
//   object <bytes>
//   instructions <count>
//   sha256 <64 hex digits of the payload>
//   <empty line>
//
// load() checks every field against the file and the key it was asked for;
// anything else is a miss.

#include "codegen/object_cache.h"

#include "codegen/codegen.h"
#include "support/cache_dir.h"
#include "support/file.h"
#include "support/sha256.h"

#include <llvm/Config/llvm-config.h>

#include <charconv>
#include <map>

namespace stagecraft::codegen {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "stagecraft-object-cache 1";

/// Bumped when emit_program.cpp's pipeline changes what an IR compiles to.
constexpr std::string_view kPipeline = "pipeline 1";

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

} // namespace

fs::path defaultObjectCacheDir() {
    return userCacheDir() / "objects";
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
    return dir_ / key.substr(0, 2) / (key + ".entry");
}

std::optional<CachedKernel> ObjectCache::load(const std::string& key) const {
    std::error_code ec;
    fs::path path = pathOf(key);
    if (!fs::is_regular_file(path, ec))
        return std::nullopt;
    Expected<std::string> text = readFile(path);
    if (!text.ok())
        return std::nullopt;
    size_t payload = 0;
    auto fields = readHeader(*text, payload);
    if (!fields)
        return std::nullopt;
    auto irBytes = number(*fields, "ir");
    auto objectBytes = number(*fields, "object");
    auto instructions = number(*fields, "instructions");
    auto keyField = fields->find("key");
    auto sum = fields->find("sha256");
    if (!irBytes || !objectBytes || !instructions || keyField == fields->end() ||
        keyField->second != key || sum == fields->end() ||
        static_cast<int64_t>(text->size() - payload) != *irBytes + *objectBytes)
        return std::nullopt;
    std::string_view body = std::string_view(*text).substr(payload);
    if (sha256Hex(body) != sum->second)
        return std::nullopt;
    CachedKernel kernel;
    kernel.ir = std::string(body.substr(0, static_cast<size_t>(*irBytes)));
    kernel.object = std::string(body.substr(static_cast<size_t>(*irBytes)));
    kernel.instructions = *instructions;
    return kernel;
}

Status ObjectCache::store(const std::string& key, const CachedKernel& kernel) const {
    fs::path path = pathOf(key);
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec)
        return Error(path.parent_path().string() +
                     ": cannot create the object cache: " + ec.message());
    std::string payload = kernel.ir + kernel.object;
    std::string entry =
        std::string(kMagic) + "\nkey " + key + "\nir " + std::to_string(kernel.ir.size()) +
        "\nobject " + std::to_string(kernel.object.size()) + "\ninstructions " +
        std::to_string(kernel.instructions) + "\nsha256 " + sha256Hex(payload) + "\n\n" + payload;
    return writeFileAtomic(path, entry);
}

} // namespace stagecraft::codegen
