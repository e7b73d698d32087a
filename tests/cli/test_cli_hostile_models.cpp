// Hardening, model and document content: JSON nested 100,000 deep, tensor
// headers that claim billions of elements, shapes beyond 1 TiB, splits into
// more instances than memory allows, architecture numbers that describe no
// machine, cycles, inputs that cannot be seeded, names with terminal escapes.
// Each gets one clear line and exit 1, never a crash, a hang or a gigabyte
// allocation. Each case is a finding of the hardening issue and failed
// before its fix.

#include "hostile.h"
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace stagecraft;
using stagecraft::test::q;
using stagecraft::test::runCli;
using stagecraft::test::s;

namespace {

bool refused(const test::CliResult& r, const QString& part) {
    if (r.exitCode == 1 && r.err.count(QLatin1Char('\n')) == 1 && r.err.contains(part))
        return true;
    qWarning().noquote() << "exit" << r.exitCode << "stderr:" << r.err;
    return false;
}

/// Sets an environment variable for the CLI runs of one test.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value)
        : name_(name) {
        qputenv(name, value);
    }
    ~ScopedEnv() { qunsetenv(name_); }

private:
    const char* name_;
};

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    auto at = text.find(from);
    if (at == std::string::npos)
        qFatal("'%s' not found", from.c_str());
    return text.replace(at, from.size(), to);
}

} // namespace

class TestCliHostileModels : public QObject, private test::SuiteFiles {
    Q_OBJECT
    QString fig3_;
    std::string teaching_;

    QString save(const std::string& name, const onnx::ModelProto& model) {
        test::writeProto(path(name), model);
        return q(path(name));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        fig3_ = q(path("fig3.onnx"));
        QVERIFY(runCli({s("zoo"), s("fig3-chain"), s("--out"), fig3_}).exitCode == 0);
        teaching_ = test::readText(test::sourceDir() / "resources/arch/teaching.json");
        QVERIFY(!teaching_.empty());
    }

