// The zoo's options: --batch/--seq reach the declared shapes and ONNX shape
// inference derives the same output shapes; writing twice gives the same
// bytes; bad options give one-line errors naming the option.

#include "coretestsupport.h"
#include "onnx_reading.h"
#include "support/file.h"
#include "support/sha256.h"
#include "zoo/zoo.h"

#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string_view>

using namespace stagecraft;
using namespace stagecraft::test;
using onnxio::WeightFill;

namespace {

/// The file's SHA-256 (hex); empty when it cannot be read.
std::string fileHash(const std::filesystem::path& path) {
    Expected<std::string> bytes = readFile(path);
    if (!bytes.ok())
        return {};
    return sha256Hex(std::string_view(*bytes));
}

/// \p parts joined with \p separator (QStringList::join).
std::string joined(const std::vector<std::string>& parts, char separator) {
    std::string text;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            text += separator;
        text += parts[i];
    }
    return text;
}

/// Conformer frames after two 3x3 stride-2 convs without padding.
int64_t conformerFrames(int64_t t) {
    return ((t - 3) / 2 + 1 - 3) / 2 + 1;
}

} // namespace

struct ShapesRow {
    std::string rowLabel;
    std::string model;
    int64_t batch;
    int64_t seq;
    std::string inputs;
    std::string outputs;
};

std::vector<ShapesRow> shapesRows() {
    std::vector<ShapesRow> rows;
    auto row = [&rows](const char* model, int64_t batch, int64_t seq, const std::string& inputs,
                       const std::string& outputs) {
        rows.push_back({test::rowName("%s b%lld s%lld", model, static_cast<long long>(batch),
                                      static_cast<long long>(seq)),
                        std::string(model), batch, seq, inputs, outputs});
    };
    row("resnet50", 0, 0, std::string("1x3x224x224"), std::string("1x1000"));
    row("resnet50", 4, 0, std::string("4x3x224x224"), std::string("4x1000"));
    row("bert-base", 0, 0, std::string("1x128;1x128;1x128"), std::string("1x128x768;1x768"));
    row("bert-base", 2, 384, std::string("2x384;2x384;2x384"), std::string("2x384x768;2x768"));
    row("bert-large", 1, 64, std::string("1x64;1x64;1x64"), std::string("1x64x1024;1x1024"));
    row("dlrm", 0, 0, std::string("1x13;1x26"), std::string("1x1"));
    row("dlrm", 1024, 0, std::string("1024x13;1024x26"), std::string("1024x1"));
    row("mobilenet-v2", 3, 0, std::string("3x3x224x224"), std::string("3x1000"));
    row("vit-b16", 2, 0, std::string("2x3x224x224"), std::string("2x1000"));
    row("densenet121", 2, 0, std::string("2x3x224x224"), std::string("2x1000"));
    row("conformer", 0, 0, std::string("1x1000x80"),
        "1x" + std::to_string(conformerFrames(1000)) + "x144");
    row("conformer", 12, 400, std::string("12x400x80"),
        "12x" + std::to_string(conformerFrames(400)) + "x144");
    row("fig3-chain", 0, 0, std::string("8x8x32x32"), std::string("8x128x2x2"));
    row("fig3-chain", 1, 0, std::string("1x8x32x32"), std::string("1x128x2x2"));
    row("fig2-blocks", 0, 0, std::string("8x8x8x8"), std::string("8x16x8x8"));
    return rows;
}

class ShapesRows : public ::testing::TestWithParam<ShapesRow> {};

