// Hardening, conflicting requests and unclear messages: a repeated --dim or
// --input with another value, --input against --dim, two split overrides or
// scope pins of one group that disagree, an initializer that contradicts the
// graph input of its name, duplicate inputs, a session used with another
// model — once resolved silently (last one wins), now refused or said. And
// messages that advised an option the command does not have, blamed the
// wrong field, named no file or warned when nothing had changed. Each case
// is a finding of the hardening issue and failed before its fix.

#include "arch/presets.h"
#include "hostile.h"
#include "io/session_json.h"
#include "support/sha256.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace stagecraft;
using stagecraft::test::failed;
using stagecraft::test::q;
using stagecraft::test::runCli;
using stagecraft::test::s;

namespace {

/// x[batch, 4] -> Relu -> y.
onnxio::ModelBuilder dynamicModel() {
    onnxio::ModelBuilder m("dynamic", 13);
    m.addInput("x", ir::DType::Float32, {std::string("batch"), int64_t{4}});
    m.addNode("Relu", {"x"}, {"y"}, "relu");
    m.addOutput("y", ir::DType::Float32, {std::string("batch"), int64_t{4}});
    return m;
}

} // namespace

class TestCliHostileArgs : public QObject, private test::SuiteFiles {
    Q_OBJECT
    QString fig3_;
    QString dynamic_;

    QString overridesFile(const std::string& name, const std::string& splits,
                          const std::string& scopes) {
        return write(name, "{\"format\": \"stagecraft-overrides\", \"version\": 1, \"merge\": [], "
                           "\"ungroup\": [], \"split\": [" +
                               splits + "], \"order\": [], \"scope\": [" + scopes + "]}");
    }

    io::Session fig3Session() {
        io::Session session;
        session.modelPath = fig3_.toStdString();
        auto sha = fileSha256(session.modelPath);
        session.modelSha256 = sha.ok() ? *sha : "";
        auto arch = arch::resolveArch("teaching");
        if (arch.ok())
            session.arch = *arch;
        return session;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        fig3_ = q(path("fig3.onnx"));
        QVERIFY(runCli({s("zoo"), s("fig3-chain"), s("--out"), fig3_}).exitCode == 0);
        dynamic_ = q(path("dynamic.onnx"));
        QVERIFY(dynamicModel().save(path("dynamic.onnx")).ok());
    }

    // 7. Repeated and crossing bindings: the last one used to win.
    void conflictingBindingsAreRefused_data() {
        QTest::addColumn<QStringList>("bindings");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("--dim twice")
            << QStringList{s("--dim"), s("batch=2"), s("--dim"), s("batch=4")} << 2
            << s("--dim batch=4 conflicts with --dim batch=2");
        QTest::newRow("--input twice")
            << QStringList{s("--input"), s("x:2x4"), s("--input"), s("x:4x4")} << 2
            << s("--input x:4x4 conflicts with --input x:2x4");
        QTest::newRow("--input against --dim")
            << QStringList{s("--input"), s("x:2x4"), s("--dim"), s("batch=4")} << 1
            << s("sets dimension 0 ('batch') to 2 but --dim batch=4");
    }
    void conflictingBindingsAreRefused() {
        QFETCH(QStringList, bindings);
        QFETCH(int, code);
        QFETCH(QString, message);
        auto r = runCli(QStringList{s("inspect"), dynamic_} + bindings);
        QVERIFY(failed(r, code, message));
        auto same = runCli({s("inspect"), dynamic_, s("--dim"), s("batch=2"), s("--dim"),
                            s("batch=2"), s("--input"), s("x:2x4")});
        QVERIFY2(same.exitCode == 0, qPrintable(same.err));
    }

    // 8. A --dim typo was reported as an unbound dimension.
    void aMisspelledDimIsNamed() {
        auto r = runCli({s("inspect"), dynamic_, s("--dim"), s("bacth=2")});
        QVERIFY(failed(r, 1,
                       s("--dim names 'bacth', which no input uses (dynamic dimensions: batch)")));
    }

    // 7. Two overrides of one group that disagree.
    void conflictingOverridesAreRefused_data() {
        QTest::addColumn<QString>("splits");
        QTest::addColumn<QString>("scopes");
        QTest::addColumn<QString>("message");
        QTest::newRow("splits") << s("{\"op\": \"stage1.conv1\", \"dim\": 0, \"factor\": 8}, "
                                     "{\"op\": \"stage1.relu1\", \"dim\": 0, \"factor\": 4}")
                                << QString()
                                << s("conflicts with the split override for 'stage1.conv1'");
        QTest::newRow("scopes") << QString()
                                << s("{\"tensor\": \"stage1.relu2_output_0\", \"scope\": \"GB\"}, "
                                     "{\"tensor\": \"stage1.relu2_output_0\", \"scope\": \"DDR\"}")
                                << s("pinned twice, to different scopes");
    }
    void conflictingOverridesAreRefused() {
        QFETCH(QString, splits);
        QFETCH(QString, scopes);
        QFETCH(QString, message);
        QString file = overridesFile("conflict.json", splits.toStdString(), scopes.toStdString());
        auto r = runCli({s("schedule"), fig3_, s("--arch"), s("teaching"), s("--overrides"), file});
        QVERIFY(failed(r, 1, message));
        // 8. The message names the model and the overrides file.
        QVERIFY(r.err.contains(fig3_ + s(": ")));
        QVERIFY(r.err.contains(s("(overrides from ") + file + s(")")));
    }

