// SHA-256 against the NIST example vectors (FIPS 180-4 examples, "SHA256.pdf"
// and the one-million-'a' message), fed whole, byte by byte and in uneven
// pieces; files hashed in chunks give the same digest as the bytes in memory;
// HMAC-SHA256 against RFC 4231.

#include "coretestsupport.h"
#include "support/sha256.h"

#include <fstream>
#include <gtest/gtest.h>
#include <string>

using namespace stagecraft;

namespace {

const std::string kMillionA(1'000'000, 'a');

std::string hashInPieces(const std::string& message, size_t piece) {
    Sha256 hash;
    for (size_t at = 0; at < message.size(); at += piece)
        hash.update(std::string_view(message).substr(at, piece));
    return toHex(hash.digest());
}

} // namespace

struct NistVectorsRow {
    std::string rowLabel;
    std::string message;
    std::string digest;
};

std::vector<NistVectorsRow> nistVectorsRows() {
    std::vector<NistVectorsRow> rows;
    rows.push_back({"empty", std::string(),
                    std::string("e3b0c44298fc1c149afbf4c8996fb924"
                                "27ae41e4649b934ca495991b7852b855")});
    rows.push_back({"abc", std::string("abc"),
                    std::string("ba7816bf8f01cfea414140de5dae2223"
                                "b00361a396177a9cb410ff61f20015ad")});
    rows.push_back({"448 bits",
                    std::string("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                    std::string("248d6a61d20638b8e5c026930c3e6039"
                                "a33ce45964ff2167f6ecedd419db06c1")});
    rows.push_back({"896 bits",
                    std::string("abcdefghbcdefghicdefghijdefghijkefghijklfghijk"
                                "lmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmn"
                                "opqrsmnopqrstnopqrstu"),
                    std::string("cf5b16a778af8380036ce59e7b049237"
                                "0b249b11e8f07a51afac45037afee9d1")});
    rows.push_back({"million a", kMillionA,
                    std::string("cdc76e5c9914fb9281a1c7e284d73e67"
                                "f1809a48a497200e046d39ccc7112cd0")});
    return rows;
}

class NistVectorsRows : public ::testing::TestWithParam<NistVectorsRow> {};

TEST_P(NistVectorsRows, nistVectors) {
    std::string message = GetParam().message;
    std::string digest = GetParam().digest;
    ASSERT_EQ(sha256Hex(message), digest);
    ASSERT_EQ(hashInPieces(message, 1), digest);
    ASSERT_EQ(hashInPieces(message, 63), digest);
    ASSERT_EQ(hashInPieces(message, 65), digest);
}

INSTANTIATE_TEST_SUITE_P(TestSha256, NistVectorsRows, ::testing::ValuesIn(nistVectorsRows()),
                         test::RowName{});

// Messages of 55, 56 and 64 bytes put the length in the same block, in
// an extra block, and after a full block.
TEST(TestSha256, paddingBoundaries) {
    for (size_t length : {55, 56, 63, 64, 119, 120}) {
        std::string message(length, 'x');
        ASSERT_EQ(hashInPieces(message, 7), sha256Hex(message));
    }
    ASSERT_EQ(sha256Hex(std::string(64, 'a')),
              std::string("ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"));
}

TEST(TestSha256, hashesAFile) {
    test::TempDir dir;
    const std::filesystem::path path = dir.path().string() + "/a.bin";
    // Larger than one read chunk (1 MiB), not a multiple of it.
    std::string contents;
    for (int i = 0; i < 3; ++i)
        contents += kMillionA;
    std::ofstream(path, std::ios::binary) << contents;
    auto digest = fileSha256(path);
    ASSERT_TRUE(digest.ok()) << (digest.ok() ? "" : digest.error().message().c_str());
    ASSERT_EQ(*digest, sha256Hex(contents));
}

TEST(TestSha256, fileErrorsNameTheFile) {
    test::TempDir dir;
    const std::string missing = dir.path().string() + "/missing.onnx";
    auto absent = fileSha256(missing);
    ASSERT_TRUE(!absent.ok());
    ASSERT_EQ(absent.error().message(), missing + ": cannot open: No such file or directory");
    auto directory = fileSha256(dir.path().string());
    ASSERT_TRUE(!directory.ok());
    ASSERT_EQ(directory.error().message(),
              dir.path().string() + std::string(": is a directory, not a regular file"));
}

/// HMAC-SHA256 against RFC 4231's test cases 1, 2 and 6 (a key longer than
/// the block is hashed first).
TEST(TestSha256, hmacMatchesRfc4231) {
    ASSERT_EQ(hmacSha256Hex(std::string(20, '\x0b'), "Hi There"),
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    ASSERT_EQ(hmacSha256Hex("Jefe", "what do ya want for nothing?"),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    ASSERT_EQ(hmacSha256Hex(std::string(131, '\xaa'),
                            "Test Using Larger Than Block-Size Key - Hash Key First"),
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}
