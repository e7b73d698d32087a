#pragma once
// The fetched real models (PP-OCR, openWakeWord) as Qt Test data rows, shared
// by the property tests that run every model.

#include "ir/graph.h"
#include "support/expected.h"

#include <QString>

#include <optional>

namespace stagecraft::test {

/// Adds the columns "file" and "input" and a row per fetched model: the
/// PP-OCR detector, recognizer and classifier at fixed input sizes, every
/// openWakeWord model in the cache.
void addFetchedModelRows();

/// Imports the model of a row of addFetchedModelRows(); nullopt when the
/// cache is missing (fetchedModel() has reported it).
std::optional<Expected<ir::Graph>> importFetchedModel(const QString& file, const QString& input);

} // namespace stagecraft::test