    // 7. An initializer named like a graph input changed the output shape.
    void anInitializerContradictingItsInputIsRefused() {
        onnxio::ModelBuilder m("shadow", 13);
        m.addInput("x", ir::DType::Float32, {int64_t{1}, int64_t{4}});
        m.addFloatInitializer("x", {1, 2}, {1.0f, 2.0f});
        m.addNode("Relu", {"x"}, {"y"}, "relu");
        m.addOutput("y", ir::DType::Float32, {}, false);
        onnx::ModelProto proto = test::toProto(m);
        proto.set_ir_version(8);
        test::writeProto(path("shadow.onnx"), proto);
        auto r = runCli({s("inspect"), q(path("shadow.onnx"))});
        QVERIFY(failed(r, 1, s("input 'x' declares another shape than its initializer (1x2)")));

        onnxio::ModelBuilder ok("default", 13);
        ok.addInput("x", ir::DType::Float32, {int64_t{1}, int64_t{2}});
        ok.addFloatInitializer("x", {1, 2}, {1.0f, 2.0f});
        ok.addNode("Relu", {"x"}, {"y"}, "relu");
        ok.addOutput("y", ir::DType::Float32, {}, false);
        onnx::ModelProto agreed = test::toProto(ok);
        agreed.set_ir_version(8);
        test::writeProto(path("default.onnx"), agreed);
        auto warned = runCli({s("inspect"), q(path("default.onnx"))});
        QCOMPARE(warned.exitCode, 0);
        QVERIFY2(warned.err.contains(s("1 graph input has an initializer (first 'x')")),
                 qPrintable(warned.err));
    }

    // 7. Duplicate graph input names only warned.
    void duplicateGraphInputsAreRefused() {
        onnx::ModelProto proto = test::toProto(dynamicModel());
        *proto.mutable_graph()->add_input() = proto.graph().input(0);
        test::writeProto(path("twice.onnx"), proto);
        auto r = runCli({s("inspect"), q(path("twice.onnx")), s("--dim"), s("batch=1")});
        QVERIFY(failed(r, 1, s("graph input 'x' is listed twice")));
    }

    // 7. A zoo: model ran with another model's session without a word.
    void aSessionForAnotherModelIsSaid() {
        QString file = q(path("fig3.stagecraft"));
        QVERIFY(io::saveSession(file.toStdString(), fig3Session()).ok());
        auto r = runCli({s("run"), s("zoo:fig2-blocks"), s("--session"), file, s("--seeded"),
                         s("--outputs"), q(path("other.json"))});
        QVERIFY2(r.err.contains(s("warning: the session was saved for ") + fig3_ +
                                s(", not zoo:fig2-blocks")),
                 qPrintable(r.err));
    }

