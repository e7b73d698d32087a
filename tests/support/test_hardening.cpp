// The support library's defences against hostile input, in isolation:
// printable() escapes what a terminal would obey, checkJsonDepth() scans
// without parsing, parseByteSize() reads the memory cap, file reads refuse
// what is not a regular file, atomic writes keep modes and refuse devices,
// and numeric conversions of element values never hit undefined behaviour.

#include "coretestsupport.h"
#include "ir/const_tensor.h"
#include "support/file.h"
#include "support/json_depth.h"
#include "support/limits.h"
#include "support/strings.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace stagecraft;

test::TempDir dir_;

std::filesystem::path path(const char* name) {
    return std::filesystem::path(dir_.path()) / name;
}
struct PrintableEscapesControlsRow {
    std::string rowLabel;
    std::string text;
    std::string shown;
};

std::vector<PrintableEscapesControlsRow> printableEscapesControlsRows() {
    std::vector<PrintableEscapesControlsRow> rows;
    rows.push_back({"plain", std::string("conv_1/Relu"), std::string("conv_1/Relu")});
    rows.push_back({"ESC", std::string("\x1b[2J"), std::string("\\x1b[2J")});
    rows.push_back({"newline and CR", std::string("a\nb\r"), std::string("a\\x0ab\\x0d")});
    rows.push_back({"DEL", std::string("a\x7f"), std::string("a\\x7f")});
    rows.push_back({"C1 CSI in UTF-8",
                    std::string("a\xc2\x9b"
                                "31m"),
                    std::string("a\\x9b31m")});
    rows.push_back(
        {"other UTF-8 stays", std::string("\xc3\xa9t\xc3\xa9"), std::string("\xc3\xa9t\xc3\xa9")});
    rows.push_back({"NUL", std::string("a\0b", 3), std::string("a\\x00b")});
    return rows;
}

class PrintableEscapesControlsRows : public ::testing::TestWithParam<PrintableEscapesControlsRow> {
};

TEST_P(PrintableEscapesControlsRows, printableEscapesControls) {
    std::string text = GetParam().text;
    std::string shown = GetParam().shown;
    ASSERT_EQ(printable(text), shown);
    ASSERT_EQ(quote(text), "'" + shown + "'");
}

INSTANTIATE_TEST_SUITE_P(TestHardening, PrintableEscapesControlsRows,
                         ::testing::ValuesIn(printableEscapesControlsRows()), test::RowName{});

TEST(TestHardening, jsonDepthIsCheckedWithoutParsing) {
    ASSERT_TRUE(checkJsonDepth("{\"a\": [[1], {\"b\": [2]}]}").ok());
    ASSERT_TRUE(checkJsonDepth(std::string(64, '[') + std::string(64, ']')).ok());
    Status deep = checkJsonDepth("\n" + std::string(65, '['));
    ASSERT_TRUE(!deep.ok());
    ASSERT_EQ(deep.error().message(),
              std::string("not valid JSON: nested deeper than 64 levels (line 2)"));
    // Brackets inside strings, escaped quotes included, do not count.
    ASSERT_TRUE(
        checkJsonDepth("[\"" + std::string(100, '[') + "\\\"" + std::string(100, '{') + "\"]")
            .ok());
}

struct ByteSizesParseRow {
    std::string rowLabel;
    std::string text;
    int64_t bytes;
};

std::vector<ByteSizesParseRow> byteSizesParseRows() {
    std::vector<ByteSizesParseRow> rows;
    rows.push_back({"plain", std::string("4096"), int64_t{4096}});
    rows.push_back({"K", std::string("4K"), int64_t{4096}});
    rows.push_back({"M", std::string("64M"), (int64_t{64} << 20)});
    rows.push_back({"G", std::string("16g"), (int64_t{16} << 30)});
    rows.push_back({"GiB", std::string("16GiB"), (int64_t{16} << 30)});
    rows.push_back({"fraction", std::string("1.5G"), (int64_t{3} << 29)});
    rows.push_back({"lower gb", std::string("2gb"), (int64_t{2} << 30)});
    rows.push_back({"less than a byte", std::string("0.1"), int64_t{-1}});
    rows.push_back({"unit alone", std::string("G"), int64_t{-1}});
    rows.push_back({"two numbers", std::string("1 2G"), int64_t{-1}});
    rows.push_back({"zero", std::string("0"), int64_t{-1}});
    rows.push_back({"negative", std::string("-1G"), int64_t{-1}});
    rows.push_back({"overflow", std::string("9000000000T"), int64_t{-1}});
    rows.push_back({"words", std::string("lots"), int64_t{-1}});
    return rows;
}

