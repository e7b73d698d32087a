#pragma once
/// \file
/// SHA-256 (FIPS 180-4) for fingerprinting model files: a session remembers
/// the hash of its model so that a changed file is noticed when the session
/// is opened again. Incremental, so that large models (1 GB and more) are
/// hashed in chunks and never held in memory whole. LLVM's implementation
/// (llvm/Support/SHA256.h) computes it; no LLVM type appears here.

#include "support/expected.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace llvm {
class SHA256;
} // namespace llvm

namespace stagecraft {

/// An incremental SHA-256: update() any number of times, then digest().
class Sha256 {
public:
    using Digest = std::array<std::byte, 32>;

    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    /// Appends \p data to the message.
    void update(std::span<const std::byte> data);
    void update(std::string_view text);

    /// The hash of everything appended so far. The object must not be
    /// updated afterwards (start a new one).
    Digest digest();

private:
    std::unique_ptr<llvm::SHA256> hash_;
    bool finished_ = false;
};

/// \p digest as 64 lowercase hex digits.
std::string toHex(const Sha256::Digest& digest);

/// SHA-256 of \p data, as 64 lowercase hex digits.
std::string sha256Hex(std::span<const std::byte> data);
std::string sha256Hex(std::string_view text);

/// HMAC-SHA256 (RFC 2104) of \p message under \p key, as 64 lowercase hex
/// digits: what authenticates the entries of the object cache.
std::string hmacSha256Hex(std::string_view key, std::string_view message);

/// SHA-256 of the file at \p path, read in chunks, as 64 lowercase hex
/// digits. Errors name the file ("<path>: cannot open: <reason>").
Expected<std::string> fileSha256(const std::filesystem::path& path);

} // namespace stagecraft
