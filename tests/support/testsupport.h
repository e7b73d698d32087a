#pragma once
// Helpers shared by the test suites: where things are, running the CLI,
// golden-file comparison.

#include "testpaths.h"

#include <QString>
#include <QStringList>

#include <filesystem>

namespace stagecraft::test {

/// Path of a fetched model file, e.g. "ppocr/ch_PP-OCRv4_det_infer.onnx".
/// Fails the calling test (returns empty) when the file is missing.
std::filesystem::path fetchedModel(const std::string& relativePath);

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

/// Runs the stagecraft CLI (STAGECRAFT_CLI, set by CTest) with \p args.
CliResult runCli(const QStringList& args, int timeoutMs = 120000);

/// Compares \p actual with the golden file \p expectedPath. On mismatch
/// writes <expected>.actual next to it, prints `diff -u` and returns false.
bool matchesGolden(const std::filesystem::path& expectedPath, const QString& actual);

} // namespace stagecraft::test
