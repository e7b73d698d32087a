// The zoo's models, written with default options and read back with libonnx:
// valid files, external data layout, published parameter counts, node
// histograms that follow from each architecture, exporter-style names.

#include "onnx_reading.h"
#include "zoo/zoo.h"

#include <QTemporaryDir>
#include <QtTest>
#include <onnx/checker.h>

#include <algorithm>
#include <exception>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

/// MLPerf DLRM (Criteo Terabyte) table rows, capped at 1M rows by the zoo.
int64_t dlrmParameters() {
    const int64_t rows[] = {39884406, 39043,    17289,    7420,     20263,  3,     7120, 1543, 63,
                            38532951, 2953546,  403346,   10,       2208,   11938, 155,  4,    976,
                            14,       39979771, 25641295, 39664984, 585935, 12972, 108,  36};
    int64_t count = 0;
    for (int64_t r : rows)
        count += std::min<int64_t>(r, 1000000) * 128;
    auto mlp = [&](std::vector<int64_t> widths) {
        for (size_t i = 0; i + 1 < widths.size(); ++i)
            count += widths[i] * widths[i + 1] + widths[i + 1];
    };
    mlp({13, 512, 256, 128});
    mlp({479, 1024, 1024, 512, 256, 1});
    return count;
}

/// Fig. 3: four stages of two 3x3 convs with bias, C -> 2C -> 2C.
int64_t fig3Parameters() {
    int64_t count = 0;
    for (int64_t c = 8; c <= 64; c *= 2)
        count += (c * 2 * c * 9 + 2 * c) + (2 * c * 2 * c * 9 + 2 * c);
    return count;
}

/// Fig. 2: bias-free convs, BN weight + bias per channel.
int64_t fig2Parameters() {
    int64_t convBlock = 8 * 4 + 4 * 4 * 9 + 4 * 16 + 8 * 16 + 2 * (4 + 4 + 16 + 16);
    int64_t identityBlock = 16 * 4 + 4 * 4 * 9 + 4 * 16 + 2 * (4 + 4 + 16);
    return convBlock + identityBlock;
}

} // namespace

