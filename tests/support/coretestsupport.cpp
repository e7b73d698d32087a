#include "coretestsupport.h"

#include "support/file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <system_error>

namespace stagecraft::test {

std::filesystem::path fetchedModel(const std::string& relativePath) {
    std::filesystem::path path = modelsDir() / relativePath;
    if (!std::filesystem::exists(path)) {
        ADD_FAILURE() << "missing fetched model " << path.string() << "; run scripts/fetch-models";
        return {};
    }
    return path;
}

bool containsText(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

bool containsText(std::string_view text, char c) {
    return text.find(c) != std::string_view::npos;
}

int countText(std::string_view text, std::string_view part) {
    int count = 0;
    for (size_t at = text.find(part); at != std::string_view::npos; at = text.find(part, at + 1))
        ++count;
    return count;
}

std::string& replaceAll(std::string& text, std::string_view from, std::string_view to) {
    if (from.empty())
        return text;
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

std::string& removeAll(std::string& text, std::string_view part) {
    return replaceAll(text, part, {});
}

std::string paramName(const std::string& rowName) {
    std::string name = rowName;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return name.empty() ? std::string("empty") : name;
}

std::string rowName(const char* format, ...) {
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    int size = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    std::string name(size > 0 ? static_cast<size_t>(size) : 0, '\0');
    if (size > 0)
        std::vsnprintf(name.data(), name.size() + 1, format, args);
    va_end(args);
    return name;
}

void fatal(const char* format, ...) {
    va_list args;
    va_start(args, format);
    std::vfprintf(stderr, format, args);
    va_end(args);
    std::fputc('\n', stderr);
    std::abort();
}

void info(const char* format, ...) {
    va_list args;
    va_start(args, format);
    std::vprintf(format, args);
    va_end(args);
    std::putchar('\n');
    std::fflush(stdout);
}

void ElapsedTimer::start() {
    start_ = std::chrono::steady_clock::now();
}

long long ElapsedTimer::restart() {
    auto now = std::chrono::steady_clock::now();
    long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - start_).count();
    start_ = now;
    return ms;
}

long long ElapsedTimer::elapsed() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start_)
        .count();
}

bool matchesGolden(const std::filesystem::path& expectedPath, const std::string& actual) {
    Expected<std::string> read = readFile(expectedPath);
    std::string expected = read.ok() ? *read : std::string();
    if (expected == actual)
        return true;
    std::string actualPath = expectedPath.string() + ".actual";
    if (std::ofstream out(actualPath, std::ios::binary | std::ios::trunc); out)
        out << actual;
    std::string command = "diff -u '" + expectedPath.string() + "' '" + actualPath + "' 2>&1";
    if (FILE* diff = popen(command.c_str(), "r")) {
        char buffer[4096];
        size_t n;
        while ((n = std::fread(buffer, 1, sizeof buffer, diff)) > 0)
            std::fwrite(buffer, 1, n, stderr);
        pclose(diff);
    }
    return false;
}

TempDir::TempDir() {
    std::error_code error;
    std::filesystem::path base = std::filesystem::temp_directory_path(error);
    if (error)
        base = "/tmp";
    std::string pattern = (base / "stagecraft-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr)
        path_ = pattern;
}

TempDir::~TempDir() {
    if (path_.empty())
        return;
    std::error_code error;
    std::filesystem::remove_all(path_, error);
}

std::string TempDir::filePath(const std::string& name) const {
    return (path_ / name).string();
}

const std::filesystem::path& processObjectCache() {
    static const TempDir dir;
    return dir.path();
}

bool everyRow() {
    const char* value = std::getenv("STAGECRAFT_EVERY_ROW");
    return value != nullptr && std::string_view(value) == "1";
}

namespace {

// Qt's floatingCompare (qtestcase.cpp) with qFuzzyCompare and qFuzzyIsNull.
template <typename T>
bool floatingCompare(T actual, T expected, T relative, T null) {
    auto fuzzyIsNull = [null](T value) {
        return std::abs(value) <= null;
    };
    switch (std::fpclassify(expected)) {
    case FP_INFINITE:
        return (expected < 0) == (actual < 0) && std::fpclassify(actual) == FP_INFINITE;
    case FP_NAN:
        return std::fpclassify(actual) == FP_NAN;
    default:
        if (!fuzzyIsNull(expected))
            return std::abs(actual - expected) * relative <=
                   std::min(std::abs(actual), std::abs(expected));
        [[fallthrough]];
    case FP_SUBNORMAL:
    case FP_ZERO:
        return fuzzyIsNull(actual);
    }
}

} // namespace

bool qtFuzzyEqual(double actual, double expected) {
    return floatingCompare(actual, expected, 1000000000000., 0.000000000001);
}

bool qtFuzzyEqual(float actual, float expected) {
    return floatingCompare(actual, expected, 100000.f, 0.00001f);
}

} // namespace stagecraft::test
