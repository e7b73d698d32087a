// SHA-256 against the NIST example vectors (FIPS 180-4 examples, "SHA256.pdf"
// and the one-million-'a' message), fed whole, byte by byte and in uneven
// pieces; files hashed in chunks give the same digest as the bytes in memory.

#include "support/sha256.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <string>

using namespace stagecraft;

Q_DECLARE_METATYPE(std::string)

namespace {

const std::string kMillionA(1'000'000, 'a');

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

std::string hashInPieces(const std::string& message, size_t piece) {
    Sha256 hash;
    for (size_t at = 0; at < message.size(); at += piece)
        hash.update(std::string_view(message).substr(at, piece));
    return toHex(hash.digest());
}

} // namespace

class TestSha256 : public QObject {
    Q_OBJECT
private slots:
    void nistVectors_data() {
        QTest::addColumn<std::string>("message");
        QTest::addColumn<QString>("digest");
        QTest::newRow("empty") << std::string()
                               << QStringLiteral("e3b0c44298fc1c149afbf4c8996fb924"
                                                 "27ae41e4649b934ca495991b7852b855");
        QTest::newRow("abc") << std::string("abc")
                             << QStringLiteral("ba7816bf8f01cfea414140de5dae2223"
                                               "b00361a396177a9cb410ff61f20015ad");
        QTest::newRow("448 bits") << std::string(
                                         "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                  << QStringLiteral("248d6a61d20638b8e5c026930c3e6039"
                                                    "a33ce45964ff2167f6ecedd419db06c1");
        QTest::newRow("896 bits") << std::string("abcdefghbcdefghicdefghijdefghijkefghijklfghijk"
                                                 "lmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmn"
                                                 "opqrsmnopqrstnopqrstu")
                                  << QStringLiteral("cf5b16a778af8380036ce59e7b049237"
                                                    "0b249b11e8f07a51afac45037afee9d1");
        QTest::newRow("million a") << kMillionA
                                   << QStringLiteral("cdc76e5c9914fb9281a1c7e284d73e67"
                                                     "f1809a48a497200e046d39ccc7112cd0");
    }
    void nistVectors() {
        QFETCH(std::string, message);
        QFETCH(QString, digest);
        QCOMPARE(qs(sha256Hex(message)), digest);
        QCOMPARE(qs(hashInPieces(message, 1)), digest);
        QCOMPARE(qs(hashInPieces(message, 63)), digest);
        QCOMPARE(qs(hashInPieces(message, 65)), digest);
    }

    // Messages of 55, 56 and 64 bytes put the length in the same block, in
    // an extra block, and after a full block.
    void paddingBoundaries() {
        for (size_t length : {55, 56, 63, 64, 119, 120}) {
            std::string message(length, 'x');
            QCOMPARE(qs(hashInPieces(message, 7)), qs(sha256Hex(message)));
        }
        QCOMPARE(
            qs(sha256Hex(std::string(64, 'a'))),
            QStringLiteral("ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"));
    }

    void hashesAFile() {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.path().toStdString() + "/a.bin";
        // Larger than one read chunk (1 MiB), not a multiple of it.
        std::string contents;
        for (int i = 0; i < 3; ++i)
            contents += kMillionA;
        std::ofstream(path, std::ios::binary) << contents;
        auto digest = fileSha256(path);
        QVERIFY2(digest.ok(), digest.ok() ? "" : digest.error().message().c_str());
        QCOMPARE(qs(*digest), qs(sha256Hex(contents)));
    }

    void fileErrorsNameTheFile() {
        QTemporaryDir dir;
        const std::string missing = dir.path().toStdString() + "/missing.onnx";
        auto absent = fileSha256(missing);
        QVERIFY(!absent.ok());
        QCOMPARE(qs(absent.error().message()),
                 qs(missing + ": cannot open: No such file or directory"));
        auto directory = fileSha256(dir.path().toStdString());
        QVERIFY(!directory.ok());
        QCOMPARE(qs(directory.error().message()),
                 dir.path() + QStringLiteral(": is a directory, not a regular file"));
    }
};

QTEST_GUILESS_MAIN(TestSha256)
#include "test_sha256.moc"
