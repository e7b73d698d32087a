// Data rows of the property tests (test_rows.h).

#include "test_rows.h"

#include "coretestsupport.h"
#include "onnx/importer.h"
#include "zoo/zoo.h"

#include <algorithm>
#include <filesystem>

namespace stagecraft::test {

std::vector<RandomGraphRow> randomGraphRows(uint64_t seeds, int maxBigOps) {
    std::vector<RandomGraphRow> rows;
    auto kinds = graphKinds();
    for (uint64_t seed = 1; seed <= seeds; ++seed) {
        auto kind = kinds[seed % kinds.size()];
        int ops = seed % 4 == 0
                      ? 1 + static_cast<int>((seed * 37) % static_cast<uint64_t>(maxBigOps))
                      : 1 + static_cast<int>((seed * 13) % 24);
        rows.push_back({rowName("seed-%llu-%s-%d", static_cast<unsigned long long>(seed),
                                graphKindName(kind).data(), ops),
                        seed, kind, ops});
    }
    return rows;
}

std::vector<ZooModelRow> zooModelRows() {
    std::vector<ZooModelRow> rows;
    for (const zoo::ZooModelInfo& model : zoo::zooModels())
        rows.push_back({model.name, model.name});
    return rows;
}

std::vector<FetchedModelRow> fetchedModelRows() {
    std::vector<FetchedModelRow> rows = {
        {"ppocr-det", "ppocr/ch_PP-OCRv4_det_infer.onnx", "x:1x3x320x320"},
        {"ppocr-rec", "ppocr/ch_PP-OCRv4_rec_infer.onnx", "x:1x3x48x320"},
        {"ppocr-cls", "ppocr/ch_ppocr_mobile_v2.0_cls_infer.onnx", "x:1x3x48x192"},
        {"audio-melspectrogram", "audio/melspectrogram.onnx", "input:1x1280"},
        {"audio-embedding", "audio/embedding_model.onnx", "input_1:1x76x32x1"},
    };
    std::vector<std::string> wakeWords;
    std::error_code error;
    for (const auto& entry :
         std::filesystem::directory_iterator(modelsDir() / "openwakeword", error))
        if (entry.path().extension() == ".onnx")
            wakeWords.push_back(entry.path().filename().string());
    std::sort(wakeWords.begin(), wakeWords.end());
    if (wakeWords.empty()) // fetchedModel() then reports the missing cache
        wakeWords.push_back("hello_deepa.onnx");
    for (const std::string& file : wakeWords)
        rows.push_back({"openwakeword-" + file, "openwakeword/" + file, ""});
    return rows;
}

std::optional<Expected<ir::Graph>> importFetchedModel(const FetchedModelRow& row) {
    std::filesystem::path path = fetchedModel(row.file);
    if (path.empty())
        return std::nullopt;
    onnxio::ImportOptions options;
    if (!row.input.empty())
        if (Status bound = onnxio::addInputBinding(options, row.input); !bound.ok())
            return Expected<ir::Graph>(bound.error());
    auto imported = onnxio::importModel(path, options);
    if (!imported.ok())
        return Expected<ir::Graph>(imported.error());
    return Expected<ir::Graph>(std::move(imported->graph));
}

void PrintTo(const RandomGraphRow& row, std::ostream* out) {
    *out << "seed " << row.seed << ", kind " << graphKindName(row.kind) << ", " << row.ops
         << " ops";
}

void PrintTo(const ZooModelRow& row, std::ostream* out) {
    *out << "zoo model " << row.name;
}

void PrintTo(const FetchedModelRow& row, std::ostream* out) {
    *out << row.file << (row.input.empty() ? "" : ", input " + row.input);
}

} // namespace stagecraft::test
