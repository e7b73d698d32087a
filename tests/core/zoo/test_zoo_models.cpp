// The zoo's models, written with default options and read back with libonnx:
// valid files, external data layout, published parameter counts, node
// histograms that follow from each architecture, exporter-style names.

#include "coretestsupport.h"
#include "onnx_reading.h"
#include "suite_fixture.h"
#include "zoo/zoo.h"

#include <onnx/checker.h>

#include <algorithm>
#include <exception>
#include <gtest/gtest.h>
#include <memory>

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

/// Every zoo model written once for the whole program (the Qt suite's
/// initTestCase), read back by every test.
class TestZooModels : public OnceSuite<TestZooModels> {
public:
    /// Writes every zoo model into dir_ (OnceSuite's setup).
    static void prepare() {
        for (const zoo::ZooModelInfo& info : zoo::zooModels()) {
            auto written = zoo::writeZooModel(info.name, {}, pathOf(info.name));
            ASSERT_TRUE(written.ok()) << (written.ok() ? "" : written.error().message().c_str());
        }
    }

protected:
    static std::filesystem::path pathOf(const std::string& model) {
        return std::filesystem::path(dir_->filePath(model + ".onnx"));
    }
    static onnx::ModelProto modelOf(const std::string& model) { return loadModel(pathOf(model)); }
};

struct ValidFileRow {
    std::string rowLabel;
    std::string model;
    int64_t parameters;
};

std::vector<ValidFileRow> validFileRows() {
    std::vector<ValidFileRow> rows;
    rows.push_back({"resnet50", std::string("resnet50"), int64_t(25557032)});
    rows.push_back({"bert-base", std::string("bert-base"), int64_t(109482240)});
    rows.push_back({"bert-large", std::string("bert-large"), int64_t(335141888)});
    rows.push_back({"dlrm", std::string("dlrm"), int64_t(dlrmParameters())});
    rows.push_back({"mobilenet-v2", std::string("mobilenet-v2"), int64_t(3504872)});
    rows.push_back({"vit-b16", std::string("vit-b16"), int64_t(86567656)});
    rows.push_back({"densenet121", std::string("densenet121"), int64_t(7978856)});
    rows.push_back({"squeezenet", std::string("squeezenet"), int64_t(1235496)});
    rows.push_back({"inception-v3", std::string("inception-v3"), int64_t(23834568)});
    // Hand counts in docs/zoo.md: Mixed_7c alone; one NASNet-A normal cell.
    rows.push_back({"inception-v3-block", std::string("inception-v3-block"), int64_t(6076800)});
    rows.push_back({"nasnet-a-cell", std::string("nasnet-a-cell"), int64_t(50424)});
    // Hand count in docs/zoo.md from the three stages' graphs.
    rows.push_back({"randwire-ws", std::string("randwire-ws"), int64_t(5564641)});
    // Hand count of the encoder documented in docs/zoo.md.
    rows.push_back({"conformer", std::string("conformer"), int64_t(8356032)});
    rows.push_back({"fig3-chain", std::string("fig3-chain"), int64_t(fig3Parameters())});
    rows.push_back({"fig2-blocks", std::string("fig2-blocks"), int64_t(fig2Parameters())});
    // Hand counts in docs/zoo.md: one bottleneck per stage; two encoder layers.
    rows.push_back({"resnet-reduced", std::string("resnet-reduced"), int64_t(10064936)});
    rows.push_back({"bert-2layer", std::string("bert-2layer"), int64_t(38603520)});
    return rows;
}

class ValidFileRows : public TestZooModels, public ::testing::WithParamInterface<ValidFileRow> {};

