// stagecraft inspect through the real binary: reports, JSON keys, exit codes,
// and bad input (each a one-line error naming the problem, exit 1, no crash;
// the test command runs this under AddressSanitizer and UBSan).

#include "onnx/model_builder.h"
#include "testsupport.h"
#include "zoo/zoo.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace stagecraft;
using stagecraft::test::runCli;

namespace {

QString str(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

void expectOneLineError(const test::CliResult& r, int exitCode, const QStringList& parts) {
    QCOMPARE(r.exitCode, exitCode);
    QString err = r.err.trimmed();
    QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err));
    QVERIFY2(err.startsWith(QStringLiteral("stagecraft inspect: ")), qPrintable(err));
    QVERIFY2(!err.contains(QStringLiteral("AddressSanitizer")) &&
                 !err.contains(QStringLiteral("runtime error")),
             qPrintable(err));
    for (const QString& part : parts)
        QVERIFY2(err.contains(part),
                 qPrintable(err + QStringLiteral("  [missing: ") + part + QStringLiteral("]")));
}

} // namespace

class TestCliInspect : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    std::filesystem::path file(const char* name) const {
        return std::filesystem::path(dir.path().toStdString()) / name;
    }

    std::filesystem::path zooModel(const std::string& name) {
        auto path = file((name + ".onnx").c_str());
        if (!std::filesystem::exists(path)) {
            auto status = zoo::writeZooModel(name, {}, path);
            if (!status.ok())
                qFatal("%s", status.error().message().c_str());
        }
        return path;
    }

    std::filesystem::path writeText(const char* name, const std::string& text) {
        auto path = file(name);
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }

