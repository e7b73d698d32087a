// The zoo's models, imported, match the published figures within 1 % (RandWire
// within its published spread):
// parameters and multiply-accumulates at their standard input sizes.
// References: torchvision's model cards (ResNet-50 v1.5: 25,557,032 params,
// 4.09 GMACs; MobileNet-v2: 3,504,872, 0.30 GMACs; ViT-B/16: 86,567,656,
// 17.56 GMACs; DenseNet-121: 7,978,856, 2.83 GMACs; SqueezeNet 1.1: 1,235,496,
// 0.35 GMACs; Inception-v3: 27,161,264 less the auxiliary classifier's
// 3,326,696, which eval mode does not run, 5.71 GMACs), the BERT paper
// (BERT-base: 110 M params; 11.2 GMACs for the encoder at sequence 128, the
// figure the issue quotes) and RandWire's Table 2 (RandWire-WS, C = 78:
// 5.6 +- 0.1 M params, 583 +- 6.2 M FLOPs, mean and deviation over random
// graphs; one graph is checked within two deviations). torchvision's
// "GFLOPS" column and RandWire's FLOPs count multiply-accumulates.

#include "onnx/importer.h"
#include "ops/model_stats.h"
#include "zoo/zoo.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace stagecraft;

class TestZooFigures : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

private slots:
    void publishedFigures_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("params");
        QTest::addColumn<double>("macs");
        QTest::addColumn<double>("paramsTolerance");
        QTest::addColumn<double>("macsTolerance");
        QTest::newRow("resnet50") << QStringLiteral("resnet50") << 25.557032e6 << 4.09e9 << 0.01
                                  << 0.01;
        QTest::newRow("mobilenet-v2")
            << QStringLiteral("mobilenet-v2") << 3.504872e6 << 0.30e9 << 0.01 << 0.01;
        QTest::newRow("bert-base")
            << QStringLiteral("bert-base") << 110e6 << 11.2e9 << 0.01 << 0.01;
        QTest::newRow("vit-b16") << QStringLiteral("vit-b16") << 86.567656e6 << 17.56e9 << 0.01
                                 << 0.01;
        QTest::newRow("densenet121")
            << QStringLiteral("densenet121") << 7.978856e6 << 2.83e9 << 0.01 << 0.01;
        QTest::newRow("squeezenet")
            << QStringLiteral("squeezenet") << 1.235496e6 << 0.35e9 << 0.01 << 0.01;
        QTest::newRow("inception-v3")
            << QStringLiteral("inception-v3") << 23.834568e6 << 5.71e9 << 0.01 << 0.01;
        QTest::newRow("randwire-ws")
            << QStringLiteral("randwire-ws") << 5.6e6 << 583e6 << 2 * 0.1 / 5.6 << 2 * 6.2 / 583;
    }
    void publishedFigures() {
        QFETCH(QString, model);
        QFETCH(double, params);
        QFETCH(double, macs);
        QFETCH(double, paramsTolerance);
        QFETCH(double, macsTolerance);
        auto path =
            std::filesystem::path(dir.path().toStdString()) / (model.toStdString() + ".onnx");
        auto written = zoo::writeZooModel(model.toStdString(), {}, path);
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message().c_str());
        auto imported = onnxio::importModel(path);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message().c_str());
        auto stats = ops::computeModelStats(imported->graph);
        QVERIFY(stats.ok());
        qInfo("%s: %lld params (published %.0f), %lld MACs (published %.3g), %zu opaque ops",
              qPrintable(model), static_cast<long long>(stats->params), params,
              static_cast<long long>(stats->macs), macs, stats->opaqueOps.size());
        QVERIFY(stats->opaqueOps.empty());
        QVERIFY2(std::fabs(static_cast<double>(stats->params) - params) <= paramsTolerance * params,
                 "params off by more than the tolerance");
        QVERIFY2(std::fabs(static_cast<double>(stats->macs) - macs) <= macsTolerance * macs,
                 "MACs off by more than the tolerance");
    }

    // The int8 models (zoo --precision i8 and i8-dynamic) keep the published
    // figures within 1 %: their integer weights count as parameters (their
    // scales do not), BatchNorm folded into the convs' biases (ResNet-50:
    // 25,557,032 less BatchNorm's 26,560 gammas), the MACs at the integer ops.
    void quantizedFigures_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("mode");
        QTest::addColumn<double>("params");
        QTest::addColumn<double>("macs");
        const std::pair<const char*, std::pair<double, double>> models[] = {
            {"resnet50", {25.557032e6, 4.09e9}},
            {"mobilenet-v2", {3.504872e6, 0.30e9}},
            {"bert-base", {110e6, 11.2e9}}};
        for (const auto& [model, figures] : models) {
            QTest::addRow("%s i8", model)
                << QString::fromLatin1(model) << int(onnxio::Quantization::Static) << figures.first
                << figures.second;
            QTest::addRow("%s i8-dynamic", model)
                << QString::fromLatin1(model) << int(onnxio::Quantization::Dynamic) << figures.first
                << figures.second;
        }
    }
    void quantizedFigures() {
        QFETCH(QString, model);
        QFETCH(int, mode);
        QFETCH(double, params);
        QFETCH(double, macs);
        zoo::ZooOptions options;
        options.quantization = static_cast<onnxio::Quantization>(mode);
        auto path = std::filesystem::path(dir.path().toStdString()) /
                    (model.toStdString() + "-" + std::to_string(mode) + ".onnx");
        auto written = zoo::writeZooModel(model.toStdString(), options, path);
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message().c_str());
        auto imported = onnxio::importModel(path);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message().c_str());
        auto stats = ops::computeModelStats(imported->graph);
        QVERIFY(stats.ok());
        int integerOps = 0;
        for (const ir::Op& op : imported->graph.ops())
            integerOps +=
                op.kind == ir::OpKind::QLinearConv || op.kind == ir::OpKind::QLinearMatMul ||
                op.kind == ir::OpKind::ConvInteger || op.kind == ir::OpKind::MatMulInteger;
        qInfo("%s: %lld params, %lld MACs, %d integer contractions", QTest::currentDataTag(),
              static_cast<long long>(stats->params), static_cast<long long>(stats->macs),
              integerOps);
        QVERIFY(stats->opaqueOps.empty());
        QVERIFY(integerOps >= 50); // every conv or matmul but the classifier's Gemm
        QVERIFY(std::fabs(static_cast<double>(stats->params) - params) <= 0.01 * params);
        QVERIFY(std::fabs(static_cast<double>(stats->macs) - macs) <= 0.01 * macs);
    }
};

QTEST_GUILESS_MAIN(TestZooFigures)
#include "test_zoo_figures.moc"
