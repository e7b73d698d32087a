// The zoo's options: --batch/--seq reach the declared shapes and ONNX shape
// inference derives the same output shapes; writing twice gives the same
// bytes; bad options give one-line errors naming the option.

#include "onnx_reading.h"
#include "zoo/zoo.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <onnx/shape_inference/implementation.h>

#include <exception>

using namespace stagecraft;
using namespace stagecraft::test;
using onnxio::WeightFill;

Q_DECLARE_METATYPE(WeightFill)

namespace {

QByteArray fileHash(const std::filesystem::path& path) {
    QFile file(QString::fromStdString(path.string()));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result();
}

/// Conformer frames after two 3x3 stride-2 convs without padding.
int64_t conformerFrames(int64_t t) {
    return ((t - 3) / 2 + 1 - 3) / 2 + 1;
}

} // namespace

class TestZooOptions : public QObject {
    Q_OBJECT

private slots:
    void shapes_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<QString>("inputs");  // declared input shapes, ';'-separated
        QTest::addColumn<QString>("outputs"); // expected output shapes
        auto row = [](const char* model, qint64 batch, qint64 seq, const QString& inputs,
                      const QString& outputs) {
            QTest::addRow("%s b%lld s%lld", model, batch, seq)
                << QString::fromLatin1(model) << batch << seq << inputs << outputs;
        };
        row("resnet50", 0, 0, QStringLiteral("1x3x224x224"), QStringLiteral("1x1000"));
        row("resnet50", 4, 0, QStringLiteral("4x3x224x224"), QStringLiteral("4x1000"));
        row("bert-base", 0, 0, QStringLiteral("1x128;1x128;1x128"),
            QStringLiteral("1x128x768;1x768"));
        row("bert-base", 2, 384, QStringLiteral("2x384;2x384;2x384"),
            QStringLiteral("2x384x768;2x768"));
        row("bert-large", 1, 64, QStringLiteral("1x64;1x64;1x64"),
            QStringLiteral("1x64x1024;1x1024"));
        row("dlrm", 0, 0, QStringLiteral("1x13;1x26"), QStringLiteral("1x1"));
        row("dlrm", 1024, 0, QStringLiteral("1024x13;1024x26"), QStringLiteral("1024x1"));
        row("mobilenet-v2", 3, 0, QStringLiteral("3x3x224x224"), QStringLiteral("3x1000"));
        row("vit-b16", 2, 0, QStringLiteral("2x3x224x224"), QStringLiteral("2x1000"));
        row("densenet121", 2, 0, QStringLiteral("2x3x224x224"), QStringLiteral("2x1000"));
        row("conformer", 0, 0, QStringLiteral("1x1000x80"),
            QStringLiteral("1x%1x144").arg(conformerFrames(1000)));
        row("conformer", 12, 400, QStringLiteral("12x400x80"),
            QStringLiteral("12x%1x144").arg(conformerFrames(400)));
        row("fig3-chain", 0, 0, QStringLiteral("8x8x32x32"), QStringLiteral("8x128x2x2"));
        row("fig3-chain", 1, 0, QStringLiteral("1x8x32x32"), QStringLiteral("1x128x2x2"));
        row("fig2-blocks", 0, 0, QStringLiteral("8x8x8x8"), QStringLiteral("8x16x8x8"));
    }
    void shapes() {
        QFETCH(QString, model);
        QFETCH(qint64, batch);
        QFETCH(qint64, seq);
        QFETCH(QString, inputs);
        QFETCH(QString, outputs);
        QTemporaryDir dir;
        std::filesystem::path path = dir.filePath(QStringLiteral("m.onnx")).toStdString();
        zoo::ZooOptions options;
        options.batch = batch;
        options.seq = seq;
        auto written = zoo::writeZooModel(model.toStdString(), options, path);
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message().c_str());

        onnx::ModelProto proto = loadModel(path);
        QStringList declared;
        for (const auto& input : proto.graph().input())
            declared << dimsText(input.type().tensor_type().shape());
        QCOMPARE(declared.join(QLatin1Char(';')), inputs);

        // Forget the declared output shapes, infer them, compare.
        for (auto& output : *proto.mutable_graph()->mutable_output())
            output.mutable_type()->mutable_tensor_type()->clear_shape();
        try {
            onnx::shape_inference::InferShapes(proto, onnx::OpSchemaRegistry::Instance(),
                                               onnx::ShapeInferenceOptions(true, 1, false));
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QStringList inferred;
        for (const auto& output : proto.graph().output())
            inferred << dimsText(output.type().tensor_type().shape());
        QCOMPARE(inferred.join(QLatin1Char(';')), outputs);
    }

    void deterministic_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<WeightFill>("fill");
        for (const zoo::ZooModelInfo& info : zoo::zooModels())
            QTest::addRow("%s zeros", info.name.c_str())
                << QString::fromStdString(info.name) << WeightFill::Zeros;
        // Seeded weights are compared byte by byte: the smaller models only.
        for (const char* model : {"fig3-chain", "fig2-blocks", "mobilenet-v2"})
            QTest::addRow("%s seeded", model) << QString::fromLatin1(model) << WeightFill::Seeded;
    }
    void deterministic() {
        QFETCH(QString, model);
        QFETCH(WeightFill, fill);
        QTemporaryDir first;
        QTemporaryDir second;
        zoo::ZooOptions options;
        options.weights = fill;
        std::filesystem::path a = first.filePath(QStringLiteral("m.onnx")).toStdString();
        std::filesystem::path b = second.filePath(QStringLiteral("m.onnx")).toStdString();
        QVERIFY(zoo::writeZooModel(model.toStdString(), options, a).ok());
        QVERIFY(zoo::writeZooModel(model.toStdString(), options, b).ok());
        QByteArray hash = fileHash(a);
        QVERIFY(!hash.isEmpty());
        QCOMPARE(fileHash(b), hash);
        std::filesystem::path weightsA = a.parent_path() / "m.weights";
        std::filesystem::path weightsB = b.parent_path() / "m.weights";
        QCOMPARE(std::filesystem::file_size(weightsB), std::filesystem::file_size(weightsA));
        if (fill == WeightFill::Seeded)
            QCOMPARE(fileHash(weightsB), fileHash(weightsA));
    }

    void seededDiffersFromZeros() {
        QTemporaryDir dir;
        std::filesystem::path zeros = dir.filePath(QStringLiteral("zeros.onnx")).toStdString();
        std::filesystem::path seeded = dir.filePath(QStringLiteral("seeded.onnx")).toStdString();
        zoo::ZooOptions options;
        QVERIFY(zoo::writeZooModel("fig3-chain", options, zeros).ok());
        options.weights = WeightFill::Seeded;
        QVERIFY(zoo::writeZooModel("fig3-chain", options, seeded).ok());
        QCOMPARE(std::filesystem::file_size(
                     dir.filePath(QStringLiteral("seeded.weights")).toStdString()),
                 std::filesystem::file_size(
                     dir.filePath(QStringLiteral("zeros.weights")).toStdString()));
        QVERIFY(fileHash(dir.filePath(QStringLiteral("seeded.weights")).toStdString()) !=
                fileHash(dir.filePath(QStringLiteral("zeros.weights")).toStdString()));
    }

    void errors_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("start"); // the message starts with this
        QTest::addColumn<QString>("contains");
        auto onnx = QStringLiteral("m.onnx");
        QTest::newRow("unknown model") << QStringLiteral("resnet51") << qint64(0) << qint64(0)
                                       << onnx << QStringLiteral("unknown model 'resnet51'")
                                       << QStringLiteral("resnet50, bert-base, bert-large");
        QTest::newRow("negative batch") << QStringLiteral("resnet50") << qint64(-2) << qint64(0)
                                        << onnx << QStringLiteral("batch") << QStringLiteral("-2");
        QTest::newRow("huge batch") << QStringLiteral("dlrm") << qint64(1 << 20) << qint64(0)
                                    << onnx << QStringLiteral("batch") << QStringLiteral("dlrm");
        QTest::newRow("seq without sequence")
            << QStringLiteral("resnet50") << qint64(0) << qint64(128) << onnx
            << QStringLiteral("seq") << QStringLiteral("resnet50");
        QTest::newRow("bert seq too long")
            << QStringLiteral("bert-base") << qint64(0) << qint64(513) << onnx
            << QStringLiteral("seq") << QStringLiteral("1..512");
        QTest::newRow("conformer too short")
            << QStringLiteral("conformer") << qint64(0) << qint64(6) << onnx
            << QStringLiteral("seq") << QStringLiteral("7..");
        QTest::newRow("weights extension")
            << QStringLiteral("fig3-chain") << qint64(0) << qint64(0) << QStringLiteral("m.weights")
            << QStringLiteral("'") << QStringLiteral("weights");
        QTest::newRow("missing directory")
            << QStringLiteral("fig3-chain") << qint64(0) << qint64(0)
            << QStringLiteral("no/such/m.onnx") << QStringLiteral("") << QStringLiteral("no/such");
    }
    void errors() {
        QFETCH(QString, model);
        QFETCH(qint64, batch);
        QFETCH(qint64, seq);
        QFETCH(QString, file);
        QFETCH(QString, start);
        QFETCH(QString, contains);
        QTemporaryDir dir;
        zoo::ZooOptions options;
        options.batch = batch;
        options.seq = seq;
        auto written =
            zoo::writeZooModel(model.toStdString(), options, dir.filePath(file).toStdString());
        QVERIFY(!written.ok());
        QString message = QString::fromStdString(written.error().message());
        QVERIFY2(message.startsWith(start), qPrintable(message));
        QVERIFY2(message.contains(contains), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));
        QVERIFY2(!message.endsWith(QLatin1Char('.')), qPrintable(message));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("m.onnx"))));
    }
};

QTEST_GUILESS_MAIN(TestZooOptions)
#include "test_zoo_options.moc"
