// Fetched-model rows of the property tests (fetched_models.h).

#include "fetched_models.h"

#include "onnx/importer.h"
#include "testsupport.h"

#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace stagecraft::test {

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
