// The support library's defences against hostile input, in isolation:
// printable() escapes what a terminal would obey, checkJsonDepth() scans
// without parsing, parseByteSize() reads the memory cap, file reads refuse
// what is not a regular file, atomic writes keep modes and refuse devices,
// and numeric conversions of element values never hit undefined behaviour.

#include "ir/const_tensor.h"
#include "support/file.h"
#include "support/json_depth.h"
#include "support/limits.h"
#include "support/strings.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace stagecraft;

class TestHardening : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::filesystem::path path(const char* name) const {
        return std::filesystem::path(dir_.path().toStdString()) / name;
    }

private slots:
    void printableEscapesControls_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("plain") << QByteArray("conv_1/Relu") << QByteArray("conv_1/Relu");
        QTest::newRow("ESC") << QByteArray("\x1b[2J") << QByteArray("\\x1b[2J");
        QTest::newRow("newline and CR") << QByteArray("a\nb\r") << QByteArray("a\\x0ab\\x0d");
        QTest::newRow("DEL") << QByteArray("a\x7f") << QByteArray("a\\x7f");
        QTest::newRow("C1 CSI in UTF-8") << QByteArray("a\xc2\x9b"
                                                       "31m")
                                         << QByteArray("a\\x9b31m");
        QTest::newRow("other UTF-8 stays")
            << QByteArray("\xc3\xa9t\xc3\xa9") << QByteArray("\xc3\xa9t\xc3\xa9");
        QTest::newRow("NUL") << QByteArray("a\0b", 3) << QByteArray("a\\x00b");
    }
    void printableEscapesControls() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, shown);
        QCOMPARE(QByteArray::fromStdString(printable(text.toStdString())), shown);
        QCOMPARE(QByteArray::fromStdString(quote(text.toStdString())), "'" + shown + "'");
    }

    void jsonDepthIsCheckedWithoutParsing() {
        QVERIFY(checkJsonDepth("{\"a\": [[1], {\"b\": [2]}]}").ok());
        QVERIFY(checkJsonDepth(std::string(64, '[') + std::string(64, ']')).ok());
        Status deep = checkJsonDepth("\n" + std::string(65, '['));
        QVERIFY(!deep.ok());
        QCOMPARE(QString::fromStdString(deep.error().message()),
                 QStringLiteral("not valid JSON: nested deeper than 64 levels (line 2)"));
        // Brackets inside strings, escaped quotes included, do not count.
        QVERIFY(
            checkJsonDepth("[\"" + std::string(100, '[') + "\\\"" + std::string(100, '{') + "\"]")
                .ok());
    }

    void byteSizesParse_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("bytes");
        QTest::newRow("plain") << QStringLiteral("4096") << qint64{4096};
        QTest::newRow("K") << QStringLiteral("4K") << qint64{4096};
        QTest::newRow("M") << QStringLiteral("64M") << (qint64{64} << 20);
        QTest::newRow("G") << QStringLiteral("16g") << (qint64{16} << 30);
        QTest::newRow("zero") << QStringLiteral("0") << qint64{-1};
        QTest::newRow("negative") << QStringLiteral("-1G") << qint64{-1};
        QTest::newRow("overflow") << QStringLiteral("9000000000T") << qint64{-1};
        QTest::newRow("words") << QStringLiteral("lots") << qint64{-1};
    }
    void byteSizesParse() {
        QFETCH(QString, text);
        QFETCH(qint64, bytes);
        std::optional<int64_t> parsed = parseByteSize(text.toStdString());
        QCOMPARE(parsed.value_or(-1), bytes);
    }

    void allocationsAreCheckedAgainstTheCap() {
        QVERIFY(checkAllocation(1024, "x").ok());
        QVERIFY(!checkAllocation(memoryCap() + 1, "x").ok());
        Status overflow = checkAllocation(checkedProduct(INT64_MAX, 2), "tensor 'w'");
        QVERIFY(!overflow.ok());
        QVERIFY(QString::fromStdString(overflow.error().message())
                    .startsWith(QStringLiteral("tensor 'w' needs")));
    }

    void readsRefuseWhatIsNotARegularFile() {
        for (const char* device : {"/dev/zero", "/dev/null"}) {
            auto text = readFile(device);
            QVERIFY(!text.ok());
            QVERIFY(QString::fromStdString(text.error().message())
                        .contains(QStringLiteral("is a character device")));
            QVERIFY(!MappedFile::open(device).ok());
        }
        QVERIFY(::mkfifo(path("fifo").c_str(), 0600) == 0);
        auto fifo = readFile(path("fifo")); // would block forever if opened
        QVERIFY(!fifo.ok());
        QVERIFY(
            QString::fromStdString(fifo.error().message()).contains(QStringLiteral("is a FIFO")));
        std::ofstream(path("big")) << std::string(100, 'x');
        auto big = readFile(path("big"), 99);
        QVERIFY(!big.ok());
        QVERIFY(readFile(path("big"), 100).ok());
    }

    void atomicWritesKeepModeAndRefuseDevices() {
        std::ofstream(path("kept")) << "old";
        QVERIFY(::chmod(path("kept").c_str(), 0604) == 0);
        QVERIFY(writeFileAtomic(path("kept"), "new").ok());
        struct stat info {};
        QVERIFY(::stat(path("kept").c_str(), &info) == 0);
        QCOMPARE(info.st_mode & 07777, mode_t{0604});
        // A symbolic link stays a link; its target is replaced.
        QVERIFY(::symlink(path("kept").c_str(), path("link").c_str()) == 0);
        QVERIFY(writeFileAtomic(path("link"), "through").ok());
        QVERIFY(std::filesystem::is_symlink(path("link")));
        auto text = readFile(path("kept"));
        QVERIFY(text.ok() && *text == "through");
        QVERIFY(!writeFileAtomic("/dev/null", "x").ok());
        QVERIFY(!writeFileAtomic(path("fifo2").parent_path(), "x").ok()); // a directory
        QVERIFY(!checkOutputPath(path("missing-dir") / "file").ok());
        QVERIFY(checkOutputPath(path("new-file")).ok());
        // Nothing is left behind by a refused or a finished write.
        int temporaries = 0;
        for (const auto& entry : std::filesystem::directory_iterator(path(".")))
            temporaries += entry.path().extension() == ".tmp";
        QCOMPARE(temporaries, 0);
    }

    void elementConversionsSaturate() {
        std::vector<std::byte> bytes(8);
        const double values[] = {1e300, -1e300, std::nan(""), 3.7};
        const int64_t expected[] = {INT64_MAX, INT64_MIN, 0, 3};
        for (size_t i = 0; i < 4; ++i) {
            ir::writeDouble(ir::DType::Int64, bytes, 0, values[i]);
            QCOMPARE(ir::readInt64(ir::DType::Int64, bytes, 0), expected[i]);
        }
        std::vector<std::byte> f(4);
        ir::writeDouble(ir::DType::Float32, f, 0, 1e30);
        QCOMPARE(ir::readInt64(ir::DType::Float32, f, 0), int64_t{INT64_MAX});
    }
};

QTEST_GUILESS_MAIN(TestHardening)
#include "test_hardening.moc"
