// The declared graph inputs of a model file (the studio's dimension dialog):
// fixed, symbolic and unknown dims as the file declares them, initializers
// listed as inputs left out, bad files refused naming the file.

#include "import_helpers.h"
#include "onnx/declared_inputs.h"
#include "support/strings.h"
#include "testsupport.h"
#include "zoo/zoo.h"

#include <fstream>

using namespace stagecraft;
using namespace stagecraft::onnxio;
using ir::DType;

namespace {

DeclaredDim fixed(int64_t value) {
    return {value, ""};
}
DeclaredDim named(const std::string& param) {
    return {std::nullopt, param};
}
DeclaredDim unknown() {
    return {};
}

/// Two inputs sharing the symbolic dim "batch", an unknown dim (an empty
/// dim_param, as some exporters write), and a weight that older exporters
/// list among the graph inputs.
ModelBuilder dynamicModel() {
    ModelBuilder m("dynamic", 13);
    m.addInput("x", DType::Float32, {std::string("batch"), int64_t{3}, std::string(), int64_t{8}});
    m.addInput("mask", DType::Int64, {std::string("batch"), std::string("seq")});
    m.addInput("w", DType::Float32, {int64_t{3}});
    m.addFloatInitializer("w", {3}, {1, 2, 3});
    m.addNode("Relu", {"x"}, {"y"});
    m.addOutput("y", DType::Float32, {}, false);
    return m;
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

class TestDeclaredInputs : public QObject {
    Q_OBJECT
    test::ImportFixture fixture;

private slots:
    void zooModelIsStatic() {
        auto written = zoo::writeZooModel("fig3-chain", {.batch = 2}, fixture.path("fig3.onnx"));
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message().c_str());
        auto inputs = declaredInputs(written->modelPath);
        QVERIFY2(inputs.ok(), inputs.ok() ? "" : inputs.error().message().c_str());
        QCOMPARE(inputs->size(), size_t(1));
        const DeclaredInput& input = inputs->front();
        QCOMPARE(qs(input.name), QStringLiteral("input"));
        QCOMPARE(qs(input.dtype), QStringLiteral("f32"));
        QVERIFY(input.hasShape);
        QVERIFY((input.dims == std::vector{fixed(2), fixed(8), fixed(32), fixed(32)}));
        QVERIFY(!needsBinding(*inputs));
    }

    void symbolicAndUnknownDims() {
        auto file = fixture.path("dynamic.onnx");
        QVERIFY(dynamicModel().save(file).ok());
        auto inputs = declaredInputs(file);
        QVERIFY2(inputs.ok(), inputs.ok() ? "" : inputs.error().message().c_str());
        QCOMPARE(inputs->size(), size_t(2));
        const DeclaredInput& x = (*inputs)[0];
        QCOMPARE(qs(x.name), QStringLiteral("x"));
        QVERIFY((x.dims == std::vector{named("batch"), fixed(3), unknown(), fixed(8)}));
        QVERIFY(x.dims[0].symbolic() && x.dims[2].unknown() && x.dims[1].fixed());
        const DeclaredInput& mask = (*inputs)[1];
        QCOMPARE(qs(mask.dtype), QStringLiteral("i64"));
        QVERIFY((mask.dims == std::vector{named("batch"), named("seq")}));
        QVERIFY(needsBinding(*inputs));
    }

    // A real exporter's symbolic dims (PaddleOCR via paddle2onnx).
    void fetchedModelDims() {
        auto path = test::fetchedModel("ppocr/ch_PP-OCRv4_rec_infer.onnx");
        if (path.empty())
            return;
        auto inputs = declaredInputs(path);
        QVERIFY2(inputs.ok(), inputs.ok() ? "" : inputs.error().message().c_str());
        QCOMPARE(inputs->size(), size_t(1));
        const DeclaredInput& x = inputs->front();
        QCOMPARE(qs(x.name), QStringLiteral("x"));
        QCOMPARE(x.dims.size(), size_t(4));
        QCOMPARE(qs(x.dims[0].param), QStringLiteral("p2o.DynamicDimension.0"));
        QVERIFY((x.dims[1] == fixed(3) && x.dims[2] == fixed(48)));
        QVERIFY(x.dims[3].symbolic());
        QVERIFY(needsBinding(*inputs));
    }

    void errorsNameTheFile() {
        auto garbage = fixture.path("notes.onnx");
        std::ofstream(garbage, std::ios::binary) << "\xff\xff not a model";
        auto empty = fixture.path("empty.onnx");
        std::ofstream(empty, std::ios::binary).flush();
        const std::pair<std::filesystem::path, std::string> cases[] = {
            {garbage, ": cannot parse the ONNX protobuf (not an ONNX model, or truncated)"},
            {empty, ": empty file, not an ONNX model"},
            {fixture.path("absent.onnx"), ": cannot open: No such file or directory"},
            {fixture.path("dir"), ": is a directory, not a regular file"},
        };
        std::filesystem::create_directory(fixture.path("dir"));
        for (const auto& [path, message] : cases) {
            auto inputs = declaredInputs(path);
            QVERIFY(!inputs.ok());
            QCOMPARE(qs(inputs.error().message()), qs(path.string() + message));
        }
    }
};

QTEST_GUILESS_MAIN(TestDeclaredInputs)
#include "test_declared_inputs.moc"
