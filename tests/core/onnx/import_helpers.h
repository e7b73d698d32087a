#pragma once
// Helpers for importer tests: save a ModelBuilder to a temporary directory
// and import it.

#include "coretestsupport.h"
#include "ir/graph.h"
#include "onnx/importer.h"
#include "onnx/model_builder.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <string>

namespace stagecraft::test {

class ImportFixture {
public:
    std::filesystem::path path(const std::string& name) const {
        return std::filesystem::path(dir_.path()) / name;
    }

    /// Saves \p model as <name>.onnx and imports it.
    Expected<onnxio::ImportResult> import(const onnxio::ModelBuilder& model,
                                          const onnxio::ImportOptions& options = {},
                                          const std::string& name = "model") {
        auto file = path(name + ".onnx");
        auto saved = model.save(file);
        if (!saved.ok())
            return saved.error();
        return onnxio::importModel(file, options);
    }

private:
    test::TempDir dir_;
};

inline const ir::Tensor& tensorNamed(const ir::Graph& g, const std::string& name) {
    auto id = g.findTensor(name);
    if (!id)
        test::fatal("no tensor named %s", name.c_str());
    return g.tensor(*id);
}

inline std::map<std::string, int> opHistogram(const ir::Graph& g) {
    std::map<std::string, int> histogram;
    for (const ir::Op& op : g.ops())
        ++histogram[op.type];
    return histogram;
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace stagecraft::test
