#pragma once
// Helpers for scheduling tests: zoo models imported once per name and batch.

#include "arch/presets.h"
#include "coretestsupport.h"
#include "ir/graph.h"
#include "onnx/importer.h"
#include "schedule/pipeline.h"
#include "schedule/validate.h"
#include "zoo/zoo.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

namespace stagecraft::test {

class ZooGraphs {
public:
    /// The imported zoo model \p name at \p batch (0 = its default).
    const ir::Graph& graph(const std::string& name, int64_t batch = 0, int64_t seq = 0) {
        auto key = name + "_b" + std::to_string(batch) + "_s" + std::to_string(seq);
        if (auto it = graphs_.find(key); it != graphs_.end())
            return it->second;
        auto path = std::filesystem::path(dir_.path()) / (key + ".onnx");
        zoo::ZooOptions options;
        options.batch = batch;
        options.seq = seq;
        auto written = zoo::writeZooModel(name, options, path);
        if (!written.ok())
            test::fatal("%s", written.error().message().c_str());
        auto imported = onnxio::importModel(path);
        if (!imported.ok())
            test::fatal("%s", imported.error().message().c_str());
        return graphs_.emplace(key, std::move(imported->graph)).first->second;
    }

private:
    test::TempDir dir_;
    std::map<std::string, ir::Graph> graphs_;
};

inline arch::Arch preset(const std::string& name) {
    auto arch = arch::loadPreset(name);
    if (!arch.ok())
        test::fatal("%s", arch.error().message().c_str());
    return std::move(arch).value();
}

inline std::vector<std::string> orderLabels(const schedule::Schedule& s) {
    std::vector<std::string> labels;
    for (schedule::InstanceId i : s.order)
        labels.push_back(s.instances[i].label);
    return labels;
}

inline std::vector<int64_t> instanceCounts(const schedule::Schedule& s) {
    std::vector<int64_t> counts;
    for (const schedule::Group& g : s.groups)
        counts.push_back(static_cast<int64_t>(g.instances.size()));
    return counts;
}

inline std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::string word;
    for (char c : text + " ") {
        if (c == ' ') {
            if (!word.empty())
                out.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    return out;
}

} // namespace stagecraft::test