TEST_P(ValidFileRows, validFile) {
    std::string model = GetParam().model;
    int64_t parameters = GetParam().parameters;
    std::filesystem::path path = pathOf(model);
    try {
        onnx::checker::check_model(path.string());
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
    onnx::ModelProto proto = loadModel(path);
    ASSERT_EQ(proto.ir_version(), int64_t(8));
    ASSERT_EQ(proto.opset_import_size(), 1);
    ASSERT_EQ(proto.opset_import(0).version(), int64_t(13));
    ASSERT_EQ(learnableParameters(proto), int64_t(parameters));
    for (const auto& input : proto.graph().input()) {
        const auto& shape = input.type().tensor_type().shape();
        ASSERT_TRUE(shape.dim_size() > 0);
        for (const auto& dim : shape.dim())
            ASSERT_TRUE(dim.has_dim_value() && dim.dim_value() > 0) << (input.name().c_str());
    }
    ASSERT_TRUE(proto.graph().output_size() > 0);
}

INSTANTIATE_TEST_SUITE_P(TestZooModels, ValidFileRows, ::testing::ValuesIn(validFileRows()),
                         test::RowName{});

/// Every external tensor has its own aligned range and the data file is
/// exactly as long as they need (padded to the 64-byte alignment).
TEST_P(ValidFileRows, externalDataSize) {
    std::string model = GetParam().model;
    std::vector<ExternalRange> ranges = externalRanges(modelOf(model));
    ASSERT_TRUE(!ranges.empty());
    std::sort(ranges.begin(), ranges.end(),
              [](const ExternalRange& a, const ExternalRange& b) { return a.offset < b.offset; });
    int64_t end = 0;
    for (const ExternalRange& range : ranges) {
        ASSERT_EQ(range.location, model + std::string(".weights"));
        ASSERT_EQ(range.length, range.expectedLength);
        ASSERT_TRUE(range.offset >= end) << range.name.c_str();
        ASSERT_EQ(range.offset % 64, int64_t(0));
        end = range.offset + range.length;
    }
    auto fileSize = static_cast<int64_t>(
        std::filesystem::file_size(pathOf(model).parent_path() / (model + ".weights")));
    ASSERT_TRUE(fileSize >= end);
    ASSERT_TRUE(fileSize < end + 64);
}

struct OpCountsRow {
    std::string rowLabel;
    std::string model;
    std::string op;
    int count;
};

std::vector<OpCountsRow> opCountsRows() {
    std::vector<OpCountsRow> rows;
    struct Row {
        const char* model;
        const char* op;
        int count;
    };
    const Row table[] = {
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
    for (const Row& row : table)
        rows.push_back({test::rowName("%s %s", row.model, row.op), std::string(row.model),
                        std::string(row.op), row.count});
    return rows;
}

class OpCountsRows : public TestZooModels, public ::testing::WithParamInterface<OpCountsRow> {};

TEST_P(OpCountsRows, opCounts) {
    std::string model = GetParam().model;
    std::string op = GetParam().op;
    int count = GetParam().count;
    ASSERT_EQ(opHistogram(modelOf(model))[op], count);
}

INSTANTIATE_TEST_SUITE_P(TestZooModels, OpCountsRows, ::testing::ValuesIn(opCountsRows()),
                         test::RowName{});

TEST_F(TestZooModels, figureNodes) {
    onnx::ModelProto chain = modelOf(std::string("fig3-chain"));
    std::vector<std::string> names;
    for (const auto& node : chain.graph().node())
        names.push_back(node.name());
    std::vector<std::string> expected;
    for (int k = 1; k <= 4; ++k)
        for (const char* part : {"conv1", "relu1", "conv2", "relu2"})
            expected.push_back("stage" + std::to_string(k) + "." + part);
    ASSERT_EQ(names, expected);

    onnx::ModelProto blocks = modelOf(std::string("fig2-blocks"));
    ASSERT_EQ(blocks.graph().node_size(), 7 + 7 + 6 + 2); // Conv, BN, Relu, Add
    for (const auto& node : blocks.graph().node()) {
        std::string name = node.name();
        ASSERT_TRUE(name.starts_with(std::string("conv_block.")) ||
                    name.starts_with(std::string("identity_block.")))
            << (name);
    }
}

struct InitializerNamesRow {
    std::string rowLabel;
    std::string model;
    std::string name;
    std::string dims;
};

std::vector<InitializerNamesRow> initializerNamesRows() {
    std::vector<InitializerNamesRow> rows;
    struct Row {
        const char* model;
        const char* name;
        const char* dims;
    };
    const Row table[] = {
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
        {"vit-b16", "encoder.layers.encoder_layer_11.self_attention.in_proj_weight", "768x2304"},
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
    for (const Row& row : table)
        rows.push_back({test::rowName("%s %s", row.model, row.name), std::string(row.model),
                        std::string(row.name), std::string(row.dims)});
    return rows;
}

class InitializerNamesRows : public TestZooModels,
                             public ::testing::WithParamInterface<InitializerNamesRow> {};

TEST_P(InitializerNamesRows, initializerNames) {
    std::string model = GetParam().model;
    std::string name = GetParam().name;
    std::string dims = GetParam().dims;
    onnx::ModelProto proto = modelOf(model);
    const auto& all = proto.graph().initializer();
    auto found = std::find_if(all.begin(), all.end(),
                              [&](const onnx::TensorProto& t) { return t.name() == name; });
    ASSERT_TRUE(found != all.end()) << (name);
    ASSERT_EQ(dimsText(*found), dims);
}

INSTANTIATE_TEST_SUITE_P(TestZooModels, InitializerNamesRows,
                         ::testing::ValuesIn(initializerNamesRows()), test::RowName{});

struct NodeAttributesRow {
    std::string rowLabel;
    std::string model;
    std::string node;
    std::string attribute;
    std::string values;
};

std::vector<NodeAttributesRow> nodeAttributesRows() {
    std::vector<NodeAttributesRow> rows;
    auto row = [&rows](const char* model, const char* node, const char* attr, const char* values) {
        rows.push_back({test::rowName("%s %s %s", model, node, attr), std::string(model),
                        std::string(node), std::string(attr), std::string(values)});
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
    return rows;
}

class NodeAttributesRows : public TestZooModels,
                           public ::testing::WithParamInterface<NodeAttributesRow> {};

TEST_P(NodeAttributesRows, nodeAttributes) {
    std::string model = GetParam().model;
    std::string node = GetParam().node;
    std::string attribute = GetParam().attribute;
    std::string values = GetParam().values;
    onnx::ModelProto proto = modelOf(model);
    std::string actual = std::string("<missing>");
    for (const auto& n : proto.graph().node()) {
        if (n.name() != node)
            continue;
        for (const auto& attr : n.attribute()) {
            if (attr.name() != attribute)
                continue;
            std::vector<std::string> parts;
            if (attr.type() == onnx::AttributeProto::INT)
                parts.push_back(std::to_string(attr.i()));
            for (int64_t v : attr.ints())
                parts.push_back(std::to_string(v));
            actual.clear();
            for (size_t i = 0; i < parts.size(); ++i) {
                if (i > 0)
                    actual += ',';
                actual += parts[i];
            }
        }
    }
    ASSERT_EQ(actual, values);
}

INSTANTIATE_TEST_SUITE_P(TestZooModels, NodeAttributesRows,
                         ::testing::ValuesIn(nodeAttributesRows()), test::RowName{});

TEST_F(TestZooModels, dlrmDocString) {
    onnx::ModelProto proto = modelOf(std::string("dlrm"));
    std::string doc = proto.doc_string();
    ASSERT_TRUE(test::containsText(doc, std::string("capped at 1000000 rows"))) << (doc);
}