TEST_P(ShapesRows, shapes) {
    std::string model = GetParam().model;
    int64_t batch = GetParam().batch;
    int64_t seq = GetParam().seq;
    std::string inputs = GetParam().inputs;
    std::string outputs = GetParam().outputs;
    test::TempDir dir;
    std::filesystem::path path = dir.filePath(std::string("m.onnx"));
    zoo::ZooOptions options;
    options.batch = batch;
    options.seq = seq;
    auto written = zoo::writeZooModel(model, options, path);
    ASSERT_TRUE(written.ok()) << (written.ok() ? "" : written.error().message().c_str());

    onnx::ModelProto proto = loadModel(path);
    std::vector<std::string> declared;
    for (const auto& input : proto.graph().input())
        declared.push_back(dimsText(input.type().tensor_type().shape()));
    ASSERT_EQ(joined(declared, ';'), inputs);

    // Forget the declared output shapes, infer them, compare.
    for (auto& output : *proto.mutable_graph()->mutable_output())
        output.mutable_type()->mutable_tensor_type()->clear_shape();
    try {
        onnx::shape_inference::InferShapes(proto, onnx::OpSchemaRegistry::Instance(),
                                           onnx::ShapeInferenceOptions(true, 1, false));
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
    std::vector<std::string> inferred;
    for (const auto& output : proto.graph().output())
        inferred.push_back(dimsText(output.type().tensor_type().shape()));
    ASSERT_EQ(joined(inferred, ';'), outputs);
}

INSTANTIATE_TEST_SUITE_P(TestZooOptions, ShapesRows, ::testing::ValuesIn(shapesRows()),
                         test::RowName{});

struct DeterministicRow {
    std::string rowLabel;
    std::string model;
    WeightFill fill;
};

std::vector<DeterministicRow> deterministicRows() {
    std::vector<DeterministicRow> rows;
    for (const zoo::ZooModelInfo& info : zoo::zooModels())
        rows.push_back(
            {test::rowName("%s zeros", info.name.c_str()), info.name, WeightFill::Zeros});
    // Seeded weights are compared byte by byte: the smaller models only.
    for (const char* model : {"fig3-chain", "fig2-blocks", "mobilenet-v2"})
        rows.push_back({test::rowName("%s seeded", model), std::string(model), WeightFill::Seeded});
    return rows;
}

class DeterministicRows : public ::testing::TestWithParam<DeterministicRow> {};

TEST_P(DeterministicRows, deterministic) {
    std::string model = GetParam().model;
    WeightFill fill = GetParam().fill;
    test::TempDir first;
    test::TempDir second;
    zoo::ZooOptions options;
    options.weights = fill;
    std::filesystem::path a = first.filePath(std::string("m.onnx"));
    std::filesystem::path b = second.filePath(std::string("m.onnx"));
    ASSERT_TRUE(zoo::writeZooModel(model, options, a).ok());
    ASSERT_TRUE(zoo::writeZooModel(model, options, b).ok());
    std::string hash = fileHash(a);
    ASSERT_TRUE(!hash.empty());
    ASSERT_EQ(fileHash(b), hash);
    std::filesystem::path weightsA = a.parent_path() / "m.weights";
    std::filesystem::path weightsB = b.parent_path() / "m.weights";
    ASSERT_EQ(std::filesystem::file_size(weightsB), std::filesystem::file_size(weightsA));
    if (fill == WeightFill::Seeded) {
        ASSERT_EQ(fileHash(weightsB), fileHash(weightsA));
    }
}

INSTANTIATE_TEST_SUITE_P(TestZooOptions, DeterministicRows,
                         ::testing::ValuesIn(deterministicRows()), test::RowName{});

TEST(TestZooOptions, seededDiffersFromZeros) {
    test::TempDir dir;
    std::filesystem::path zeros = dir.filePath(std::string("zeros.onnx"));
    std::filesystem::path seeded = dir.filePath(std::string("seeded.onnx"));
    zoo::ZooOptions options;
    ASSERT_TRUE(zoo::writeZooModel("fig3-chain", options, zeros).ok());
    options.weights = WeightFill::Seeded;
    ASSERT_TRUE(zoo::writeZooModel("fig3-chain", options, seeded).ok());
    ASSERT_EQ(std::filesystem::file_size(dir.filePath(std::string("seeded.weights"))),
              std::filesystem::file_size(dir.filePath(std::string("zeros.weights"))));
    ASSERT_TRUE(fileHash(dir.filePath(std::string("seeded.weights"))) !=
                fileHash(dir.filePath(std::string("zeros.weights"))));
}

struct ErrorsRow {
    std::string rowLabel;
    std::string model;
    int64_t batch;
    int64_t seq;
    std::string file;
    std::string start;
    std::string contains;
};

std::vector<ErrorsRow> errorsRows() {
    std::vector<ErrorsRow> rows;
    auto onnx = std::string("m.onnx");
    rows.push_back({"unknown model", std::string("resnet51"), int64_t(0), int64_t(0), onnx,
                    std::string("unknown model 'resnet51'"),
                    std::string("resnet50, bert-base, bert-large")});
    rows.push_back({"negative batch", std::string("resnet50"), int64_t(-2), int64_t(0), onnx,
                    std::string("batch"), std::string("-2")});
    rows.push_back({"huge batch", std::string("dlrm"), int64_t(1 << 20), int64_t(0), onnx,
                    std::string("batch"), std::string("dlrm")});
    rows.push_back({"seq without sequence", std::string("resnet50"), int64_t(0), int64_t(128), onnx,
                    std::string("seq"), std::string("resnet50")});
    rows.push_back({"bert seq too long", std::string("bert-base"), int64_t(0), int64_t(513), onnx,
                    std::string("seq"), std::string("1..512")});
    rows.push_back({"conformer too short", std::string("conformer"), int64_t(0), int64_t(6), onnx,
                    std::string("seq"), std::string("7..")});
    rows.push_back({"weights extension", std::string("fig3-chain"), int64_t(0), int64_t(0),
                    std::string("m.weights"), std::string("'"), std::string("weights")});
    rows.push_back({"missing directory", std::string("fig3-chain"), int64_t(0), int64_t(0),
                    std::string("no/such/m.onnx"), std::string(""), std::string("no/such")});
    return rows;
}

class ErrorsRows : public ::testing::TestWithParam<ErrorsRow> {};

TEST_P(ErrorsRows, errors) {
    std::string model = GetParam().model;
    int64_t batch = GetParam().batch;
    int64_t seq = GetParam().seq;
    std::string file = GetParam().file;
    std::string start = GetParam().start;
    std::string contains = GetParam().contains;
    test::TempDir dir;
    zoo::ZooOptions options;
    options.batch = batch;
    options.seq = seq;
    auto written = zoo::writeZooModel(model, options, dir.filePath(file));
    ASSERT_TRUE(!written.ok());
    std::string message = written.error().message();
    ASSERT_TRUE(message.starts_with(start)) << (message);
    ASSERT_TRUE(test::containsText(message, contains)) << (message);
    ASSERT_TRUE(!test::containsText(message, '\n')) << (message);
    ASSERT_TRUE(!message.ends_with('.')) << (message);
    ASSERT_TRUE(!std::filesystem::exists(dir.filePath(std::string("m.onnx"))));
}

INSTANTIATE_TEST_SUITE_P(TestZooOptions, ErrorsRows, ::testing::ValuesIn(errorsRows()),
                         test::RowName{});

// zoo::cachedZooModel writes a model once into the cache's zoo/ (its weights
// and their SHA-256 beside it, no staging directory left, the folders 0700)
// and finds it there the next time (cachedZooName names it back); a file
// replaced or truncated since is written again, never trusted; an unknown
// name is an error listing the zoo and writes nothing.
TEST(TestZooOptions, cachedModelsAreWrittenOnce) {
    TempDir dir;
    ASSERT_TRUE(dir.isValid());
    const char* previous = std::getenv("STAGECRAFT_CACHE_DIR");
    std::string saved = previous != nullptr ? previous : "";
    setenv("STAGECRAFT_CACHE_DIR", dir.path().c_str(), 1);
    auto first = zoo::cachedZooModel("fig2-blocks", 0, 0);
    ASSERT_TRUE(first.ok()) << first.error().message();
    std::filesystem::path zooDir = dir.path() / "zoo";
    EXPECT_EQ(*first, zooDir / "fig2-blocks-seq0-b0.v2.onnx");
    // Studio names a cached model as the zoo does, for the profiles of it.
    EXPECT_EQ(zoo::cachedZooName(*first), "fig2-blocks");
    EXPECT_EQ(zoo::cachedZooName(zooDir / "nosuch-seq0-b0.v2.onnx"), std::nullopt);
    EXPECT_EQ(zoo::cachedZooName(dir.path() / "fig2-blocks-seq0-b0.v2.onnx"), std::nullopt);
    EXPECT_EQ(std::filesystem::status(zooDir).permissions(), std::filesystem::perms::owner_all);
    std::string hash = fileHash(*first);
    auto written = std::filesystem::last_write_time(*first);
    auto again = zoo::cachedZooModel("fig2-blocks", 0, 0);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *first);
    EXPECT_EQ(std::filesystem::last_write_time(*again), written) << "not written again";
    EXPECT_EQ(fileHash(*again), hash);
    std::filesystem::path weights = zooDir / "fig2-blocks-seq0-b0.v2.weights";
    std::filesystem::resize_file(weights, std::filesystem::file_size(weights) / 2);
    auto truncated = zoo::cachedZooModel("fig2-blocks", 0, 0);
    ASSERT_TRUE(truncated.ok()) << truncated.error().message();
    EXPECT_EQ(fileHash(*truncated), hash);
    EXPECT_NE(std::filesystem::last_write_time(weights), written) << "written again";
    {
        std::ofstream other(*first, std::ios::binary | std::ios::trunc);
        other << "another model";
    }
    auto replaced = zoo::cachedZooModel("fig2-blocks", 0, 0);
    ASSERT_TRUE(replaced.ok());
    EXPECT_EQ(fileHash(*replaced), hash) << "a replaced model is not trusted";
    auto unknown = zoo::cachedZooModel("nosuch", 0, 0);
    ASSERT_FALSE(unknown.ok());
    EXPECT_TRUE(containsText(unknown.error().message(), "resnet50")) << unknown.error().message();
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(zooDir))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(joined(names, ' '), "fig2-blocks-seq0-b0.v2.onnx fig2-blocks-seq0-b0.v2.sha256 "
                                  "fig2-blocks-seq0-b0.v2.weights");
    if (previous != nullptr)
        setenv("STAGECRAFT_CACHE_DIR", saved.c_str(), 1);
    else
        unsetenv("STAGECRAFT_CACHE_DIR");
}
