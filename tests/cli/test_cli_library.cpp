// The model library as a user takes it away (docs/codegen.md, "The model
// library"): `stagecraft emit` writes it, plain gcc builds it with its
// Makefile or CMakeLists.txt (the host) and riscv64-linux-gnu-gcc with its
// Makefile (run under qemu-riscv64), no Stagecraft code or process involved
// after the emission, and the example program's outputs on seeded inputs
// equal ONNX Runtime's within 1e-5 (normwise relative error). MobileNet-v2
// and ResNet-50 (zoo, seeded weights) and PP-OCRv4 rec (third party);
// ResNet-50 under qemu only with STAGECRAFT_SLOW_CHECKS set
// (scripts/check-library).

#include "cli_helpers.h"
#include "codegen/tensors.h"
#include "support/file.h"

#include <QProcess>
#include <QtTest>

using namespace stagecraft;
using test::q;
using test::s;

namespace {

/// The normwise relative error the library's outputs may have against
/// ONNX Runtime's (docs/codegen.md, "Checking against ONNX Runtime").
constexpr double kTolerance = 1e-5;

struct Model {
    QString name;
    /// A zoo name, or a file under the fetched models.
    QString zoo;
    std::string fetched;
    QStringList bindings;
};

} // namespace

Q_DECLARE_METATYPE(Model)

namespace {

/// Runs \p program with \p args in \p dir; warns with its output on failure.
bool runTool(const QString& program, const QStringList& args, const QString& dir,
             const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
             int timeoutMs = 600000) {
    QProcess process;
    process.setWorkingDirectory(dir);
    process.setProcessEnvironment(environment);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, args);
    bool finished = process.waitForFinished(timeoutMs);
    if (finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0)
        return true;
    qWarning().noquote() << program << args.join(QLatin1Char(' '))
                         << "failed:" << QString::fromUtf8(process.readAll()).left(2000);
    return false;
}

bool onPath(const char* tool) {
    return !QStandardPaths::findExecutable(QString::fromUtf8(tool)).isEmpty();
}

Expected<codegen::TensorSet> readTensors(const QString& path) {
    SC_ASSIGN_OR_RETURN(std::string text, readFile(path.toStdString()));
    return codegen::readTensorsJson(text, path.toStdString());
}

/// Every output of \p actual within kTolerance of \p expected's.
bool sameOutputs(const QString& actualPath, const QString& expectedPath) {
    Expected<codegen::TensorSet> actual = readTensors(actualPath);
    Expected<codegen::TensorSet> expected = readTensors(expectedPath);
    if (!actual.ok() || !expected.ok() || actual->size() != expected->size() || actual->empty()) {
        qWarning() << "cannot compare" << actualPath << "with" << expectedPath;
        return false;
    }
    for (const codegen::HostTensor& e : *expected) {
        const codegen::HostTensor* a = codegen::findTensor(*actual, e.name);
        codegen::Difference d =
            a ? codegen::compareTensors(*a, e) : codegen::Difference{0, 0, -1, "missing"};
        qInfo("%s: relative error %.3g", e.name.c_str(), d.relative);
        if (!d.mismatch.empty() || d.relative > kTolerance) {
            qWarning("%s: %s relative error %.3g", e.name.c_str(), d.mismatch.c_str(), d.relative);
            return false;
        }
    }
    return true;
}

} // namespace

