#pragma once
// Helpers for the Qt-free GoogleTest suites (tests/core, tests/support,
// tests/properties): fetched models, temporary directories, and QCOMPARE's
// rule for floating-point values, which the suites' checks were written for.

#include "testpaths.h"

#include <chrono>
#include <cstdarg>
#include <filesystem>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

namespace stagecraft::test {

/// Path of a fetched model file, e.g. "ppocr/ch_PP-OCRv4_det_infer.onnx".
/// Adds a failure to the calling test and returns an empty path when the
/// file is missing; the caller asserts on the result.
std::filesystem::path fetchedModel(const std::string& relativePath);

/// Compares \p actual with the golden file \p expectedPath. On mismatch
/// writes <expected>.actual next to it, prints `diff -u` and returns false.
bool matchesGolden(const std::filesystem::path& expectedPath, const std::string& actual);

/// A fresh directory under the system's temporary directory, removed with
/// everything in it when destroyed (what the suites used QTemporaryDir for).
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    bool isValid() const { return !path_.empty(); }
    const std::filesystem::path& path() const { return path_; }
    /// path() / name, as a string.
    std::string filePath(const std::string& name) const;

private:
    std::filesystem::path path_;
};

/// A kernel object cache (codegen/object_cache.h) of this test process
/// alone, removed at exit: schedules of one model that emit the same kernel
/// (tvm and graphturbo on a one-group model, a split override that leaves
/// the other groups alone) compile it once. A hit gives the object the
/// compiler gave (test_object_cache), so the suites check the same code.
const std::filesystem::path& processObjectCache();

/// Whether the suites that sample a slow matrix run every row of it
/// (STAGECRAFT_EVERY_ROW=1, set by scripts/test-every-row): every model
/// under every schedule against ONNX Runtime, every seed of every random
/// graph kind. Unset (the test command), they run a sample that still
/// covers each model, kind and schedule once.
bool everyRow();

/// QString's contains, count, replace and remove, on std::string as the
/// suites' checks used them. countText counts overlapping occurrences, as
/// QString::count did; replaceAll and removeAll act on every occurrence.
bool containsText(std::string_view text, std::string_view part);
bool containsText(std::string_view text, char c);
int countText(std::string_view text, std::string_view part);
std::string& replaceAll(std::string& text, std::string_view from, std::string_view to);
std::string& removeAll(std::string& text, std::string_view part);

/// A data row's name made a valid test-parameter name for
/// INSTANTIATE_TEST_SUITE_P: every character but letters and digits becomes
/// '_' ("f16 rounding" -> "f16_rounding").
std::string paramName(const std::string& rowName);

/// INSTANTIATE_TEST_SUITE_P's name generator for rows that have a `rowLabel`.
struct RowName {
    template <typename Row>
    std::string operator()(const ::testing::TestParamInfo<Row>& row) const {
        return paramName(row.param.rowLabel);
    }
};

/// A row name formatted as QTest::addRow formatted it (printf-style).
std::string rowName(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// Milliseconds on a monotonic clock (what the suites used QElapsedTimer for).
class ElapsedTimer {
public:
    void start();
    /// Milliseconds since start(), and starts again.
    long long restart();
    long long elapsed() const;

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// Prints a printf-style message to stderr and aborts (what the suites used
/// qFatal for: a fixture that cannot be built).
[[noreturn]] void fatal(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// Prints a printf-style line to stdout (what the suites used qInfo for).
void info(const char* format, ...) __attribute__((format(printf, 1, 2)));

/// Qt Test's comparison of two floating-point values (QCOMPARE on double or
/// float): infinities equal by sign, NaN equals NaN, a value fuzzily zero
/// equals anything fuzzily zero, otherwise qFuzzyCompare (a relative 1e-12
/// for double, 1e-5 for float).
bool qtFuzzyEqual(double actual, double expected);
bool qtFuzzyEqual(float actual, float expected);

struct QtFuzzyCompare {
    template <typename A, typename E>
    ::testing::AssertionResult operator()(const char* actualText, const char* expectedText,
                                          A actual, E expected) const {
        using T = std::common_type_t<A, E>;
        if (qtFuzzyEqual(static_cast<T>(actual), static_cast<T>(expected)))
            return ::testing::AssertionSuccess();
        std::ostringstream text;
        text.precision(std::is_same_v<T, float> ? 9 : 17);
        text << actualText << " is " << actual << ", expected " << expectedText << " = "
             << expected;
        return ::testing::AssertionFailure() << text.str();
    }
};

} // namespace stagecraft::test

/// QCOMPARE(actual, expected) on floating-point values, as Qt Test compared.
#define ASSERT_FUZZY_EQ(actual, expected)                                                          \
    ASSERT_PRED_FORMAT2(::stagecraft::test::QtFuzzyCompare{}, actual, expected)
