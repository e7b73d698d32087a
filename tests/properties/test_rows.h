#pragma once
// Qt Test data rows shared by the property tests: the seeded random graphs,
// the zoo models and the fetched real models (PP-OCR, openWakeWord).

#include "ir/graph.h"
#include "support/expected.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace stagecraft::test {

/// Adds the columns "seed", "kind" and "ops" and a row per seed 1..\p seeds:
/// the kinds in turn, 1..24 ops, every fourth seed 1..\p maxBigOps.
void addRandomGraphRows(uint64_t seeds, int maxBigOps);

/// Adds the column "name" and a row per zoo model.
void addZooModelRows();

/// Adds the columns "file" and "input" and a row per fetched model: the
/// PP-OCR detector, recognizer and classifier at fixed input sizes, every
/// openWakeWord model in the cache.
void addFetchedModelRows();

/// Imports the model of a row of addFetchedModelRows(); nullopt when the
/// cache is missing (fetchedModel() has reported it).
std::optional<Expected<ir::Graph>> importFetchedModel(const QString& file, const QString& input);

} // namespace stagecraft::test
