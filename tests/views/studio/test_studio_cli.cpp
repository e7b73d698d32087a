// stagecraft-studio as a program: --help and usage errors without a display,
// --screenshot of the real window (offscreen) on a zoo model and on the
// fetched PP-OCRv4 det model, the Compare view of int8 models, and the one-line errors and exit
// codes of a bad model, a directory, an unknown --select and a model with open dims.

#include "onnx/model_builder.h"
#include "studio_fixture.h"
#include "testsupport.h"
#include "zoo/zoo.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>

#include <set>

using namespace stagecraft;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

/// Runs stagecraft-studio (STAGECRAFT_STUDIO, set by CTest) without a display,
/// with \p cacheDir as its cache when given.
Run runStudio(const QStringList& args, const QString& cacheDir = {}) {
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!cacheDir.isEmpty())
        env.insert(QStringLiteral("STAGECRAFT_CACHE_DIR"), cacheDir);
    // Its settings (recent files) go to a directory of the suite's own.
    static QTemporaryDir config;
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    // Leaks are checked in-process by the other studio suites (same main
    // window); here an exit-time report from a system library would only
    // change the exit code under test.
    env.insert(QStringLiteral("ASAN_OPTIONS"),
               env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":detect_leaks=0"));
    process.setProcessEnvironment(env);
    process.start(qEnvironmentVariable("STAGECRAFT_STUDIO"), args);
    process.waitForFinished(300000);
    Run run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

/// stderr without Qt's own notes about the offscreen platform.
QStringList ourLines(const QString& err) {
    QStringList lines;
    const QStringList all = err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString& line : all)
        if (line.startsWith(QLatin1String("stagecraft-studio:")))
            lines << line;
    return lines;
}

/// How many shades a sample of \p image's pixels has (a blank image has one).
size_t shadesOf(const QImage& image) {
    std::set<QRgb> shades;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            shades.insert(image.pixel(x, y));
    return shades.size();
}

} // namespace

class TestStudioCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        model_ = test::writeZooModel(dir_, "fig3-chain");
    }

    void helpWithoutADisplay() {
        Run run = runStudio({QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith(QStringLiteral("Usage: stagecraft-studio")));
        QVERIFY(run.out.contains(QStringLiteral("--screenshot")));
    }

    void usageErrorExitsTwo() {
        Run run = runStudio({model_, QStringLiteral("--strategy"), QStringLiteral("fast")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(ourLines(run.err),
                 QStringList{QStringLiteral(
                     "stagecraft-studio: --strategy: unknown strategy 'fast' (expected tvm, "
                     "tvm-llb, astitch, dla, ago, ios, gt-gb, gt-lb, gt-instances, gt-paper or "
                     "graphturbo)")});
    }

    void unknownOverlayExitsTwoListingTheNames() {
        Run run = runStudio({model_, QStringLiteral("--color-by"), QStringLiteral("heat")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(ourLines(run.err),
                 QStringList{QStringLiteral(
                     "stagecraft-studio: --color-by: expected one of "
                     "groups, time, ddr, spills, split, unit, energy (got 'heat')")});
    }

    void unknownDrawingExitsTwoListingTheNames() {
        Run run = runStudio({model_, QStringLiteral("--draw-by"), QStringLiteral("layers")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(ourLines(run.err),
                 QStringList{QStringLiteral(
                     "stagecraft-studio: --draw-by: expected groups or names (got 'layers')")});
    }

    void unknownSelectionExitsOneNamingIt() {
        Run run =
            runStudio({model_, QStringLiteral("--arch"), QStringLiteral("teaching"),
                       QStringLiteral("--select"), QStringLiteral("nosuch"),
                       QStringLiteral("--screenshot"), dir_.filePath(QStringLiteral("n.png"))});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(ourLines(run.err),
                 QStringList{QStringLiteral(
                     "stagecraft-studio: --select: no op or instance named 'nosuch'")});
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("n.png"))));
    }

    void directoryIsNamedAsOne() {
        Run run = runStudio(
            {dir_.path(), QStringLiteral("--screenshot"), dir_.filePath(QStringLiteral("d.png"))});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(ourLines(run.err),
                 QStringList{QStringLiteral("stagecraft-studio: ") + dir_.path() +
                             QStringLiteral(": is a directory, not a model or session")});
    }

    // zoo:NAME is written once into the cache's zoo/ (no staging directory
    // left) and opened; an unknown name is one line listing the zoo.
    void zooModelIsWrittenToTheCacheAndOpened() {
        QString cache = dir_.filePath(QStringLiteral("cache"));
        QString png = dir_.filePath(QStringLiteral("zoo.png"));
        Run run = runStudio({QStringLiteral("zoo:fig2-blocks"), QStringLiteral("--arch"),
                             QStringLiteral("teaching"), QStringLiteral("--screenshot"), png},
                            cache);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(!QImage(png).isNull());
        QDir zoo(cache + QStringLiteral("/zoo"));
        QCOMPARE(zoo.entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 (QStringList{QStringLiteral("fig2-blocks-seq0-b0.v2.onnx"),
                              QStringLiteral("fig2-blocks-seq0-b0.v2.sha256"),
                              QStringLiteral("fig2-blocks-seq0-b0.v2.weights")}));
        Run unknown =
            runStudio({QStringLiteral("zoo:nosuch"), QStringLiteral("--screenshot"), png}, cache);
        QCOMPARE(unknown.exitCode, 1);
        QStringList lines = ourLines(unknown.err);
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].contains(QStringLiteral("zoo:nosuch: unknown model")) &&
                     lines[0].contains(QStringLiteral("resnet50")),
                 qPrintable(lines[0]));
    }

    void screenshotOfTheWindow() {
        QString png = dir_.filePath(QStringLiteral("window.png"));
        Run run = runStudio({model_, QStringLiteral("--arch"), QStringLiteral("teaching"),
                             QStringLiteral("--select"), QStringLiteral("a1"),
                             QStringLiteral("--screenshot"), png, QStringLiteral("--size"),
                             QStringLiteral("1000x700")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QImage image(png);
        QCOMPARE(image.size(), QSize(1000, 700));
    }

    void screenshotWithoutAModelShowsTheStartPage() {
        QString png = dir_.filePath(QStringLiteral("start.png"));
        Run run = runStudio({QStringLiteral("--screenshot"), png, QStringLiteral("--size"),
                             QStringLiteral("1200x800")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QImage image(png);
        QCOMPARE(image.size(), QSize(1200, 800));
        QVERIFY(shadesOf(image) > 3);
    }

    void screenshotOfOneViewOnPPOcr() {
        auto model = test::fetchedModel("ppocr/ch_PP-OCRv4_det_infer.onnx");
        QVERIFY(!model.empty());
        QString png = dir_.filePath(QStringLiteral("graph.png"));
        Run run = runStudio({QString::fromStdString(model.string()), QStringLiteral("--input"),
                             QStringLiteral("x:1x3x320x320"), QStringLiteral("--view"),
                             QStringLiteral("graph"), QStringLiteral("--screenshot"), png,
                             QStringLiteral("--size"), QStringLiteral("1200x800")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QImage image(png);
        // The whole view at --size, not the graph's dock at its docked size.
        QCOMPARE(image.size(), QSize(1200, 800));
        QVERIFY(shadesOf(image) > 3);
    }

    /// Every view, docked or central, is shot whole at --size.
    void screenshotOfAViewTakesItsSize_data() {
        QTest::addColumn<QString>("view");
        for (const char* view : {"graph", "costs", "inspector", "steps", "kernel"})
            QTest::newRow(view) << QString::fromLatin1(view);
    }
    void screenshotOfAViewTakesItsSize() {
        QFETCH(QString, view);
        QString png = dir_.filePath(view + QStringLiteral("-sized.png"));
        Run run = runStudio({model_, QStringLiteral("--arch"), QStringLiteral("teaching"),
                             QStringLiteral("--view"), view, QStringLiteral("--screenshot"), png,
                             QStringLiteral("--size"), QStringLiteral("700x400")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(QImage(png).size(), QSize(700, 400));
    }

    /// The kernel view renders its assembly (compiled before the shot); a
    /// bad pane name is a usage error.
    void screenshotOfTheKernelsAssembly() {
        QString png = dir_.filePath(QStringLiteral("kernel-asm.png"));
        Run run = runStudio({model_, QStringLiteral("--arch"), QStringLiteral("teaching"),
                             QStringLiteral("--view"), QStringLiteral("kernel"),
                             QStringLiteral("--kernel-pane"), QStringLiteral("assembly"),
                             QStringLiteral("--screenshot"), png});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(QImage(png).size(), QSize(1400, 900));
        Run bad = runStudio({model_, QStringLiteral("--kernel-pane"), QStringLiteral("c")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("--kernel-pane: expected loops, ir or assembly")),
                 qPrintable(bad.err));
    }

    /// A tour's step renders like a model; a bad tour or step is one line.
    void aTourStepRenders() {
        QString png = dir_.filePath(QStringLiteral("tour.png"));
        Run run = runStudio({QStringLiteral("--tour"), QStringLiteral("paper-figures"),
                             QStringLiteral("--tour-step"), QStringLiteral("3"),
                             QStringLiteral("--screenshot"), png});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(QImage(png).size(), QSize(1400, 900));
        Run unknown = runStudio({QStringLiteral("--tour"), QStringLiteral("nope"),
                                 QStringLiteral("--screenshot"), png});
        QCOMPARE(unknown.exitCode, 1);
        QCOMPARE(ourLines(unknown.err).size(), 1);
        QVERIFY(ourLines(unknown.err).front().contains(QStringLiteral("paper-figures")));
        Run beyond = runStudio({QStringLiteral("--tour"), QStringLiteral("paper-figures"),
                                QStringLiteral("--tour-step"), QStringLiteral("99"),
                                QStringLiteral("--screenshot"), png});
        QCOMPARE(beyond.exitCode, 1);
        QVERIFY2(beyond.err.contains(QStringLiteral("there is no step 99")),
                 qPrintable(beyond.err));
        Run alone = runStudio({QStringLiteral("--tour-step"), QStringLiteral("2")});
        QCOMPARE(alone.exitCode, 2);
    }

    /// An int8 model (zoo --precision i8 and i8-dynamic) opens, schedules
    /// and compares: every strategy of the Compare view on its integer ops.
    void screenshotOfCompareOnInt8Models_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("i8") << static_cast<int>(onnxio::Quantization::Static);
        QTest::newRow("i8-dynamic") << static_cast<int>(onnxio::Quantization::Dynamic);
    }
    void screenshotOfCompareOnInt8Models() {
        QFETCH(int, mode);
        zoo::ZooOptions options;
        options.quantization = static_cast<onnxio::Quantization>(mode);
        QString model = dir_.filePath(QStringLiteral("fig2-int8-%1.onnx").arg(mode));
        auto written = zoo::writeZooModel("fig2-blocks", options, model.toStdString());
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message().c_str());
        QString png = dir_.filePath(QStringLiteral("compare-int8.png"));
        Run run = runStudio({model, QStringLiteral("--view"), QStringLiteral("compare"),
                             QStringLiteral("--screenshot"), png, QStringLiteral("--size"),
                             QStringLiteral("1200x800")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(ourLines(run.err).isEmpty(), qPrintable(run.err));
        QImage image(png);
        QCOMPARE(image.size(), QSize(1200, 800));
        QVERIFY(shadesOf(image) > 3);
    }

    void screenshotOfTheStepThroughAtAStep() {
        // fig3-chain's Algorithm 3 steps; the panel alone, at step 26.
        QString png = dir_.filePath(QStringLiteral("steps.png"));
        Run run =
            runStudio({model_, QStringLiteral("--arch"), QStringLiteral("teaching"),
                       QStringLiteral("--step"), QStringLiteral("26"), QStringLiteral("--view"),
                       QStringLiteral("steps"), QStringLiteral("--screenshot"), png,
                       QStringLiteral("--size"), QStringLiteral("900x600")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QImage image(png);
        QCOMPARE(image.size(), QSize(900, 600));
        // Not a blank panel: text was drawn in more than one shade.
        QVERIFY(shadesOf(image) > 3);
    }

    void badModelExitsOneWithOneLine() {
        QString bad = dir_.filePath(QStringLiteral("missing.onnx"));
        Run run = runStudio(
            {bad, QStringLiteral("--screenshot"), dir_.filePath(QStringLiteral("x.png"))});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(ourLines(run.err), QStringList{QStringLiteral("stagecraft-studio: ") + bad +
                                                QStringLiteral(": no such file")});
    }

    void unboundDimIsNamed() {
        auto model = test::fetchedModel("ppocr/ch_PP-OCRv4_det_infer.onnx");
        QVERIFY(!model.empty());
        Run run = runStudio({QString::fromStdString(model.string()), QStringLiteral("--screenshot"),
                             dir_.filePath(QStringLiteral("y.png"))});
        QCOMPARE(run.exitCode, 1);
        QStringList lines = ourLines(run.err);
        QCOMPARE(lines.size(), 1);
        // Every open dim at once (batch, height, width), not one per attempt.
        for (const char* dim :
             {"'p2o.DynamicDimension.0'", "'p2o.DynamicDimension.1'", "'p2o.DynamicDimension.2'"})
            QVERIFY2(lines.front().contains(QLatin1String(dim)), qPrintable(lines.front()));
    }

private:
    QTemporaryDir dir_;
    QString model_;
};

QTEST_MAIN(TestStudioCli)
#include "test_studio_cli.moc"
