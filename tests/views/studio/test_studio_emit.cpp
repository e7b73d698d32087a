// The studio's "Emit Kernels…": the shown schedule's kernels are emitted off
// the GUI thread with progress, the files match `stagecraft emit`'s (a .ll
// and .o per kernel of the shown result, manifest.json with the strategy),
// a second request while one runs is refused, cancelling writes nothing, and
// without a model there is nothing to emit.

#include "studio/kernel_emitter.h"
#include "studio_fixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace stagecraft;

class TestStudioEmit : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString model_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        model_ = test::writeZooModel(dir_, "fig3-chain");
    }

    void emitsTheShownSchedule() {
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("teaching"));
        QVERIFY(window.openModel(model_));
        QVERIFY(test::waitForResult(window));
        QSignalSpy emitted(&window, &studio::MainWindow::kernelsEmitted);
        QSignalSpy progress(window.kernelEmitter(), &studio::KernelEmitter::progress);
        QString out = dir_.filePath(QStringLiteral("kernels"));
        QVERIFY(window.emitKernels(out, QStringLiteral("riscv64")));
        QVERIFY(!window.emitKernels(out, QStringLiteral("riscv64"))); // one at a time
        QVERIFY(emitted.wait(120000));
        size_t kernels = window.result()->eval.program.kernels.size();
        // The count from the object cache depends on what ran before.
        QString summary = emitted.first().first().toString();
        QVERIFY2(
            summary.startsWith(QStringLiteral("Emitted the model library of %1 kernels for riscv64 "
                                              "(O2) into %2 (")
                                   .arg(kernels)
                                   .arg(out)) &&
                summary.endsWith(QStringLiteral(" from the object cache)")),
            qPrintable(summary));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(), static_cast<int>(kernels));
        QFile file(out + QStringLiteral("/manifest.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject manifest = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(manifest[QStringLiteral("strategy")].toString(), QStringLiteral("graphturbo"));
        QCOMPARE(manifest[QStringLiteral("kernels")].toArray().size(), static_cast<int>(kernels));
        // A .ll and .o per kernel, the manifest and the model library:
        // weights.bin, model.h, model.c, example.c, CMakeLists.txt, Makefile.
        QCOMPARE(QDir(out).entryList(QDir::Files).size(), static_cast<int>(2 * kernels + 7));
        QCOMPARE(manifest[QStringLiteral("kind")].toString(), QStringLiteral("library"));
        QVERIFY(QFile::exists(out + QStringLiteral("/runtime/sc_runtime.c")));
    }

    void cancellingWritesNothing() {
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("teaching"));
        QVERIFY(window.openModel(model_));
        QVERIFY(test::waitForResult(window));
        QSignalSpy failed(&window, &studio::MainWindow::failed);
        QString out = dir_.filePath(QStringLiteral("cancelled"));
        QVERIFY(window.emitKernels(out, QStringLiteral("host")));
        window.kernelEmitter()->cancel();
        QVERIFY(failed.wait(120000));
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("cancelled")),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(!QFile::exists(out + QStringLiteral("/manifest.json")));
    }

    void nothingToEmitWithoutAModel() {
        studio::MainWindow window;
        window.setInteractive(false);
        QVERIFY(!window.emitKernels(dir_.filePath(QStringLiteral("none")), QStringLiteral("host")));
        QVERIFY(window.lastError().contains(QStringLiteral("no model is open")));
    }
};

QTEST_MAIN(TestStudioEmit)
#include "test_studio_emit.moc"