class TestCliLibrary : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }

    /// The model file of \p m (written from the zoo, or the fetched one),
    /// or empty when a fetched model is missing (skipped).
    QString modelFile(const Model& m) {
        if (m.zoo.isEmpty())
            return q(test::fetchedModel(m.fetched));
        QString file = path(m.name + s(".onnx"));
        if (!QFile::exists(file)) {
            test::CliResult r =
                test::runCli({s("zoo"), m.zoo, s("--out"), file, s("--weights"), s("seeded")});
            if (r.exitCode != 0)
                qWarning().noquote() << r.err;
        }
        return file;
    }

    /// Seeded inputs of \p m and ONNX Runtime's outputs on them.
    bool prepare(const Model& m, const QString& model) {
        const QString inputs = path(m.name + s(".inputs.json"));
        if (QFile::exists(path(m.name + s(".ort.json"))))
            return true;
        test::CliResult r =
            test::runCli(QStringList{s("run"), model, s("--seeded"), s("--save-inputs"), inputs,
                                     s("--outputs"), path(m.name + s(".stagecraft.json"))} +
                         m.bindings);
        if (r.exitCode != 0) {
            qWarning().noquote() << r.err;
            return false;
        }
        return runTool(s("node"),
                       {s(STAGECRAFT_SOURCE_DIR "/tests/oracle/run-model.js"), model, inputs,
                        path(m.name + s(".ort.json"))},
                       dir_.path());
    }

    /// Emits \p m's library for \p target into a new folder; returns it.
    QString emitLibrary(const Model& m, const QString& model, const QString& target) {
        const QString out = path(m.name + s("-") + target);
        test::CliResult r = test::runCli(
            QStringList{s("emit"), model, s("--target"), target, s("--out"), out} + m.bindings,
            600000);
        if (r.exitCode != 0)
            qWarning().noquote() << r.err;
        // The manifest follows the JSON Schema the package ships.
        const bool valid =
            r.exitCode == 0 &&
            runTool(s(STAGECRAFT_SOURCE_DIR "/tests/packaging/check-manifest-schema"),
                    {s(STAGECRAFT_SOURCE_DIR "/packaging/schema/stagecraft-kernels.schema.json"),
                     out + s("/manifest.json")},
                    dir_.path());
        return valid ? out : QString();
    }

    void data() {
        QTest::addColumn<Model>("model");
        QTest::newRow("mobilenet-v2") << Model{s("mobilenet-v2"), s("mobilenet-v2"), {}, {}};
        QTest::newRow("resnet50") << Model{s("resnet50"), s("resnet50"), {}, {}};
        QTest::newRow("ppocrv4-rec") << Model{s("ppocrv4-rec"),
                                              {},
                                              "ppocr/ch_PP-OCRv4_rec_infer.onnx",
                                              {s("--input"), s("x:1x3x48x320")}};
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        if (!onPath("node") || !onPath("make") || !onPath("gcc"))
            QSKIP("needs node (scripts/setup-oracle), make and gcc (scripts/setup-deps)");
    }

    void hostLibraryBuiltWithGccEqualsOnnxRuntime_data() { data(); }
    void hostLibraryBuiltWithGccEqualsOnnxRuntime() {
        QFETCH(Model, model);
        const QString file = modelFile(model);
        if (file.isEmpty())
            QSKIP("third-party model not fetched (scripts/fetch-models)");
        QVERIFY(prepare(model, file));
        const QString lib = emitLibrary(model, file, s("host"));
        QVERIFY(!lib.isEmpty());
        QVERIFY(QDir(lib).entryList({s("*.ll")}).isEmpty()); // .ll only with --ir
        QVERIFY(runTool(s("make"), {s("-s"), s("CC=gcc")}, lib));
        const QString outputs = path(model.name + s(".host.json"));
        QVERIFY(runTool(lib + s("/example"),
                        {lib + s("/weights.bin"), path(model.name + s(".inputs.json")), outputs},
                        lib));
        QVERIFY(sameOutputs(outputs, path(model.name + s(".ort.json"))));
    }

    /// The same library through its CMakeLists.txt, the way a CMake project
    /// takes it in.
    void cmakeBuildsTheLibraryToo() {
        Model model{s("mobilenet-v2"), s("mobilenet-v2"), {}, {}};
        const QString file = modelFile(model);
        QVERIFY(prepare(model, file));
        const QString lib = emitLibrary(model, file, s("host"));
        QVERIFY(!lib.isEmpty());
        QVERIFY(runTool(s("cmake"),
                        {s("-S"), lib, s("-B"), lib + s("/build"), s("-G"), s("Unix Makefiles")},
                        lib));
        QVERIFY(runTool(s("cmake"), {s("--build"), lib + s("/build")}, lib));
        const QString outputs = path(s("cmake.json"));
        QVERIFY(runTool(lib + s("/build/example"),
                        {lib + s("/weights.bin"), path(model.name + s(".inputs.json")), outputs},
                        lib));
        QVERIFY(sameOutputs(outputs, path(model.name + s(".ort.json"))));
    }

    void riscvLibraryUnderQemuEqualsOnnxRuntime_data() { data(); }
    void riscvLibraryUnderQemuEqualsOnnxRuntime() {
        if (!onPath("riscv64-linux-gnu-gcc") || !onPath("qemu-riscv64"))
            QSKIP("needs gcc-riscv64-linux-gnu and qemu-user (scripts/setup-deps)");
        QFETCH(Model, model);
        // One ResNet-50 inference takes about 4 minutes under qemu on two
        // cores: scripts/check-library runs that row.
        if (model.name == s("resnet50") && qEnvironmentVariableIsEmpty("STAGECRAFT_SLOW_CHECKS"))
            QSKIP("ResNet-50 under qemu runs in scripts/check-library");
        const QString file = modelFile(model);
        if (file.isEmpty())
            QSKIP("third-party model not fetched (scripts/fetch-models)");
        QVERIFY(prepare(model, file));
        const QString lib = emitLibrary(model, file, s("riscv64"));
        QVERIFY(!lib.isEmpty());
        QVERIFY(runTool(s("make"),
                        {s("-s"), s("CC=riscv64-linux-gnu-gcc"), s("AR=riscv64-linux-gnu-ar"),
                         s("LDFLAGS=-static")},
                        lib));
        const QString outputs = path(model.name + s(".riscv.json"));
        QVERIFY(runTool(s("qemu-riscv64"),
                        {s("-cpu"), s("rv64,v=true,vlen=256"), lib + s("/example"),
                         lib + s("/weights.bin"), path(model.name + s(".inputs.json")), outputs},
                        lib));
        QVERIFY(sameOutputs(outputs, path(model.name + s(".ort.json"))));
    }
};

QTEST_GUILESS_MAIN(TestCliLibrary)
#include "test_cli_library.moc"
