// Data rows of the property tests (test_rows.h).

#include "test_rows.h"

#include "onnx/importer.h"
#include "random_graphs.h"
#include "testsupport.h"
#include "zoo/zoo.h"

#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace stagecraft::test {

void addRandomGraphRows(uint64_t seeds, int maxBigOps) {
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("ops");
    auto kinds = graphKinds();
    for (quint64 seed = 1; seed <= seeds; ++seed) {
        auto kind = kinds[seed % kinds.size()];
        int ops = seed % 4 == 0
                      ? 1 + static_cast<int>((seed * 37) % static_cast<quint64>(maxBigOps))
                      : 1 + static_cast<int>((seed * 13) % 24);
        QTest::addRow("seed-%llu-%s-%d", seed, graphKindName(kind).data(), ops)
            << seed << static_cast<int>(kind) << ops;
    }
}

void addZooModelRows() {
    QTest::addColumn<QString>("name");
    for (const zoo::ZooModelInfo& model : zoo::zooModels())
        QTest::addRow("%s", model.name.c_str()) << QString::fromStdString(model.name);
}

void addFetchedModelRows() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("input");
    QTest::addRow("ppocr-det") << QStringLiteral("ppocr/ch_PP-OCRv4_det_infer.onnx")
                               << QStringLiteral("x:1x3x320x320");
    QTest::addRow("ppocr-rec") << QStringLiteral("ppocr/ch_PP-OCRv4_rec_infer.onnx")
                               << QStringLiteral("x:1x3x48x320");
    QTest::addRow("ppocr-cls") << QStringLiteral("ppocr/ch_ppocr_mobile_v2.0_cls_infer.onnx")
                               << QStringLiteral("x:1x3x48x192");
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
        QTest::addRow("openwakeword-%s", file.c_str())
            << QString::fromStdString("openwakeword/" + file) << QString();
}

std::optional<Expected<ir::Graph>> importFetchedModel(const QString& file, const QString& input) {
    std::filesystem::path path = fetchedModel(file.toStdString());
    if (path.empty())
        return std::nullopt;
    onnxio::ImportOptions options;
    if (!input.isEmpty())
        if (Status bound = onnxio::addInputBinding(options, input.toStdString()); !bound.ok())
            return Expected<ir::Graph>(bound.error());
    auto imported = onnxio::importModel(path, options);
    if (!imported.ok())
        return Expected<ir::Graph>(imported.error());
    return Expected<ir::Graph>(std::move(imported->graph));
}

} // namespace stagecraft::test
