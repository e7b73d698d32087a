// Hardening, files: nothing is read outside what the user named (external
// data stays in the model's directory), nothing is written but what was
// asked (outputs replace only regular files, keep their mode, honour the
// umask; zoo and emit never replace or delete files they did not write),
// and inputs that are not regular files (devices, FIFOs) are refused at once
// instead of hanging or reading gigabytes. Each case is a finding of the
// hardening issue and failed before its fix.

#include "arch/presets.h"
#include "hostile.h"
#include "io/session_json.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace stagecraft;
using stagecraft::test::failed;
using stagecraft::test::q;
using stagecraft::test::runCli;
using stagecraft::test::s;

class TestCliHostileFiles : public QObject, private test::SuiteFiles {
    Q_OBJECT
    QString fig3_;

    /// The matmul model with "w" at \p location, in a directory of its own.
    QString modelWithExternal(const char* folder, const std::string& location,
                              const std::string& offset = "0") {
        std::filesystem::create_directories(path(folder));
        onnx::ModelProto model = test::toProto(test::matmulModel());
        test::setExternal(model, location, offset);
        std::filesystem::path file = path(folder) / "model.onnx";
        test::writeProto(file, model);
        return q(file);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        fig3_ = q(path("fig3.onnx"));
        auto zoo = runCli({s("zoo"), s("fig3-chain"), s("--out"), fig3_});
        QVERIFY2(zoo.exitCode == 0, qPrintable(zoo.err));
        test::writeText(path("secret.bin"), std::string(64, 'S'));
    }

    // 1. External data: the ONNX specification's rules, checked before any read.
    void externalDataOutsideTheModelDirectoryIsRefused_data() {
        QTest::addColumn<QString>("location");
        QTest::addColumn<QString>("why");
        QTest::newRow("absolute") << s("/etc/passwd") << s("is absolute");
        QTest::newRow("climbing") << s("../secret.bin") << s("climbs out");
        QTest::newRow("climbing inside") << s("sub/../../secret.bin") << s("climbs out");
    }
    void externalDataOutsideTheModelDirectoryIsRefused() {
        QFETCH(QString, location);
        QFETCH(QString, why);
        QString model = modelWithExternal("ext", location.toStdString());
        auto r = runCli({s("run"), model, s("--seeded"), s("--outputs"), q(path("ext-out.json"))});
        QVERIFY(failed(r, 1, why));
        QVERIFY(r.err.contains(s("initializer 'w'")));
        QVERIFY(!QFile::exists(q(path("ext-out.json"))));
    }

    void aSymbolicLinkOutOfTheModelDirectoryIsRefused() {
        QString model = modelWithExternal("link", "w.bin");
        QVERIFY(::symlink(path("secret.bin").c_str(), (path("link") / "w.bin").c_str()) == 0);
        QVERIFY(failed(runCli({s("inspect"), model}), 1, s("leads out of the model's directory")));
    }

    void offsetsBeyondTheFileAreRefusedWithoutOverflow() {
        QString model = modelWithExternal("offset", "w.bin", "9223372036854775807");
        test::writeText(path("offset") / "w.bin", std::string(64, '\0'));
        QVERIFY(failed(runCli({s("inspect"), model}), 1, s("is too short")));
    }

    void externalDataInsideTheDirectoryStillWorks() {
        QString model = modelWithExternal("inside", "data/w.bin");
        std::filesystem::create_directories(path("inside") / "data");
        test::writeText(path("inside") / "data" / "w.bin", std::string(64, '\0'));
        auto r = runCli({s("inspect"), model});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    // 2. Outputs: only regular files are replaced.
    void outputsRefuseDevicesAndFifos_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("target");
        QString fifo = q(path("fifo"));
        const std::pair<const char*, QStringList> rows[] = {
            {"schedule --out",
             {s("schedule"), s("zoo:fig3-chain"), s("--arch"), s("teaching"), s("--out")}},
            {"schedule --trace",
             {s("schedule"), s("zoo:fig3-chain"), s("--arch"), s("teaching"), s("--simulate"),
              s("--trace")}},
            {"schedule --dot",
             {s("schedule"), s("zoo:fig3-chain"), s("--arch"), s("teaching"), s("--dot")}},
            {"run --outputs",
             {s("run"), s("zoo:fig3-chain"), s("--arch"), s("teaching"), s("--seeded"),
              s("--outputs")}},
            {"compare --trace",
             {s("compare"), s("zoo:fig3-chain"), s("--arch"), s("teaching"), s("--trace")}},
            {"zoo --out", {s("zoo"), s("fig3-chain"), s("--out")}},
        };
        for (const auto& [name, args] : rows) {
            QTest::newRow((std::string(name) + " /dev/null").c_str())
                << (args + QStringList{s("/dev/null")}) << s("/dev/null");
            QTest::newRow((std::string(name) + " fifo").c_str())
                << (args + QStringList{fifo}) << fifo;
        }
        QTest::newRow("run --save-inputs /dev/null")
            << QStringList{s("run"),       s("zoo:fig3-chain"), s("--arch"),
                           s("teaching"),  s("--seeded"),       s("--save-inputs"),
                           s("/dev/null"), s("--outputs"),      q(path("o.json"))}
            << s("/dev/null");
    }
    void outputsRefuseDevicesAndFifos() {
        QFETCH(QStringList, args);
        QFETCH(QString, target);
        if (!QFile::exists(q(path("fifo"))))
            QVERIFY(::mkfifo(path("fifo").c_str(), 0600) == 0);
        auto r = runCli(args, 20000);
        QVERIFY(failed(r, 1, target + s(": is a ")));
        QVERIFY(r.err.contains(s("not a regular file; refusing to replace it")));
        QVERIFY(test::isCharacterDevice("/dev/null"));
        struct stat info {};
        QVERIFY(::stat(path("fifo").c_str(), &info) == 0 && S_ISFIFO(info.st_mode));
    }