    // 7. A relative model path in a session was taken from the working directory.
    void aRelativeModelPathIsTakenNextToTheSession() {
        io::Session session = fig3Session();
        session.modelPath = "fig3.onnx";
        QString file = q(path("relative.stagecraft"));
        QVERIFY(io::saveSession(file.toStdString(), session).ok());
        auto r = runCli({s("run"), file, s("--seeded"), s("--outputs"), q(path("rel.json"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains(s("warning")), qPrintable(r.err));
    }

    // 8. sha256 "" (not known) still warned that the model had changed.
    void anUnknownHashDoesNotWarn() {
        io::Session session = fig3Session();
        session.modelSha256.clear();
        QString file = q(path("nohash.stagecraft"));
        QVERIFY(io::saveSession(file.toStdString(), session).ok());
        auto r = runCli({s("run"), file, s("--seeded"), s("--outputs"), q(path("nohash.json"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains(s("changed on disk")), qPrintable(r.err));
    }

    // The other side of the above: a hash that differs is named, in the
    // words Studio uses too (core/driver/model_check.h).
    void aChangedHashWarns() {
        io::Session session = fig3Session();
        session.modelSha256 = std::string(64, 'f');
        QString file = q(path("stale.stagecraft"));
        QVERIFY(io::saveSession(file.toStdString(), session).ok());
        auto r = runCli({s("run"), file, s("--seeded"), s("--outputs"), q(path("stale.json"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(
            r.err.contains(s("changed on disk since the session was saved (sha256 ffffffffffff")),
            qPrintable(r.err));
    }

    // 8. run advised --per-cluster, which run rejects.
    void runSuggestsOnlyItsOwnOptions() {
        auto r = runCli({s("run"), dynamic_, s("--seeded"), s("--outputs"), q(path("d.json"))});
        QVERIFY(failed(r, 1, s("is not fixed: pass --dim batch=K")));
        QVERIFY(!r.err.contains(s("--per-cluster")));
        auto schedule = runCli({s("schedule"), dynamic_});
        QVERIFY(failed(schedule, 1, s("pass --per-cluster K or --dim batch=K")));
    }

    // 8. A batch of 0 was "batch, clusters and batches per cluster must be
    // positive", naming no file.
    void aZeroBatchNamesTheModel() {
        auto r = runCli({s("run"), dynamic_, s("--dim"), s("batch=0"), s("--seeded"),
                         s("--outputs"), q(path("zero.json"))});
        QVERIFY(failed(
            r, 1, dynamic_ + s(": the batch (dim 0 of input 'x') is 0; it must be at least 1")));
    }

    // Issue 60: a memory cap that is not a size was ignored silently.
    void aMalformedMemoryCapIsRefused_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("word") << QByteArray("abc") << 2;
        QTest::newRow("zero") << QByteArray("0") << 2;
        QTest::newRow("unit alone") << QByteArray("G") << 2;
        QTest::newRow("fraction") << QByteArray("1.5G") << 0;
        QTest::newRow("lower case") << QByteArray("1g") << 0;
    }
    void aMalformedMemoryCapIsRefused() {
        QFETCH(QByteArray, value);
        QFETCH(int, exitCode);
        QByteArray saved = qgetenv("STAGECRAFT_MAX_MEMORY");
        qputenv("STAGECRAFT_MAX_MEMORY", value);
        auto r = runCli({s("inspect"), fig3_});
        if (saved.isEmpty())
            qunsetenv("STAGECRAFT_MAX_MEMORY");
        else
            qputenv("STAGECRAFT_MAX_MEMORY", saved);
        if (exitCode == 0)
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        else
            QVERIFY(failed(r, exitCode,
                           s("stagecraft: STAGECRAFT_MAX_MEMORY: '") + QString::fromUtf8(value) +
                               s("' is not a size of memory")));
    }

    // Issue 60: a huge batch wrapped the traffic to -9223372036854775808 and
    // exited 0 (under UBSan's float-cast-overflow in the asan preset too).
    void aBatchBeyondTheCountsIsRefused_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("batch");
        QTest::newRow("compare 3e13") << s("compare") << s("30000000000000");
        QTest::newRow("compare 4e12") << s("compare") << s("4000000000000");
        QTest::newRow("schedule 3e13") << s("schedule") << s("30000000000000");
    }
    void aBatchBeyondTheCountsIsRefused() {
        QFETCH(QString, command);
        QFETCH(QString, batch);
        QStringList args = {command, s("zoo:fig3-chain"), s("--batch"),
                            batch,   s("--per-cluster"),  s("1")};
        args << (command == s("compare") ? s("--csv") : s("--simulate"));
        auto r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(s("a total batch of ") + batch + s(" samples moves")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(s("more than Stagecraft counts (2^62): give a smaller batch")),
                 qPrintable(r.err));
        QVERIFY2(!r.out.contains(s(",-")), qPrintable(r.out));
        // A large batch that fits is counted, not wrapped.
        auto fits = runCli({s("compare"), s("zoo:fig3-chain"), s("--batch"), s("400000000"),
                            s("--per-cluster"), s("1"), s("--csv")});
        QVERIFY2(fits.exitCode == 0, qPrintable(fits.err));
        QVERIFY2(!fits.out.contains(s(",-")), qPrintable(fits.out));
    }

    // Issue 60: Conformer at seq 30,000 was planned into 8.3 GB of a 4 GiB cap.
    void aSimulationBeyondTheMemoryCapIsRefusedWithItsEstimate() {
        QByteArray saved = qgetenv("STAGECRAFT_MAX_MEMORY");
        qputenv("STAGECRAFT_MAX_MEMORY", "64K"); // planning fits; simulating would not
        auto r = runCli({s("schedule"), fig3_, s("--arch"), s("teaching"), s("--level"), s("lb"),
                         s("--simulate")});
        auto plain =
            runCli({s("schedule"), fig3_, s("--arch"), s("teaching"), s("--level"), s("lb")});
        if (saved.isEmpty())
            qunsetenv("STAGECRAFT_MAX_MEMORY");
        else
            qputenv("STAGECRAFT_MAX_MEMORY", saved);
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(s("simulating this schedule would take about")) &&
                     r.err.contains(
                         s("(15 instances, 19 data moves), more than the memory cap of 65.54 kB")),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliHostileArgs)
#include "test_cli_hostile_args.moc"