private slots:
    void textReport() {
        auto r = runCli({QStringLiteral("inspect"), str(zooModel("fig3-chain"))});
        QCOMPARE(r.exitCode, 0);
        for (const char* part :
             {"ops          16", "MACs", "FLOPs", "params", "input        input  f32 8x8x32x32",
              "opaque ops   none", "arch         stcp920: 16 ops on compute units", "Conv"})
            QVERIFY2(r.out.contains(QLatin1String(part)), qPrintable(r.out));
    }

    /// zoo:NAME reads as everywhere else: the same report as the written file.
    void zooNameReadsLikeTheFile() {
        auto byName = runCli({QStringLiteral("inspect"), QStringLiteral("zoo:fig3-chain")});
        QVERIFY2(byName.exitCode == 0, qPrintable(byName.err));
        auto byFile = runCli({QStringLiteral("inspect"), str(zooModel("fig3-chain"))});
        QCOMPARE(byName.out.section(QLatin1Char('\n'), 2),
                 byFile.out.section(QLatin1Char('\n'), 2));
        QVERIFY(byName.out.startsWith(QStringLiteral("model        zoo:fig3-chain")));
        auto unknown = runCli({QStringLiteral("inspect"), QStringLiteral("zoo:nope")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.startsWith(QStringLiteral("stagecraft inspect: zoo:nope: ")),
                 qPrintable(unknown.err));
    }

    void jsonReportHasTheDocumentedKeys() {
        auto r = runCli(
            {QStringLiteral("inspect"), str(zooModel("fig3-chain")), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        for (const char* key : {"ops", "tensors", "params", "macs", "flops", "op_types", "opaque",
                                "inputs", "outputs"})
            QVERIFY2(doc.contains(QLatin1String(key)), key);
        QCOMPARE(doc.value(QStringLiteral("ops")).toInt(), 16);
        QCOMPARE(
            doc.value(QStringLiteral("op_types")).toObject().value(QStringLiteral("Conv")).toInt(),
            8);
        QCOMPARE(doc.value(QStringLiteral("opaque")).toArray().size(), 0);
        QJsonArray shape = doc.value(QStringLiteral("outputs"))
                               .toArray()
                               .at(0)
                               .toObject()
                               .value(QStringLiteral("shape"))
                               .toArray();
        QCOMPARE(shape, (QJsonArray{8, 128, 2, 2}));
        // Stage-1 conv1: 8 x 16 x 16 x 16 outputs, each 8 x 3 x 3 MACs.
        QVERIFY(doc.value(QStringLiteral("macs")).toInteger() > 8LL * 16 * 16 * 16 * 72);
    }

    void opsListingShowsLoopNests() {
        auto r = runCli(
            {QStringLiteral("inspect"), str(zooModel("fig3-chain")), QStringLiteral("--ops")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("stage1.conv1")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("2*oh + kh - 1")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("| ci=8 kh=3 kw=3")), qPrintable(r.out));
    }

    void outputIsDeterministic() {
        auto a = runCli({QStringLiteral("inspect"), str(zooModel("fig2-blocks")),
                         QStringLiteral("--json"), QStringLiteral("--ops")});
        auto b = runCli({QStringLiteral("inspect"), str(zooModel("fig2-blocks")),
                         QStringLiteral("--json"), QStringLiteral("--ops")});
        QCOMPARE(a.exitCode, 0);
        QCOMPARE(a.out, b.out);
    }

    void usageErrors() {
        QCOMPARE(runCli({QStringLiteral("inspect")}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("inspect"), str(zooModel("fig3-chain")),
                         QStringLiteral("--frobnicate")})
                     .exitCode,
                 2);
        QCOMPARE(runCli({QStringLiteral("inspect"), str(zooModel("fig3-chain")),
                         QStringLiteral("--dim"), QStringLiteral("batch")})
                     .exitCode,
                 2);
        auto help = runCli({QStringLiteral("inspect"), QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(QStringLiteral("--input NAME:SHAPE")));
        QCOMPARE(runCli({QStringLiteral("frobnicate")}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("--help")}).exitCode, 0);
    }

    void notAnOnnxFile() {
        auto path = writeText("readme.onnx", "# not a model\n");
        expectOneLineError(runCli({QStringLiteral("inspect"), str(path)}), 1,
                           {str(path), QStringLiteral("not an ONNX model")});
    }

    void truncatedFile() {
        std::ifstream in(zooModel("fig2-blocks"), std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        auto path = writeText("truncated.onnx", bytes.substr(0, bytes.size() / 2));
        std::filesystem::copy_file(file("fig2-blocks.weights"), file("truncated.weights"));
        expectOneLineError(runCli({QStringLiteral("inspect"), str(path)}), 1,
                           {QStringLiteral("truncated.onnx"), QStringLiteral("truncated")});
    }

    void missingExternalData() {
        auto model = zooModel("fig3-chain");
        std::filesystem::copy_file(model, file("orphan.onnx"));
        // The copy still points at fig3-chain.weights: rename that away.
        std::filesystem::rename(file("fig3-chain.weights"), file("moved.weights"));
        expectOneLineError(runCli({QStringLiteral("inspect"), str(file("orphan.onnx"))}), 1,
                           {QStringLiteral("orphan.onnx"),
                            QStringLiteral("external data file 'fig3-chain.weights' is missing")});
        std::filesystem::rename(file("moved.weights"), file("fig3-chain.weights"));
    }

    void graphWithCycle() {
        onnxio::ModelBuilder m("cycle", 13);
        m.addInput("x", ir::DType::Float32, {2});
        m.addNode("Add", {"x", "b"}, {"a"}, "add");
        m.addNode("Relu", {"a"}, {"b"}, "relu");
        m.addOutput("b", ir::DType::Float32, {2});
        QVERIFY(m.save(file("cycle.onnx")).ok());
        expectOneLineError(runCli({QStringLiteral("inspect"), str(file("cycle.onnx"))}), 1,
                           {QStringLiteral("cycle"), QStringLiteral("'add' (Add)"),
                            QStringLiteral("'relu' (Relu)")});
    }

    void unboundDynamicDimension() {
        onnxio::ModelBuilder m("dyn", 13);
        m.addInput("x", ir::DType::Float32, {std::string("batch"), int64_t{3}});
        m.addNode("Relu", {"x"}, {"y"});
        m.addOutput("y", ir::DType::Float32, {}, false);
        QVERIFY(m.save(file("dyn.onnx")).ok());
        expectOneLineError(runCli({QStringLiteral("inspect"), str(file("dyn.onnx"))}), 1,
                           {QStringLiteral("'batch'"), QStringLiteral("--dim batch=N"),
                            QStringLiteral("--input x:Nx3")});
        auto bound = runCli({QStringLiteral("inspect"), str(file("dyn.onnx")),
                             QStringLiteral("--dim"), QStringLiteral("batch=4")});
        QCOMPARE(bound.exitCode, 0);
        QVERIFY(bound.out.contains(QStringLiteral("input        x  f32 4x3")));
    }

    void badArchitectureFiles_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("field");
        std::string base =
            R"({"format":"stagecraft-arch","version":1,"name":"x","clock_ghz":1,"clusters":CLUSTERS,
          "cluster":{"core_groups":[{"name":"c","count":1,"local_buffer":{"name":"LB","bytes":LB},
          "units":[{"name":"u","kind":"vector","categories":["elementwise"],"ops_per_cycle":{"f32":1}}]}],
          "global_buffer":{"name":"GB","bytes":1024}},"ddr":{"name":"DDR","bytes":4096},
          "paths":[{"from":"DDR","to":"GB","bandwidth_gbps":1,"latency_ns":1},{"from":"GB","to":"LB","bandwidth_gbps":1,"latency_ns":1}],
          "overheads":{"kernel_launch_ns":1,"sync_ns":1}})";
        auto with = [&](const std::string& clusters, const std::string& lb) {
            std::string text = base;
            text.replace(text.find("CLUSTERS"), 8, clusters);
            text.replace(text.find("LB}"), 2, lb);
            return QString::fromStdString(text);
        };
        QTest::newRow("negative bytes")
            << with("1", "-64") << QStringLiteral("cluster.core_groups[0].local_buffer.bytes");
        QTest::newRow("missing clusters")
            << with("1", "64").replace(QStringLiteral("\"clusters\":1,"), QString())
            << QStringLiteral("clusters: missing");
    }
    void badArchitectureFiles() {
        QFETCH(QString, json);
        QFETCH(QString, field);
        auto arch = writeText("arch.json", json.toStdString());
        expectOneLineError(runCli({QStringLiteral("inspect"), str(zooModel("fig3-chain")),
                                   QStringLiteral("--arch"), str(arch)}),
                           1, {QStringLiteral("arch.json"), field});
    }

    void valueFoldsAnIfOnAScalarInput() {
        // Silero VAD's whole network is an If on its sample-rate input.
        auto path = test::fetchedModel("audio/silero_vad.onnx");
        if (path.empty())
            return;
        QStringList base{QStringLiteral("inspect"), str(path),
                         QStringLiteral("--dim"),   QStringLiteral("batch=1"),
                         QStringLiteral("--dim"),   QStringLiteral("sequence=512")};
        auto opaque = runCli(base);
        QCOMPARE(opaque.exitCode, 0);
        QVERIFY(opaque.out.contains(QStringLiteral("opaque ops   If_25 (If)")));
        QVERIFY(opaque.err.contains(QStringLiteral("give --value sr=V to compile in one branch")));
        auto folded =
            runCli(base + QStringList{QStringLiteral("--value"), QStringLiteral("sr=16000"),
                                      QStringLiteral("--json")});
        QCOMPARE(folded.exitCode, 0);
        QJsonObject doc = QJsonDocument::fromJson(folded.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("opaque")).toArray().size(), 0); // LSTMs unrolled
        QVERIFY(doc.value(QStringLiteral("macs")).toInteger() > 0);
        QVERIFY(folded.err.contains(QStringLiteral("only its then branch is compiled in")));
        expectOneLineError(
            runCli(base + QStringList{QStringLiteral("--value"), QStringLiteral("sr=16k")}), 1,
            {QStringLiteral("--value sr=16k"),
             QStringLiteral("'16k' is not an integer (input 'sr' is i64)")});
        expectOneLineError(
            runCli(base + QStringList{QStringLiteral("--value"), QStringLiteral("rate=16000")}), 1,
            {QStringLiteral("--value names 'rate', which is not an input")});
        expectOneLineError(
            runCli(base + QStringList{QStringLiteral("--value"), QStringLiteral("sr")}), 2,
            {QStringLiteral("bad --value 'sr'")});
    }

    void realModelWithBoundInput() {
        auto path = test::fetchedModel("ppocr/ch_PP-OCRv4_det_infer.onnx");
        if (path.empty())
            return;
        auto r = runCli({QStringLiteral("inspect"), str(path), QStringLiteral("--input"),
                         QStringLiteral("x:1x3x320x320"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("opaque")).toArray().size(), 0);
        QVERIFY(doc.value(QStringLiteral("macs")).toInteger() > 0);
        QCOMPARE(doc.value(QStringLiteral("outputs"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("shape"))
                     .toArray(),
                 (QJsonArray{1, 1, 320, 320}));
    }
};

QTEST_GUILESS_MAIN(TestCliInspect)
#include "test_cli_inspect.moc"