class TestZooModels : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::filesystem::path pathOf(const QString& model) const {
        return std::filesystem::path(dir_.filePath(model + QStringLiteral(".onnx")).toStdString());
    }
    onnx::ModelProto modelOf(const QString& model) const { return loadModel(pathOf(model)); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        for (const zoo::ZooModelInfo& info : zoo::zooModels()) {
            auto written =
                zoo::writeZooModel(info.name, {}, pathOf(QString::fromStdString(info.name)));
            QVERIFY2(written.ok(), written.ok() ? "" : written.error().message().c_str());
        }
    }

    void validFile_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("parameters");
        QTest::newRow("resnet50") << QStringLiteral("resnet50") << qint64(25557032);
        QTest::newRow("bert-base") << QStringLiteral("bert-base") << qint64(109482240);
        QTest::newRow("bert-large") << QStringLiteral("bert-large") << qint64(335141888);
        QTest::newRow("dlrm") << QStringLiteral("dlrm") << qint64(dlrmParameters());
        QTest::newRow("mobilenet-v2") << QStringLiteral("mobilenet-v2") << qint64(3504872);
        QTest::newRow("vit-b16") << QStringLiteral("vit-b16") << qint64(86567656);
        QTest::newRow("densenet121") << QStringLiteral("densenet121") << qint64(7978856);
        // Hand count of the encoder documented in docs/zoo.md.
        QTest::newRow("conformer") << QStringLiteral("conformer") << qint64(8356032);
        QTest::newRow("fig3-chain") << QStringLiteral("fig3-chain") << qint64(fig3Parameters());
        QTest::newRow("fig2-blocks") << QStringLiteral("fig2-blocks") << qint64(fig2Parameters());
        // Hand counts in docs/zoo.md: one bottleneck per stage; two encoder layers.
        QTest::newRow("resnet-reduced") << QStringLiteral("resnet-reduced") << qint64(10064936);
        QTest::newRow("bert-2layer") << QStringLiteral("bert-2layer") << qint64(38603520);
    }
    void validFile() {
        QFETCH(QString, model);
        QFETCH(qint64, parameters);
        std::filesystem::path path = pathOf(model);
        try {
            onnx::checker::check_model(path.string());
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        onnx::ModelProto proto = loadModel(path);
        QCOMPARE(proto.ir_version(), int64_t(8));
        QCOMPARE(proto.opset_import_size(), 1);
        QCOMPARE(proto.opset_import(0).version(), int64_t(13));
        QCOMPARE(learnableParameters(proto), int64_t(parameters));
        for (const auto& input : proto.graph().input()) {
            const auto& shape = input.type().tensor_type().shape();
            QVERIFY(shape.dim_size() > 0);
            for (const auto& dim : shape.dim())
                QVERIFY2(dim.has_dim_value() && dim.dim_value() > 0, input.name().c_str());
        }
        QVERIFY(proto.graph().output_size() > 0);
    }

    /// Every external tensor has its own aligned range and the data file is
    /// exactly as long as they need (padded to the 64-byte alignment).
    void externalDataSize_data() { validFile_data(); }
    void externalDataSize() {
        QFETCH(QString, model);
        std::vector<ExternalRange> ranges = externalRanges(modelOf(model));
        QVERIFY(!ranges.empty());
        std::sort(ranges.begin(), ranges.end(), [](const ExternalRange& a, const ExternalRange& b) {
            return a.offset < b.offset;
        });
        int64_t end = 0;
        for (const ExternalRange& range : ranges) {
            QCOMPARE(QString::fromStdString(range.location), model + QStringLiteral(".weights"));
            QCOMPARE(range.length, range.expectedLength);
            QVERIFY2(range.offset >= end, range.name.c_str());
            QCOMPARE(range.offset % 64, int64_t(0));
            end = range.offset + range.length;
        }
        auto fileSize = static_cast<int64_t>(std::filesystem::file_size(
            pathOf(model).parent_path() / (model.toStdString() + ".weights")));
        QVERIFY(fileSize >= end);
        QVERIFY(fileSize < end + 64);
    }

    void opCounts_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("count");
        struct Row {
            const char* model;
            const char* op;
            int count;
        };
        const Row rows[] = {
            {"resnet50", "Conv", 53},
            {"resnet50", "BatchNormalization", 53},
            {"resnet50", "Relu", 49},
            {"resnet50", "Add", 16},
            {"resnet50", "MaxPool", 1},
            {"resnet50", "Gemm", 1},
            {"resnet50", "GlobalAveragePool", 1},
            // 12 layers x (Q, K, V, attention output, intermediate, output + QK^T, AV)
            {"bert-base", "MatMul", 96},
            {"bert-base", "Softmax", 12},
            {"bert-base", "ReduceMean", 50},
            {"bert-base", "Erf", 12},
            {"bert-base", "Gemm", 1},
            {"bert-base", "Tanh", 1},
            {"bert-base", "Gather", 4},
            {"bert-base", "Unsqueeze", 1},
            {"bert-large", "MatMul", 192},
            {"bert-large", "Softmax", 24},
            {"bert-large", "ReduceMean", 98},
            // 26 column picks + 26 lookups + the lower-triangle Gather
            {"dlrm", "Gather", 53},
            {"dlrm", "Gemm", 8},
            {"dlrm", "Relu", 7},
            {"dlrm", "Sigmoid", 1},
            {"dlrm", "MatMul", 1},
            {"dlrm", "Concat", 2},
            {"dlrm", "Transpose", 1},
            {"mobilenet-v2", "Conv", 52},
            {"mobilenet-v2", "BatchNormalization", 52},
            {"mobilenet-v2", "Clip", 35},
            {"mobilenet-v2", "Add", 10},
            {"mobilenet-v2", "Dropout", 1},
            {"mobilenet-v2", "Gemm", 1},
            // 12 x (in_proj, QK^T, AV, out_proj, 2 MLP)
            {"vit-b16", "MatMul", 72},
            {"vit-b16", "Split", 12},
            {"vit-b16", "Softmax", 12},
            {"vit-b16", "Erf", 12},
            {"vit-b16", "ReduceMean", 50},
            {"vit-b16", "Conv", 1},
            {"vit-b16", "Concat", 1},
            {"vit-b16", "Gemm", 1},
            // 1 + 58 layers x 2 + 3 transitions; BN and ReLU also after the last block
            {"densenet121", "Conv", 120},
            {"densenet121", "BatchNormalization", 121},
            {"densenet121", "Relu", 121},
            {"densenet121", "Concat", 58},
            {"densenet121", "AveragePool", 3},
            {"densenet121", "MaxPool", 1},
            {"densenet121", "Gemm", 1},
            // 16 blocks x 5 LayerNorms x 2; Sigmoid: 2 FFN Swish + GLU + conv Swish
            {"conformer", "Conv", 50},
            {"conformer", "BatchNormalization", 16},
            {"conformer", "Softmax", 16},
            {"conformer", "ReduceMean", 160},
            {"conformer", "Sigmoid", 64},
            {"conformer", "Split", 16},
            {"conformer", "MatMul", 161},
            {"fig3-chain", "Conv", 8},
            {"fig3-chain", "Relu", 8},
            {"fig2-blocks", "Conv", 7},
            {"fig2-blocks", "BatchNormalization", 7},
            {"fig2-blocks", "Relu", 6},
            {"fig2-blocks", "Add", 2},
        };
        for (const Row& row : rows)
            QTest::addRow("%s %s", row.model, row.op)
                << QString::fromLatin1(row.model) << QString::fromLatin1(row.op) << row.count;
    }
    void opCounts() {
        QFETCH(QString, model);
        QFETCH(QString, op);
        QFETCH(int, count);
        QCOMPARE(opHistogram(modelOf(model))[op.toStdString()], count);
    }

    void figureNodes() {
        onnx::ModelProto chain = modelOf(QStringLiteral("fig3-chain"));
        QStringList names;
        for (const auto& node : chain.graph().node())
            names << QString::fromStdString(node.name());
        QStringList expected;
        for (int k = 1; k <= 4; ++k)
            for (const char* part : {"conv1", "relu1", "conv2", "relu2"})
                expected << QStringLiteral("stage%1.%2").arg(k).arg(QLatin1String(part));
        QCOMPARE(names, expected);

        onnx::ModelProto blocks = modelOf(QStringLiteral("fig2-blocks"));
        QCOMPARE(blocks.graph().node_size(), 7 + 7 + 6 + 2); // Conv, BN, Relu, Add
        for (const auto& node : blocks.graph().node()) {
            QString name = QString::fromStdString(node.name());
            QVERIFY2(name.startsWith(QStringLiteral("conv_block.")) ||
                         name.startsWith(QStringLiteral("identity_block.")),
                     qPrintable(name));
        }
    }

    void initializerNames_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("dims");
        struct Row {
            const char* model;
            const char* name;
            const char* dims;
        };
        const Row rows[] = {
            {"resnet50", "layer1.0.conv1.weight", "64x64x1x1"},
            {"resnet50", "layer1.0.downsample.0.weight", "256x64x1x1"},
            {"resnet50", "layer4.2.bn3.running_var", "2048"},
            {"resnet50", "fc.weight", "1000x2048"},
            {"bert-base", "embeddings.word_embeddings.weight", "30522x768"},
            {"bert-base", "embeddings.position_ids", "1x128"},
            {"bert-base", "encoder.layer.0.intermediate.dense.weight", "768x3072"},
            {"bert-base", "encoder.layer.11.output.LayerNorm.bias", "768"},
            {"bert-base", "pooler.dense.weight", "768x768"},
            {"bert-large", "encoder.layer.23.attention.self.query.weight", "1024x1024"},
            {"dlrm", "emb_l.0.weight", "1000000x128"},
            {"dlrm", "emb_l.5.weight", "3x128"},
            {"dlrm", "bot_l.0.weight", "512x13"},
            {"dlrm", "top_l.8.weight", "1x256"},
            {"dlrm", "interact_features.tril_indices", "351"},
            {"mobilenet-v2", "features.0.0.weight", "32x3x3x3"},
            {"mobilenet-v2", "features.1.conv.0.0.weight", "32x1x3x3"},
            {"mobilenet-v2", "features.18.0.weight", "1280x320x1x1"},
            {"mobilenet-v2", "classifier.1.weight", "1000x1280"},
            {"vit-b16", "conv_proj.weight", "768x3x16x16"},
            {"vit-b16", "class_token", "1x1x768"},
            {"vit-b16", "encoder.pos_embedding", "1x197x768"},
            {"vit-b16", "encoder.layers.encoder_layer_11.self_attention.in_proj_weight",
             "768x2304"},
            {"vit-b16", "heads.head.weight", "1000x768"},
            {"densenet121", "features.denseblock4.denselayer16.conv2.weight", "32x128x3x3"},
            {"densenet121", "features.transition3.conv.weight", "512x1024x1x1"},
            {"densenet121", "classifier.weight", "1000x1024"},
            {"conformer", "encoder.embed.out.0.weight", "2736x144"},
            {"conformer", "encoder.encoders.15.conv_module.depthwise_conv.weight", "144x1x32"},
            {"fig3-chain", "stage4.conv2.weight", "128x128x3x3"},
            {"fig3-chain", "stage1.conv1.bias", "16"},
            {"fig2-blocks", "conv_block.shortcut_conv.weight", "16x8x1x1"},
        };
        for (const Row& row : rows)
            QTest::addRow("%s %s", row.model, row.name)
                << QString::fromLatin1(row.model) << QString::fromLatin1(row.name)
                << QString::fromLatin1(row.dims);
    }
    void initializerNames() {
        QFETCH(QString, model);
        QFETCH(QString, name);
        QFETCH(QString, dims);
        onnx::ModelProto proto = modelOf(model);
        const auto& all = proto.graph().initializer();
        auto found = std::find_if(all.begin(), all.end(), [&](const onnx::TensorProto& t) {
            return t.name() == name.toStdString();
        });
        QVERIFY2(found != all.end(), qPrintable(name));
        QCOMPARE(dimsText(*found), dims);
    }

    void nodeAttributes_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QString>("values");
        auto row = [](const char* model, const char* node, const char* attr, const char* values) {
            QTest::addRow("%s %s %s", model, node, attr)
                << QString::fromLatin1(model) << QString::fromLatin1(node)
                << QString::fromLatin1(attr) << QString::fromLatin1(values);
        };
        // v1.5: the stride of a down-sampling bottleneck is on its 3x3 conv.
        row("resnet50", "layer2.0.conv1", "strides", "1,1");
        row("resnet50", "layer2.0.conv2", "strides", "2,2");
        row("resnet50", "layer2.0.downsample.0", "strides", "2,2");
        row("mobilenet-v2", "features.2.conv.1.0", "group", "96");
        row("conformer", "encoder.encoders.0.conv_module.depthwise_conv", "pads", "15,16");
        row("conformer", "encoder.encoders.0.conv_module.depthwise_conv", "group", "144");
        row("bert-base", "encoder.layer.0.attention.self/Softmax", "axis", "-1");
        row("dlrm", "emb_l.7/Gather", "axis", "1");
        row("fig3-chain", "stage2.conv1", "strides", "2,2");
        row("fig3-chain", "stage2.conv2", "strides", "1,1");
    }
    void nodeAttributes() {
        QFETCH(QString, model);
        QFETCH(QString, node);
        QFETCH(QString, attribute);
        QFETCH(QString, values);
        onnx::ModelProto proto = modelOf(model);
        QString actual = QStringLiteral("<missing>");
        for (const auto& n : proto.graph().node()) {
            if (n.name() != node.toStdString())
                continue;
            for (const auto& attr : n.attribute()) {
                if (attr.name() != attribute.toStdString())
                    continue;
                QStringList parts;
                if (attr.type() == onnx::AttributeProto::INT)
                    parts << QString::number(attr.i());
                for (int64_t v : attr.ints())
                    parts << QString::number(v);
                actual = parts.join(QLatin1Char(','));
            }
        }
        QCOMPARE(actual, values);
    }

    void dlrmDocString() {
        onnx::ModelProto proto = modelOf(QStringLiteral("dlrm"));
        QString doc = QString::fromStdString(proto.doc_string());
        QVERIFY2(doc.contains(QStringLiteral("capped at 1000000 rows")), qPrintable(doc));
    }
};

QTEST_GUILESS_MAIN(TestZooModels)
#include "test_zoo_models.moc"