class ByteSizesParseRows : public ::testing::TestWithParam<ByteSizesParseRow> {};

TEST_P(ByteSizesParseRows, byteSizesParse) {
    std::string text = GetParam().text;
    int64_t bytes = GetParam().bytes;
    std::optional<int64_t> parsed = parseByteSize(text);
    ASSERT_EQ(parsed.value_or(-1), bytes);
}

INSTANTIATE_TEST_SUITE_P(TestHardening, ByteSizesParseRows,
                         ::testing::ValuesIn(byteSizesParseRows()), test::RowName{});

TEST(TestHardening, allocationsAreCheckedAgainstTheCap) {
    ASSERT_TRUE(checkAllocation(1024, "x").ok());
    ASSERT_TRUE(!checkAllocation(memoryCap() + 1, "x").ok());
    Status overflow = checkAllocation(checkedProduct(INT64_MAX, 2), "tensor 'w'");
    ASSERT_TRUE(!overflow.ok());
    ASSERT_TRUE(overflow.error().message().starts_with(std::string("tensor 'w' needs")));
}

TEST(TestHardening, readsRefuseWhatIsNotARegularFile) {
    for (const char* device : {"/dev/zero", "/dev/null"}) {
        auto text = readFile(device);
        ASSERT_TRUE(!text.ok());
        ASSERT_TRUE(
            test::containsText(text.error().message(), std::string("is a character device")));
        ASSERT_TRUE(!MappedFile::open(device).ok());
    }
    ASSERT_TRUE(::mkfifo(path("fifo").c_str(), 0600) == 0);
    auto fifo = readFile(path("fifo")); // would block forever if opened
    ASSERT_TRUE(!fifo.ok());
    ASSERT_TRUE(test::containsText(fifo.error().message(), std::string("is a FIFO")));
    std::ofstream(path("big")) << std::string(100, 'x');
    auto big = readFile(path("big"), 99);
    ASSERT_TRUE(!big.ok());
    ASSERT_TRUE(readFile(path("big"), 100).ok());
}

TEST(TestHardening, atomicWritesKeepModeAndRefuseDevices) {
    std::ofstream(path("kept")) << "old";
    ASSERT_TRUE(::chmod(path("kept").c_str(), 0604) == 0);
    ASSERT_TRUE(writeFileAtomic(path("kept"), "new").ok());
    struct stat info {};
    ASSERT_TRUE(::stat(path("kept").c_str(), &info) == 0);
    ASSERT_EQ(info.st_mode & 07777, mode_t{0604});
    // A symbolic link stays a link; its target is replaced.
    ASSERT_TRUE(::symlink(path("kept").c_str(), path("link").c_str()) == 0);
    ASSERT_TRUE(writeFileAtomic(path("link"), "through").ok());
    ASSERT_TRUE(std::filesystem::is_symlink(path("link")));
    auto text = readFile(path("kept"));
    ASSERT_TRUE(text.ok() && *text == "through");
    ASSERT_TRUE(!writeFileAtomic("/dev/null", "x").ok());
    ASSERT_TRUE(!writeFileAtomic(path("fifo2").parent_path(), "x").ok()); // a directory
    ASSERT_TRUE(!checkOutputPath(path("missing-dir") / "file").ok());
    ASSERT_TRUE(checkOutputPath(path("new-file")).ok());
    // Nothing is left behind by a refused or a finished write.
    int temporaries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(path(".")))
        temporaries += entry.path().extension() == ".tmp";
    ASSERT_EQ(temporaries, 0);
}

TEST(TestHardening, elementConversionsSaturate) {
    std::vector<std::byte> bytes(8);
    const double values[] = {1e300, -1e300, std::nan(""), 3.7};
    const int64_t expected[] = {INT64_MAX, INT64_MIN, 0, 3};
    for (size_t i = 0; i < 4; ++i) {
        ir::writeDouble(ir::DType::Int64, bytes, 0, values[i]);
        ASSERT_EQ(ir::readInt64(ir::DType::Int64, bytes, 0), expected[i]);
    }
    std::vector<std::byte> f(4);
    ir::writeDouble(ir::DType::Float32, f, 0, 1e30);
    ASSERT_EQ(ir::readInt64(ir::DType::Float32, f, 0), int64_t{INT64_MAX});
}
