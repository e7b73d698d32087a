#pragma once
// Helpers for the simulator suites: zoo models written into a temporary
// directory and imported at a given batch, and strategies run the way
// `stagecraft compare` runs them (app/cli/cmd_compare.cpp).

#include "arch/presets.h"
#include "coretestsupport.h"
#include "onnx/importer.h"
#include "schedule/clusters.h"
#include "sim/compare.h"
#include "sim/level_choice.h"
#include "sim/roofline.h"
#include "zoo/zoo.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <utility>

namespace stagecraft::test {

/// The value of \p result, or the test aborts naming \p what.
template <typename T>
T valueOrDie(Expected<T> result, const std::string& what) {
    if (!result.ok())
        test::fatal("%s: %s", what.c_str(), result.error().message().c_str());
    return std::move(result).value();
}

inline arch::Arch preset(const std::string& name) {
    return valueOrDie(arch::loadPreset(name), "preset " + name);
}

/// The zoo model \p name written with \p batch samples (and sequence length
/// \p seq, 0 = default) into \p dir, and imported.
inline ir::Graph importZoo(const test::TempDir& dir, const std::string& name, int64_t batch,
                           int64_t seq = 0) {
    std::string key = name + "_b" + std::to_string(batch) + "_s" + std::to_string(seq);
    auto path = std::filesystem::path(dir.path()) / (key + ".onnx");
    zoo::ZooOptions options;
    options.batch = batch;
    options.seq = seq;
    valueOrDie(zoo::writeZooModel(name, options, path), "writing " + key);
    return valueOrDie(onnxio::importModel(path), "importing " + key).graph;
}

/// The options `stagecraft compare` schedules with at \p level.
inline schedule::ScheduleOptions compareOptions(schedule::Level level) {
    schedule::ScheduleOptions options;
    options.recordTrace = false;
    options.level = level;
    return options;
}

/// \p value with four significant digits.
inline std::string figure(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", value);
    return text;
}

} // namespace stagecraft::test