    void outputsKeepTheModeOfAnExistingFile() {
        QString out = q(path("mode.json"));
        test::writeText(path("mode.json"), "old");
        QVERIFY(::chmod(path("mode.json").c_str(), 0640) == 0);
        auto r = runCli({s("schedule"), fig3_, s("--arch"), s("teaching"), s("--out"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(test::readText(path("mode.json")) != "old");
        QCOMPARE(test::modeOf(out), mode_t{0640});
    }

    void newOutputsHonourTheUmask_data() {
        QTest::addColumn<int>("mask");
        QTest::addColumn<int>("expected");
        QTest::newRow("022") << 022 << 0644;
        QTest::newRow("077") << 077 << 0600;
        QTest::newRow("002") << 002 << 0664;
    }
    void newOutputsHonourTheUmask() {
        QFETCH(int, mask);
        QFETCH(int, expected);
        QString out = q(path("umask.json"));
        QFile::remove(out);
        mode_t saved = ::umask(static_cast<mode_t>(mask));
        auto r = runCli({s("schedule"), fig3_, s("--arch"), s("teaching"), s("--out"), out});
        ::umask(saved);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(test::modeOf(out), static_cast<mode_t>(expected));
    }

    void zooNeverReplacesAnUnrelatedWeightsFile() {
        test::writeText(path("mine.weights"), "my own data");
        auto r = runCli({s("zoo"), s("fig3-chain"), s("--out"), q(path("mine.onnx"))});
        QVERIFY(failed(r, 1, s("mine.weights: exists and is not the weights file of")));
        QCOMPARE(test::readText(path("mine.weights")), std::string("my own data"));
        QVERIFY(!QFile::exists(q(path("mine.onnx"))));
        // Writing the same model again replaces its own weights.
        auto again = runCli({s("zoo"), s("fig3-chain"), s("--out"), fig3_});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    }

    // 3. emit removes only files it wrote itself, never the manifest.
    void emitRemovesOnlyFilesItWrote() {
        QString out = q(path("kernels"));
        auto first = runCli({s("emit"), fig3_, s("--arch"), s("teaching"), s("--level"), s("lb"),
                             s("--target"), s("host"), s("--out"), out});
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        // The user's files, listed in a forged manifest with their real hashes.
        test::writeText(path("kernels") / "notes.ll", "; my notes\n");
        test::writeText(path("kernels") / "sc_k999_x1.o", "not ours");
        std::string manifest = test::readText(path("kernels") / "manifest.json");
        auto files = manifest.find("\"files\": {");
        QVERIFY(files != std::string::npos);
        manifest.insert(files + 10, "\n    \"manifest.json\": \"\",\n    \"notes.ll\": \"\",\n"
                                    "    \"sc_k999_x1.o\": \"0000\",");
        test::writeText(path("kernels") / "manifest.json", manifest);
        auto again = runCli({s("emit"), fig3_, s("--arch"), s("teaching"), s("--level"), s("lb"),
                             s("--target"), s("host"), s("--strategy"), s("tvm"), s("--out"), out});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QVERIFY(QFile::exists(out + s("/notes.ll")));
        QVERIFY(QFile::exists(out + s("/sc_k999_x1.o")));
        QVERIFY(QFile::exists(out + s("/manifest.json")));
        // The graphturbo kernels it wrote the first time are gone: 8 tvm kernels remain.
        QStringList objects = QDir(out).entryList({s("sc_k*.o")}, QDir::Files);
        QCOMPARE(objects.size(), 8 + 1);
    }

    void emitKeepsAKernelFileTheUserChanged() {
        QString out = q(path("changed"));
        QVERIFY(runCli({s("emit"), fig3_, s("--arch"), s("teaching"), s("--level"), s("lb"),
                        s("--ir"), s("--out"), out})
                    .exitCode == 0);
        QStringList irs = QDir(out).entryList({s("sc_k*.ll")}, QDir::Files);
        QVERIFY(!irs.isEmpty());
        test::writeText(path("changed") / irs.front().toStdString(), "; edited by hand\n");
        auto r = runCli({s("emit"), fig3_, s("--arch"), s("teaching"), s("--level"), s("lb"),
                         s("--strategy"), s("tvm"), s("--ir"), s("--out"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.err.contains(s("has changed since")));
        QCOMPARE(test::readText(path("changed") / irs.front().toStdString()),
                 std::string("; edited by hand\n"));
    }

    void emitRefusesAnotherProgramsManifest() {
        std::filesystem::create_directories(path("foreign"));
        test::writeText(path("foreign") / "manifest.json", "{\"name\": \"my-app\"}\n");
        auto r = runCli({s("emit"), fig3_, s("--arch"), s("teaching"), s("--level"), s("lb"),
                         s("--out"), q(path("foreign"))});
        QVERIFY(failed(r, 1, s("not a stagecraft-kernels manifest")));
        QVERIFY(!r.err.contains(s("compiled")));
        QCOMPARE(test::readText(path("foreign") / "manifest.json"),
                 std::string("{\"name\": \"my-app\"}\n"));
        QCOMPARE(QDir(q(path("foreign"))).entryList(QDir::Files).size(), 1);
    }

    void emitIntoAnImpossibleDirectoryFailsBeforeCompiling() {
        auto r = runCli({s("emit"), fig3_, s("--arch"), s("teaching"), s("--level"), s("lb"),
                         s("--out"), s("/dev/null/kernels")});
        QVERIFY(failed(r, 1, s("/dev/null/kernels: cannot create the directory")));
        QVERIFY(!r.err.contains(s("compiled")));
    }

    // 6. Inputs that are not regular files are refused before reading.
    void inputsThatAreNotRegularFilesAreRefused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        QString fifo = q(path("in-fifo"));
        QTest::newRow("inspect a FIFO") << QStringList{s("inspect"), fifo} << fifo;
        QTest::newRow("inspect /dev/zero")
            << QStringList{s("inspect"), s("/dev/zero")} << s("/dev/zero");
        QTest::newRow("arch /dev/zero") << QStringList{s("arch"), s("/dev/zero")} << s("/dev/zero");
        QTest::newRow("arch a FIFO") << QStringList{s("arch"), fifo} << fifo;
        QTest::newRow("overrides /dev/urandom")
            << QStringList{s("schedule"), s("zoo:fig3-chain"), s("--overrides"), s("/dev/urandom")}
            << s("/dev/urandom");
        QTest::newRow("inputs a FIFO")
            << QStringList{s("run"), s("zoo:fig3-chain"), s("--inputs"),
                           fifo,     s("--outputs"),      q(path("fifo-out.json"))}
            << fifo;
        QTest::newRow("reference /dev/zero") << QStringList{s("run"),
                                                            s("zoo:fig3-chain"),
                                                            s("--arch"),
                                                            s("teaching"),
                                                            s("--seeded"),
                                                            s("--outputs"),
                                                            q(path("ref-out.json")),
                                                            s("--reference"),
                                                            s("/dev/zero")}
                                             << s("/dev/zero");
        QTest::newRow("session /dev/zero")
            << QStringList{s("run"),      s("zoo:fig3-chain"), s("--session"),       s("/dev/zero"),
                           s("--seeded"), s("--outputs"),      q(path("s-out.json"))}
            << s("/dev/zero");
    }
    void inputsThatAreNotRegularFilesAreRefused() {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        if (!QFile::exists(q(path("in-fifo"))))
            QVERIFY(::mkfifo(path("in-fifo").c_str(), 0600) == 0);
        auto r = runCli(args, 20000);
        QVERIFY(failed(r, 1, named + s(": is a ")));
        QVERIFY(r.err.contains(s("not a regular file")));
    }

    void aSessionWhoseModelIsAFifoIsRefused() {
        if (!QFile::exists(q(path("model-fifo"))))
            QVERIFY(::mkfifo(path("model-fifo").c_str(), 0600) == 0);
        io::Session session;
        session.modelPath = path("model-fifo").string();
        session.modelSha256 = std::string(64, 'a');
        auto arch = arch::resolveArch("teaching");
        QVERIFY(arch.ok());
        session.arch = *arch;
        QVERIFY(io::saveSession(path("fifo.stagecraft"), session).ok());
        auto r = runCli({s("run"), q(path("fifo.stagecraft")), s("--seeded"), s("--outputs"),
                         q(path("f.json"))},
                        20000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(s("model-fifo: is a FIFO, not a regular file")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliHostileFiles)
#include "test_cli_hostile_files.moc"
