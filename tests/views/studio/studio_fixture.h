#pragma once
// Helpers for the studio suites: zoo models written to a temporary directory
// as the ONNX files a user would open, and waiting for the main window's
// pipeline with signal spies.

#include "studio/main_window.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <string>

namespace stagecraft::test {

/// Writes zoo model \p name into \p dir and returns the .onnx path.
QString writeZooModel(const QTemporaryDir& dir, const std::string& name, int64_t batch = 0);

/// The session a test opens models with: architecture \p arch, graphturbo, LB.
io::Session testDefaults(const std::string& arch);

/// Waits until \p window shows a result or fails; returns false (with a
/// QTest warning naming the error) on failure or timeout.
bool waitForResult(studio::MainWindow& window, int timeoutMs = 60000);

/// Waits for the outcome of an edit: true when shown, false when refused
/// (the refusal message is stored in \p refusal).
bool waitForEdit(studio::MainWindow& window, QString* refusal, int timeoutMs = 60000);

} // namespace stagecraft::test
