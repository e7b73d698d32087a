// SHA-256 as FIPS 180-4 specifies it: the message is padded to a multiple of
// 512 bits (a 1 bit, zeros, the 64-bit big-endian bit length; §5.1.1), split
// into 64-byte blocks, and each block runs the 64 rounds of §6.2.2 over the
// eight working variables. The constants are §4.2.2 (K, the first 32 bits of
// the fractional parts of the cube roots of the first 64 primes) and §5.3.3
// (H0, the same of the square roots of the first 8 primes). Files are read in
// 1 MiB chunks, so a model of any size costs 1 MiB of memory.

#include "support/sha256.h"

#include "support/file.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <vector>

namespace stagecraft {

namespace {

constexpr std::array<uint32_t, 64> kRoundConstants{
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::array<uint32_t, 8> kInitialHash{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

constexpr size_t kBlockBytes = 64;
constexpr size_t kFileChunkBytes = size_t{1} << 20;

// The functions of §4.1.2.
uint32_t choose(uint32_t x, uint32_t y, uint32_t z) {
    return (x & y) ^ (~x & z);
}
uint32_t majority(uint32_t x, uint32_t y, uint32_t z) {
    return (x & y) ^ (x & z) ^ (y & z);
}
uint32_t bigSigma0(uint32_t x) {
    return std::rotr(x, 2) ^ std::rotr(x, 13) ^ std::rotr(x, 22);
}
uint32_t bigSigma1(uint32_t x) {
    return std::rotr(x, 6) ^ std::rotr(x, 11) ^ std::rotr(x, 25);
}
uint32_t smallSigma0(uint32_t x) {
    return std::rotr(x, 7) ^ std::rotr(x, 18) ^ (x >> 3);
}
uint32_t smallSigma1(uint32_t x) {
    return std::rotr(x, 17) ^ std::rotr(x, 19) ^ (x >> 10);
}

uint32_t loadBigEndian(const std::byte* bytes) {
    return static_cast<uint32_t>(bytes[0]) << 24 | static_cast<uint32_t>(bytes[1]) << 16 |
           static_cast<uint32_t>(bytes[2]) << 8 | static_cast<uint32_t>(bytes[3]);
}

/// The message schedule W_0..W_63 of one block (§6.2.2 step 1).
std::array<uint32_t, 64> messageSchedule(const std::byte* block) {
    std::array<uint32_t, 64> w{};
    for (size_t t = 0; t < 16; ++t)
        w[t] = loadBigEndian(block + 4 * t);
    for (size_t t = 16; t < 64; ++t)
        w[t] = smallSigma1(w[t - 2]) + w[t - 7] + smallSigma0(w[t - 15]) + w[t - 16];
    return w;
}

} // namespace

Sha256::Sha256()
    : state_(kInitialHash) {}

void Sha256::compressBlock(const std::byte* block) {
    const std::array<uint32_t, 64> w = messageSchedule(block);
    uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
    uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
    for (size_t t = 0; t < 64; ++t) {
        uint32_t t1 = h + bigSigma1(e) + choose(e, f, g) + kRoundConstants[t] + w[t];
        uint32_t t2 = bigSigma0(a) + majority(a, b, c);
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state_[0] += a;
    state_[1] += b;
    state_[2] += c;
    state_[3] += d;
    state_[4] += e;
    state_[5] += f;
    state_[6] += g;
    state_[7] += h;
}

void Sha256::update(std::span<const std::byte> data) {
    SC_ASSERT(!finished_, "Sha256::update after digest");
    messageBytes_ += data.size();
    if (buffered_ > 0) {
        size_t take = std::min(kBlockBytes - buffered_, data.size());
        std::memcpy(buffer_.data() + buffered_, data.data(), take);
        buffered_ += take;
        data = data.subspan(take);
        if (buffered_ < kBlockBytes)
            return;
        compressBlock(buffer_.data());
        buffered_ = 0;
    }
    while (data.size() >= kBlockBytes) {
        compressBlock(data.data());
        data = data.subspan(kBlockBytes);
    }
    if (!data.empty()) {
        std::memcpy(buffer_.data(), data.data(), data.size());
        buffered_ = data.size();
    }
}

void Sha256::update(std::string_view text) {
    update(std::as_bytes(std::span(text.data(), text.size())));
}

Sha256::Digest Sha256::digest() {
    SC_ASSERT(!finished_, "Sha256::digest called twice");
    const uint64_t messageBits = messageBytes_ * 8;
    // §5.1.1: a 1 bit, then zeros up to 56 bytes mod 64, then the length.
    std::array<std::byte, kBlockBytes + 8> padding{};
    padding[0] = std::byte{0x80};
    size_t zeros = (buffered_ < 56 ? 56 : 56 + kBlockBytes) - buffered_;
    for (size_t i = 0; i < 8; ++i)
        padding[zeros + i] =
            static_cast<std::byte>(static_cast<uint8_t>(messageBits >> (56 - 8 * i)));
    update(std::span(padding.data(), zeros + 8));
    SC_ASSERT(buffered_ == 0, "SHA-256 padding did not end on a block");
    finished_ = true;
    Digest digest{};
    for (size_t i = 0; i < 8; ++i)
        for (size_t j = 0; j < 4; ++j)
            digest[4 * i + j] =
                static_cast<std::byte>(static_cast<uint8_t>(state_[i] >> (24 - 8 * j)));
    return digest;
}

std::string toHex(const Sha256::Digest& digest) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * digest.size());
    for (std::byte byte : digest) {
        hex += kDigits[std::to_integer<unsigned>(byte) >> 4];
        hex += kDigits[std::to_integer<unsigned>(byte) & 0xf];
    }
    return hex;
}

std::string sha256Hex(std::span<const std::byte> data) {
    Sha256 hash;
    hash.update(data);
    return toHex(hash.digest());
}

std::string sha256Hex(std::string_view text) {
    return sha256Hex(std::as_bytes(std::span(text.data(), text.size())));
}

std::string hmacSha256Hex(std::string_view key, std::string_view message) {
    // RFC 2104: H((K ^ opad) || H((K ^ ipad) || m)), K padded to the block.
    constexpr size_t kBlock = 64;
    std::string k(key);
    if (k.size() > kBlock) {
        Sha256 shortened;
        shortened.update(k);
        Sha256::Digest d = shortened.digest();
        k.assign(reinterpret_cast<const char*>(d.data()), d.size());
    }
    k.resize(kBlock, '\0');
    std::string inner(kBlock, '\0'), outer(kBlock, '\0');
    for (size_t i = 0; i < kBlock; ++i) {
        inner[i] = static_cast<char>(k[i] ^ 0x36);
        outer[i] = static_cast<char>(k[i] ^ 0x5c);
    }
    Sha256 first;
    first.update(inner);
    first.update(message);
    Sha256::Digest innerDigest = first.digest();
    Sha256 second;
    second.update(outer);
    second.update(std::as_bytes(std::span(innerDigest)));
    return toHex(second.digest());
}

Expected<std::string> fileSha256(const std::filesystem::path& path) {
    // A map, not a stream: the file is checked to be regular before it is
    // opened (a FIFO or /dev/zero would never end).
    SC_ASSIGN_OR_RETURN(auto file, MappedFile::open(path));
    Sha256 hash;
    std::span<const std::byte> bytes = file->bytes();
    for (size_t at = 0; at < bytes.size(); at += kFileChunkBytes)
        hash.update(bytes.subspan(at, std::min(kFileChunkBytes, bytes.size() - at)));
    return toHex(hash.digest());
}

} // namespace stagecraft
