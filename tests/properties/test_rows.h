#pragma once
// Data rows shared by the property tests, for INSTANTIATE_TEST_SUITE_P: the
// seeded random graphs, the zoo models and the fetched real models (PP-OCR,
// openWakeWord). Each row has a rowLabel (test::RowName names the test by it).

#include "ir/graph.h"
#include "random_graphs.h"
#include "support/expected.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace stagecraft::test {

/// A seeded random graph: test::randomGraph(seed, {kind, ops}).
struct RandomGraphRow {
    std::string rowLabel;
    uint64_t seed;
    GraphKind kind;
    int ops;
};

/// A row per seed 1..\p seeds, named "seed-<seed>-<kind>-<ops>": the kinds
/// in turn, 1..24 ops, every fourth seed 1..\p maxBigOps.
std::vector<RandomGraphRow> randomGraphRows(uint64_t seeds, int maxBigOps);

/// A zoo model by name.
struct ZooModelRow {
    std::string rowLabel;
    std::string name;
};

/// A row per zoo model.
std::vector<ZooModelRow> zooModelRows();

/// A fetched model: its file in the cache and its input binding ("" for none).
struct FetchedModelRow {
    std::string rowLabel;
    std::string file;
    std::string input;
};

/// A row per fetched model: the PP-OCR detector, recognizer and classifier
/// at fixed input sizes, every openWakeWord model in the cache.
std::vector<FetchedModelRow> fetchedModelRows();

/// Imports the model of a row of fetchedModelRows(); nullopt when the cache
/// is missing (fetchedModel() has reported it as a failure of the test).
std::optional<Expected<ir::Graph>> importFetchedModel(const FetchedModelRow& row);

/// How GoogleTest prints a row of a failed test (GetParam()): its fields.
void PrintTo(const RandomGraphRow& row, std::ostream* out);
void PrintTo(const ZooModelRow& row, std::ostream* out);
void PrintTo(const FetchedModelRow& row, std::ostream* out);

} // namespace stagecraft::test