    // 4. JSON nested 100,000 deep crashed while printing the error.
    void deeplyNestedJsonIsRefused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("file");
        std::string deep = test::deepJson(100000);
        QString arch = write("deep-arch.json", deep);
        QString overrides = write("deep-overrides.json", "{\"format\": " + deep + "}");
        QString session = write("deep.stagecraft", "{\"model\": " + deep + "}");
        QString tensors = write("deep-tensors.json", deep);
        QTest::newRow("arch") << QStringList{s("arch"), arch} << arch;
        QTest::newRow("overrides")
            << QStringList{s("schedule"),    fig3_,    s("--arch"), s("teaching"),
                           s("--overrides"), overrides}
            << overrides;
        QTest::newRow("session") << QStringList{s("run"), session, s("--seeded"), s("--outputs"),
                                                q(path("o.json"))}
                                 << session;
        QTest::newRow("tensors") << QStringList{s("run"),       fig3_,
                                                s("--arch"),    s("teaching"),
                                                s("--inputs"),  tensors,
                                                s("--outputs"), q(path("o.json"))}
                                 << tensors;
    }
    void deeplyNestedJsonIsRefused() {
        QFETCH(QStringList, args);
        QFETCH(QString, file);
        auto r = runCli(args);
        QVERIFY(refused(r, file + s(": not valid JSON: nested deeper than 64 levels")));
    }

    // 4. A header of 2^31 x 4 floats with no data was allocated before the check.
    void initializersClaimingBillionsOfElementsCostNothing_data() {
        QTest::addColumn<qint64>("rows");
        QTest::newRow("2^31 x 4") << qint64{1};
        QTest::newRow("2^28") << qint64{0};
    }
    void initializersClaimingBillionsOfElementsCostNothing() {
        QFETCH(qint64, rows);
        onnx::ModelProto model = test::toProto(test::matmulModel());
        onnx::TensorProto& w = *model.mutable_graph()->mutable_initializer(0);
        w.clear_external_data();
        w.set_data_location(onnx::TensorProto::DEFAULT);
        w.clear_dims();
        if (rows == 1) {
            w.add_dims(int64_t{1} << 31);
            w.add_dims(4);
        } else {
            w.add_dims(int64_t{1} << 28);
        }
        auto r = runCli({s("inspect"), save("claims.onnx", model)});
        QVERIFY(refused(r, s("initializer 'w': has 0 values for ")));
    }

    // 4. A Relu on 1x2^41 passed inspect, then schedule grew to 16 GB.
    void tensorsBeyondOneTebibyteAreRefusedAtImport() {
        onnxio::ModelBuilder m("huge", 13);
        m.addInput("x", ir::DType::Float32, {int64_t{1}, int64_t{1} << 41});
        m.addNode("Relu", {"x"}, {"y"}, "relu");
        m.addOutput("y", ir::DType::Float32, {int64_t{1}, int64_t{1} << 41});
        QString file = q(path("huge.onnx"));
        QVERIFY(m.save(path("huge.onnx")).ok());
        QVERIFY(
            refused(runCli({s("inspect"), file}), s("larger than the 1 TiB a tensor may have")));

        onnxio::ModelBuilder pad("pad", 13);
        pad.addInput("x", ir::DType::Float32, {int64_t{1}, int64_t{4}});
        pad.addInt64Initializer("pads", {4}, {0, 0, 0, int64_t{1} << 40});
        pad.addNode("Pad", {"x", "pads"}, {"y"}, "pad");
        pad.addOutput("y", ir::DType::Float32, {}, false);
        QVERIFY(pad.save(path("pad.onnx")).ok());
        auto r = runCli({s("schedule"), q(path("pad.onnx")), s("--arch"), s("teaching")});
        QVERIFY(refused(r, s("op 'pad' (Pad): output 'y' of shape 1x1099511627780")));
    }

    // Shapes under 1 TiB whose split needs more instances than the memory cap.
    void splitsIntoTooManyInstancesAreRefused() {
        onnxio::ModelBuilder m("wide", 13);
        m.addInput("x", ir::DType::Float32, {int64_t{1}, int64_t{1} << 28});
        m.addNode("Relu", {"x"}, {"y"}, "relu");
        m.addOutput("y", ir::DType::Float32, {int64_t{1}, int64_t{1} << 28});
        QVERIFY(m.save(path("wide.onnx")).ok());
        ScopedEnv cap("STAGECRAFT_MAX_MEMORY", "64M");
        auto r = runCli({s("schedule"), q(path("wide.onnx")), s("--arch"), s("teaching"),
                         s("--level"), s("lb")}); // auto would pick the GB, which needs fewer
        QVERIFY(refused(r, s("(op 'relu', Relu): split into 65536 instances")));
        QVERIFY(r.err.contains(s("more than 16384 instances")));
    }

    void runBuffersBeyondTheCapAreRefused() {
        // Enough for the schedule's 15 instances, not for the buffers of the run.
        ScopedEnv cap("STAGECRAFT_MAX_MEMORY", "256K");
        auto r = runCli({s("run"), fig3_, s("--arch"), s("teaching"), s("--seeded"), s("--outputs"),
                         q(path("capped.json"))});
        QVERIFY(
            refused(r, s("one command may allocate (set STAGECRAFT_MAX_MEMORY to allow more)")));
        QVERIFY(!QFile::exists(q(path("capped.json"))));
    }

    // 4., 7., 8. Architecture numbers that describe no machine.
    void architectureValuesOutOfRangeAreRefused_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("field");
        QTest::newRow("2^31 cores") << s("\"count\": 4") << s("\"count\": 2147483648")
                                    << s("cluster.core_groups[0].count: must be at most 4096");
        QTest::newRow("2^62 byte LB")
            << s("\"bytes\": 8192") << s("\"bytes\": 4611686018427387904")
            << s("cluster.core_groups[0].local_buffer.bytes: must be at most");
        QTest::newRow("1e308 ns") << s("\"latency_ns\": 100") << s("\"latency_ns\": 1e308")
                                  << s("paths[0].latency_ns: must be at most");
        QTest::newRow("5e-324 GB/s")
            << s("\"bandwidth_gbps\": 16") << s("\"bandwidth_gbps\": 5e-324")
            << s("paths[0].bandwidth_gbps: must be from");
        QTest::newRow("1e-300 GHz")
            << s("\"clock_ghz\": 1") << s("\"clock_ghz\": 1e-300") << s("clock_ghz: must be from");
    }
    void architectureValuesOutOfRangeAreRefused() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, field);
        QString file =
            write("bad-arch.json", replaced(teaching_, from.toStdString(), to.toStdString()));
        QVERIFY(refused(runCli({s("arch"), file}), file + s(": ") + field));
        auto r = runCli({s("schedule"), fig3_, s("--arch"), file, s("--simulate")});
        QVERIFY(refused(r, field));
    }

    // 8. The cycle message repeated the wrong op.
    void aCycleIsNamedInItsOrder() {
        onnxio::ModelBuilder m("cycle", 13);
        m.addInput("x", ir::DType::Float32, {int64_t{1}, int64_t{4}});
        m.addNode("Relu", {"c"}, {"a"}, "A");
        m.addNode("Relu", {"a"}, {"b"}, "B");
        m.addNode("Add", {"b", "x"}, {"c"}, "C");
        m.addOutput("b", ir::DType::Float32, {int64_t{1}, int64_t{4}});
        QVERIFY(m.save(path("cycle.onnx")).ok());
        auto r = runCli({s("inspect"), q(path("cycle.onnx"))});
        QVERIFY(refused(
            r, s("the graph has a cycle: 'A' (Relu) -> 'B' (Relu) -> 'C' (Add) -> 'A' (Relu)")));
    }

    // 6. run --seeded on a string input recursed forever.
    void aStringInputCannotBeSeeded() {
        onnxio::ModelBuilder m("strings", 13);
        m.addInput("x", ir::DType::Float32, {int64_t{1}, int64_t{4}});
        m.addInput("label", ir::DType::String, {int64_t{1}});
        m.addNode("Relu", {"x"}, {"y"}, "relu");
        m.addOutput("y", ir::DType::Float32, {int64_t{1}, int64_t{4}});
        QVERIFY(m.save(path("strings.onnx")).ok());
        auto r = runCli({s("run"), q(path("strings.onnx")), s("--arch"), s("teaching"),
                         s("--seeded"), s("--outputs"), q(path("strings.json"))},
                        60000);
        QVERIFY(refused(r, s("input 'label' has element type string, which cannot be seeded")));
    }

    // 5. A tensors file of shape [2^32, 2^32] overflowed the element count.
    void aTensorsFileWithAnOverflowingShapeIsRefused() {
        QString reference = write(
            "overflow.json", "{\"format\": \"stagecraft-tensors\", \"version\": 1, \"tensors\": "
                             "[{\"name\": \"output\", \"dtype\": \"f32\", \"shape\": "
                             "[4294967296, 4294967296], \"data\": []}]}");
        auto r = runCli({s("run"), fig3_, s("--arch"), s("teaching"), s("--seeded"), s("--outputs"),
                         q(path("ov-out.json")), s("--reference"), reference});
        QVERIFY(refused(r, s("shape: 4294967296x4294967296 has too many elements")));
    }

    // 8. Control and ANSI bytes in names reached the terminal raw.
    void controlCharactersInNamesAreEscaped() {
        onnxio::ModelBuilder m("escape", 13);
        m.addInput("x", ir::DType::Float32, {int64_t{1}, int64_t{4}});
        m.addNode("Relu", {"\x1b[2Jmissing\r"}, {"y"}, "op\x1b[31m");
        m.addOutput("y", ir::DType::Float32, {int64_t{1}, int64_t{4}});
        QVERIFY(m.save(path("escape.onnx")).ok());
        auto r = runCli({s("inspect"), q(path("escape.onnx"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(!r.err.contains(QChar(0x1b)) && !r.err.contains(QLatin1Char('\r')),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(s("'\\x1b[2Jmissing\\x0d'")), qPrintable(r.err));
        QVERIFY2(r.err.contains(s("'op\\x1b[31m'")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliHostileModels)
#include "test_cli_hostile_models.moc"
