// stagecraft emit and stagecraft run through the real binary: the files an
// emission writes (a .ll and an ELF .o per kernel, manifest.json), re-emission
// into the same directory (planted links replaced, leftovers removed), determinism, the object
// cache (shared by concurrent emissions, read back later, skipped with --no-cache), a studio
// session as input, host runs with seeded inputs whose outputs do not depend
// on the schedule, comparison with reference outputs, and the exit codes of
// bad usage and bad input.

#include "arch/presets.h"
#include "cli_helpers.h"
#include "io/session_json.h"
#include "support/sha256.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <utility>

using namespace stagecraft;
using stagecraft::test::readAll;
using stagecraft::test::readJson;
using stagecraft::test::runCli;
using stagecraft::test::s;

class TestCliEmit : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString fig3_;

    QString path(const char* name) const { return dir_.filePath(s(name)); }

    test::CliResult emitFig3(const QString& out, const QStringList& more = {}) {
        QStringList level =
            more.contains(s("--level")) ? QStringList{} : QStringList{s("--level"), s("lb")};
        return runCli(QStringList{s("emit"), fig3_, s("--arch"), s("teaching"), s("--out"), out} +
                      level + more);
    }

    /// The group letters of a kernel's instance label ("b" of "b12").
    static QString groupOf(const QJsonObject& kernel) {
        QString label = kernel[QStringLiteral("instance")].toString();
        while (!label.isEmpty() && label.back().isDigit())
            label.chop(1);
        return label;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        fig3_ = path("fig3.onnx");
        auto zoo =
            runCli({s("zoo"), s("fig3-chain"), s("--out"), fig3_, s("--weights"), s("seeded")});
        QCOMPARE(zoo.exitCode, 0);
        QFile other(path("fig3-in.json")); // a valid tensors file naming another input
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.write("{\"format\": \"stagecraft-tensors\", \"version\": 1, \"tensors\": "
                    "[{\"name\": \"x\", \"dtype\": \"f32\", \"shape\": [1], \"data\": [0]}]}");
        other.close();
    }

    void emitWritesKernelsAndManifest() {
        QString out = path("riscv");
        auto r = emitFig3(out, {s("--ir")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(s("emitted 15 kernels (graphturbo on teaching) for riscv64")));
        QJsonObject manifest = readJson(out + s("/manifest.json"));
        QCOMPARE(manifest[s("format")].toString(), s("stagecraft-kernels"));
        QCOMPARE(manifest[s("kind")].toString(), s("library"));
        // The library's weights and files, each recorded with its SHA-256.
        QJsonObject weights = manifest[s("weights")].toObject();
        QCOMPARE(weights[s("bytes")].toInteger(), QFileInfo(out + s("/weights.bin")).size());
        QCOMPARE(weights[s("alignment")].toInt(), 64);
        QJsonObject files = manifest[s("files")].toObject();
        for (const char* name : {"weights.bin", "model.h", "model.c", "example.c", "Makefile",
                                 "CMakeLists.txt", "runtime/sc_runtime.c", "runtime/sc_tensors.c"})
            QVERIFY2(files.contains(s(name)) && QFile::exists(out + QLatin1Char('/') + s(name)),
                     name);
        // Every weight at an aligned offset inside weights.bin.
        int weightsSeen = 0;
        for (const auto& t : manifest[s("tensors")].toArray()) {
            QJsonObject tensor = t.toObject();
            if (tensor[s("role")].toString() != s("weight"))
                continue;
            ++weightsSeen;
            QCOMPARE(tensor[s("offset")].toInteger() % 64, 0);
            QVERIFY(tensor[s("offset")].toInteger() + tensor[s("stored_bytes")].toInteger() <=
                    weights[s("bytes")].toInteger());
        }
        QVERIFY(weightsSeen > 0);
        QCOMPARE(manifest[s("target")].toObject()[s("name")].toString(), s("riscv64"));
        QCOMPARE(manifest[s("target")].toObject()[s("opt")].toInt(), 2);
        QJsonArray kernels = manifest[s("kernels")].toArray();
        QCOMPARE(kernels.size(), 15);
        int continued = 0;
        for (int i = 0; i < kernels.size(); ++i) {
            QJsonObject k = kernels[i].toObject();
            QCOMPARE(k[s("order")].toInt(), i);
            // The next instance of the group before it, on its cores,
            // runs in that launch.
            QJsonObject before = kernels[std::max(i - 1, 0)].toObject();
            bool sameGroup = i > 0 && groupOf(before) == groupOf(k) &&
                             before[s("cores")].toInt() == k[s("cores")].toInt();
            QCOMPARE(k[s("continues_launch")].toBool(), sameGroup);
            continued += sameGroup ? 1 : 0;
            QVERIFY(
                readAll(out + QLatin1Char('/') + k[s("ir")].toString())
                    .contains(
                        QByteArray("define void @").append(k[s("symbol")].toString().toUtf8())));
            QVERIFY(readAll(out + QLatin1Char('/') + k[s("object")].toString())
                        .startsWith("\x7f"
                                    "ELF"));
            QVERIFY(!k[s("layers")].toArray().isEmpty());
        }
        QVERIFY(!manifest[s("tensors")].toArray().isEmpty());
        QVERIFY(continued > 0);
    }

    void reEmittingRemovesOnlyStaleKernels() {
        QString out = path("again");
        QVERIFY(emitFig3(out, {s("--target"), s("host")}).exitCode == 0);
        QVERIFY(QFile::exists(out + s("/runtime/sc_runtime.h")));
        QFile notes(out + s("/notes.txt"));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("mine");
        notes.close();
        auto tvm = emitFig3(out, {s("--target"), s("host"), s("--strategy"), s("tvm"),
                                  s("--format"), s("objects")});
        QVERIFY2(tvm.exitCode == 0, qPrintable(tvm.err));
        QStringList files = QDir(out).entryList(QDir::Files);
        // 8 tvm kernels, two files each, the manifest and the user's file:
        // the library the first emission wrote is gone with its kernels.
        QCOMPARE(files.size(), 8 * 2 + 2);
        QVERIFY(files.contains(s("notes.txt")));
        QVERIFY(QDir(out + s("/runtime")).isEmpty());
        QCOMPARE(readJson(out + s("/manifest.json"))[s("kind")].toString(), s("objects"));
    }

    /// runtime/ planted as a link to another folder: emit refuses to write
    /// through it and leaves that folder alone.
    void aLinkedRuntimeFolderIsRefused() {
        QString out = path("linked");
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QDir().mkpath(path("elsewhere")));
        QVERIFY(QFile::link(path("elsewhere"), out + s("/runtime")));
        auto r = emitFig3(out, {s("--target"), s("host")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(s("runtime: is not a folder emit may write into")),
                 qPrintable(r.err));
        QVERIFY(QDir(path("elsewhere")).isEmpty());
    }

    /// --cpu and --vlen reach the objects' target, and a CPU LLVM does not
    /// know is refused before anything is compiled.
    void theTargetCpuAndVlenAreChosen() {
        auto host = emitFig3(path("cpu"), {s("--target"), s("host"), s("--cpu"), s("x86-64")});
        QVERIFY2(host.exitCode == 0, qPrintable(host.err));
        QCOMPARE(readJson(path("cpu/manifest.json"))[s("target")].toObject()[s("cpu")].toString(),
                 s("x86-64"));
        auto rv = emitFig3(path("vlen"), {s("--vlen"), s("512")});
        QVERIFY2(rv.exitCode == 0, qPrintable(rv.err));
        QJsonObject target = readJson(path("vlen/manifest.json"))[s("target")].toObject();
        QCOMPARE(target[s("vlen")].toInt(), 512);
        QVERIFY(target[s("features")].toString().endsWith(s("+zvl512b")));
        auto bad = emitFig3(path("bad"), {s("--target"), s("host"), s("--cpu"), s("pentium9")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(s("'pentium9' is not a CPU LLVM knows")), qPrintable(bad.err));
        QVERIFY(!QFile::exists(path("bad")));
    }

    /// --report prints the vector use of the riscv64 kernels and writes it
    /// as vector-report.json, recorded in the manifest, so that an emission
    /// without it removes it again.
    void theVectorReportIsPrintedAndWritten() {
        QString out = path("report");
        auto r = emitFig3(out, {s("--vlen"), s("256"), s("--report"), s("--format"), s("objects")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(s("loops that multiply-add, by layer")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(s("VLEN 256: \\d+ at >= 75 % of the lanes"))),
                 qPrintable(r.out));
        QJsonObject report = readJson(out + s("/vector-report.json"));
        QCOMPARE(report[s("format")].toString(), s("stagecraft-vector-report"));
        QCOMPARE(report[s("compiled_vlen")].toInt(), 256);
        QVERIFY(report[s("multiply_add_loops")].toObject()[s("loops")].toInt() > 0);
        QJsonObject files = readJson(out + s("/manifest.json"))[s("files")].toObject();
        QVERIFY(files.contains(s("vector-report.json")));
        QVERIFY(emitFig3(out, {s("--vlen"), s("256"), s("--format"), s("objects")}).exitCode == 0);
        QVERIFY(!QFile::exists(out + s("/vector-report.json")));
    }

    /// A link planted where emit puts a kernel file is replaced, never
    /// followed; what an interrupted emission left (its staging folder, an
    /// older version's temporary file) is removed by the next and said; no
    /// staging folder outlives an emission.
    void plantedLinksAndLeftoversDoNotSurvive() {
        QString out = path("planted");
        QVERIFY(emitFig3(out, {s("--target"), s("host"), s("--ir")}).exitCode == 0);
        QString victim = path("victim.txt");
        QFile precious(victim);
        QVERIFY(precious.open(QIODevice::WriteOnly));
        precious.write("precious");
        precious.close();
        QString ll = out + s("/sc_k000_a8.ll"); // DFS order: a8 first
        QVERIFY(QFile::exists(ll));
        QVERIFY(QFile::remove(ll));
        QVERIFY(QFile::link(victim, ll));
        QVERIFY(QDir(out).mkdir(s(".stagecraft-emit-999999999-0")));
        QFile legacy(out + s("/.sc_k000_a8.ll.999999999.0.tmp"));
        QVERIFY(legacy.open(QIODevice::WriteOnly));
        legacy.close();
        auto again = emitFig3(out, {s("--target"), s("host"), s("--ir")});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QCOMPARE(readAll(victim), QByteArray("precious"));
        QVERIFY(!QFileInfo(ll).isSymLink());
        QVERIFY(readAll(ll).contains("define void @"));
        QVERIFY2(again.err.contains(s("left by an emission that was interrupted")),
                 qPrintable(again.err));
        QCOMPARE(QDir(out)
                     .entryList(QDir::Hidden | QDir::AllEntries | QDir::NoDotAndDotDot)
                     .filter(QRegularExpression(s("^\\."))),
                 QStringList());
    }

    /// The manifest without each kernel's "compile" (cache and seconds).
    static QJsonObject withoutCompileTimes(QJsonObject manifest) {
        QJsonArray kernels = manifest[s("kernels")].toArray();
        for (auto k : kernels) {
            QJsonObject kernel = k.toObject();
            kernel.remove(s("compile"));
            k = kernel;
        }
        manifest[s("kernels")] = kernels;
        return manifest;
    }

    /// The "cache" of every kernel's "compile" in \p dir's manifest.
    QStringList cacheStates(const QString& dir) const {
        QStringList states;
        for (const auto& k : readJson(dir + s("/manifest.json"))[s("kernels")].toArray())
            states << k.toObject()[s("compile")].toObject()[s("cache")].toString();
        states.removeDuplicates();
        return states;
    }

    void outputIsDeterministic() {
        QVERIFY(emitFig3(path("one")).exitCode == 0);
        QVERIFY(emitFig3(path("two"), {s("--threads"), s("1")}).exitCode == 0);
        QCOMPARE(withoutCompileTimes(readJson(path("one/manifest.json"))),
                 withoutCompileTimes(readJson(path("two/manifest.json"))));
        const QStringList files =
            QDir(path("one"))
                .entryList({s("*.o"), s("*.ll"), s("*.c"), s("*.h"), s("*.bin"), s("Makefile")});
        QVERIFY(files.contains(s("weights.bin")) && files.contains(s("model.c")));
        for (const QString& f : files)
            QVERIFY2(readAll(path("one/") + f) == readAll(path("two/") + f), qPrintable(f));
    }

    // Two emissions at once into a fresh cache, then one that reads every
    // kernel back; --no-cache compiles. STAGECRAFT_CACHE_DIR names the cache.
    void theObjectCacheServesConcurrentAndLaterEmissions() {
        QByteArray saved = qgetenv("STAGECRAFT_CACHE_DIR");
        qputenv("STAGECRAFT_CACHE_DIR", path("cache").toUtf8());
        QProcess a, b;
        for (auto [process, out] : {std::pair{&a, "ca"}, std::pair{&b, "cb"}})
            process->start(QString::fromLocal8Bit(qgetenv("STAGECRAFT_CLI")),
                           {s("emit"), fig3_, s("--arch"), s("teaching"), s("--level"), s("lb"),
                            s("--out"), path(out)});
        QVERIFY(a.waitForFinished(120000) && b.waitForFinished(120000));
        QCOMPARE(a.exitCode() + b.exitCode(), 0);
        auto again = emitFig3(path("cc"));
        auto uncached = emitFig3(path("cd"), {s("--no-cache")});
        qputenv("STAGECRAFT_CACHE_DIR", saved);
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QVERIFY2(again.err.contains(s("compiled 15/15 kernels (15 from the object cache)")),
                 qPrintable(again.err));
        QCOMPARE(cacheStates(path("cc")), QStringList{s("hit")});
        QCOMPARE(cacheStates(path("cd")), QStringList{s("off")});
        for (const char* other : {"ca", "cb", "cd"})
            for (const QString& f : QDir(path("cc")).entryList({s("*.o"), s("*.ll")}))
                QVERIFY2(readAll(path("cc/") + f) == readAll(path(other) + QLatin1Char('/') + f),
                         qPrintable(f));
    }

    void aSessionGivesItsSchedule() {
        io::Session session;
        session.modelPath = fig3_.toStdString();
        auto sha = fileSha256(session.modelPath);
        QVERIFY(sha.ok());
        session.modelSha256 = *sha;
        auto arch = arch::resolveArch("teaching");
        QVERIFY(arch.ok());
        session.arch = *arch;
        session.strategy = "tvm";
        QString file = path("fig3.stagecraft");
        QVERIFY(io::saveSession(file.toStdString(), session).ok());
        auto r = runCli({s("emit"), file, s("--out"), path("session"), s("--target"), s("host")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(s("emitted 8 kernels (tvm on teaching)")));
    }

    void runOutputsDoNotDependOnTheSchedule() {
        auto first =
            runCli({s("run"), fig3_, s("--arch"), s("teaching"), s("--seeded"), s("--save-inputs"),
                    path("in.json"), s("--outputs"), path("out.json")});
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        QJsonArray outputs = readJson(path("out.json"))[s("tensors")].toArray();
        QCOMPARE(outputs.size(), 1);
        QCOMPARE(outputs[0].toObject()[s("name")].toString(), s("output"));
        QCOMPARE(outputs[0].toObject()[s("data")].toArray().size(), 8 * 128 * 2 * 2);
        auto tvm = runCli({s("run"), fig3_, s("--arch"), s("teaching"), s("--strategy"), s("tvm"),
                           s("--inputs"), path("in.json"), s("--outputs"), path("tvm.json"),
                           s("--reference"), path("out.json"), s("--tolerance"), s("0")});
        QVERIFY2(tvm.exitCode == 0, qPrintable(tvm.err));
        QVERIFY(tvm.out.contains(s("output: relative error 0 ")));
    }

    // The DSA's kernels under qemu-riscv64 compute what the host's do.
    void runsTheRiscvKernelsUnderQemu() {
        auto r = runCli({s("run"), fig3_, s("--arch"), s("teaching"), s("--inputs"),
                         path("in.json"), s("--target"), s("riscv64"), s("--vlen"), s("128"),
                         s("--outputs"), path("rv.json"), s("--reference"), path("out.json"),
                         s("--tolerance"), s("1e-5")},
                        600000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(s("under qemu-riscv64 (VLEN 128)")), qPrintable(r.out));
        QVERIFY(r.out.contains(s("output: relative error ")));
    }

    void runFailsAboveTheTolerance() {
        QJsonObject doc = readJson(path("out.json"));
        QJsonArray tensors = doc[s("tensors")].toArray();
        QJsonObject t = tensors[0].toObject();
        QJsonArray data = t[s("data")].toArray();
        data[0] = data[0].toDouble() + 1.0;
        t[s("data")] = data;
        tensors[0] = t;
        doc[s("tensors")] = tensors;
        QFile file(path("wrong.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(doc).toJson());
        file.close();
        auto r =
            runCli({s("run"), fig3_, s("--arch"), s("teaching"), s("--inputs"), path("in.json"),
                    s("--outputs"), path("o.json"), s("--reference"), path("wrong.json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(s("differ from")));
    }

    void usageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("emit without --out") << QStringList{s("emit"), s("zoo:fig3-chain")};
        QTest::newRow("unknown target") << QStringList{s("emit"), s("zoo:fig3-chain"), s("--out"),
                                                       s("x"),    s("--target"),       s("arm")};
        QTest::newRow("report of host kernels")
            << QStringList{s("emit"),     s("zoo:fig3-chain"), s("--out"),   s("x"),
                           s("--target"), s("host"),           s("--report")};
        QTest::newRow("opt out of range")
            << QStringList{s("emit"), s("zoo:fig3-chain"), s("--out"), s("x"), s("--opt"), s("5")};
        QTest::newRow("unknown strategy") << QStringList{s("emit"), s("zoo:fig3-chain"), s("--out"),
                                                         s("x"),    s("--strategy"),     s("fast")};
        QTest::newRow("run without inputs")
            << QStringList{s("run"), s("zoo:fig3-chain"), s("--outputs"), s("o.json")};
        QTest::newRow("run with both inputs")
            << QStringList{s("run"), s("zoo:fig3-chain"), s("--seeded"), s("--inputs"),
                           s("i"),   s("--outputs"),      s("o.json")};
        QTest::newRow("run on an unknown target")
            << QStringList{s("run"), s("zoo:fig3-chain"), s("--seeded"), s("--target"),
                           s("arm"), s("--outputs"),      s("o.json")};
        QTest::newRow("a VLEN for the host")
            << QStringList{s("run"), s("zoo:fig3-chain"), s("--seeded"), s("--vlen"),
                           s("128"), s("--outputs"),      s("o.json")};
        QTest::newRow("a profile under qemu") << QStringList{
            s("run"),       s("zoo:fig3-chain"), s("--seeded"),  s("--target"), s("riscv64"),
            s("--profile"), s("p.json"),         s("--outputs"), s("o.json")};
    }
    void usageErrors() {
        QFETCH(QStringList, args);
        auto r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(oneLine(r), qPrintable(r.err));
    }

    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        QTest::newRow("missing model")
            << QStringList{s("emit"), s("nothing.onnx"), s("--out"), s("x")} << s("nothing.onnx");
        QTest::newRow("inputs file without the model's input")
            << QStringList{s("run"),       s("zoo:fig3-chain"), s("--inputs"), path("fig3-in.json"),
                           s("--outputs"), path("o.json")}
            << s("fig3-in.json: input 'input' is missing");
        QTest::newRow("bad inputs file")
            << QStringList{s("run"),          s("zoo:fig3-chain"), s("--inputs"),
                           s("nothing.json"), s("--outputs"),      s("o.json")}
            << s("nothing.json");
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        auto r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(oneLine(r) || r.err.count(QLatin1Char('\n')) == 2, qPrintable(r.err));
        QVERIFY2(r.err.contains(named), qPrintable(r.err));
    }

    void helpDescribesBothCommands() {
        for (const char* command : {"emit", "run"}) {
            auto r = runCli({s(command), s("--help")});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.contains(s("usage: stagecraft ") + s(command)));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliEmit)
#include "test_cli_emit.moc"
