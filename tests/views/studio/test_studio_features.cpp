// The studio's services around the document: the start page, autosave and
// crash recovery, every export kind (written, deterministic), the status-bar
// figures with deltas and the command line's errors.

#include "costs/group_overlay.h"
#include "studio/autosave.h"
#include "studio/recovery_dialog.h"
#include "studio/session_document.h"
#include "studio/start_page.h"
#include "studio/status_figures.h"
#include "studio/studio_option_table.h"
#include "studio/studio_options.h"
#include "studio/studio_view.h"
#include "studio_fixture.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QUndoStack>

#include <map>
#include <sys/stat.h>

using namespace stagecraft;

namespace {

/// One colour everywhere: nothing was drawn.
bool isBlank(const QImage& image) {
    const QRgb first = image.pixel(0, 0);
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            if (image.pixel(x, y) != first)
                return false;
    return true;
}

QByteArray fileBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestStudioFeatures : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QDir(studio::Autosave::directory()).removeRecursively();
        QVERIFY(dir_.isValid());
        model_ = test::writeZooModel(dir_, "fig3-chain");
    }

    // Before a model is open the window offers Open and the zoo; a click on a
    // zoo model opens it and the graph takes the start page's place.
    void theStartPageOpensAZooModel() {
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("teaching"));
        window.resize(1200, 800);
        window.show();
        auto* central = qobject_cast<QStackedWidget*>(window.centralWidget());
        QVERIFY(central);
        auto* start = window.findChild<studio::StartPage*>();
        QVERIFY(start);
        QCOMPARE(central->currentWidget(), start);
        QVERIFY(start->findChild<QPushButton*>(QStringLiteral("startOpen")));
        for (const QString& path : studio::StartPage::suggestedModels()) {
            auto* button = start->findChild<QPushButton*>(QStringLiteral("start-") + path.mid(4));
            QVERIFY2(button && button->text().startsWith(path.mid(4)), qPrintable(path));
        }
        QTest::mouseClick(start->findChild<QPushButton*>(QStringLiteral("start-fig3-chain")),
                          Qt::LeftButton);
        QVERIFY(test::waitForResult(window));
        QVERIFY(central->currentWidget() != start);
        const std::string opened = window.document()->session().modelPath;
        QVERIFY2(opened.find("fig3-chain") != std::string::npos, opened.c_str());
    }

    // A paper figure's zoo model opens in its figure's setup and says so:
    // fig3-chain on teaching at the LB level, the four stages in 8, 4, 2 and
    // 1 instances (Fig. 6), whatever the defaults were; --arch or --level
    // (setSetupFixed) keep the defaults.
    void aFigureOpensInItsSetup() {
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("stcp920"));
        QVERIFY(window.openPath(QStringLiteral("zoo:fig3-chain")));
        QVERIFY(test::waitForResult(window));
        const io::Session& session = window.document()->session();
        QCOMPARE(QString::fromStdString(session.arch.name), QStringLiteral("teaching"));
        QVERIFY(session.level == schedule::Level::LB);
        std::map<std::string, int> perGroup;
        const schedule::Schedule& schedule = window.result()->eval.schedule;
        for (const schedule::Instance& instance : schedule.instances)
            ++perGroup[partition::Partition::label(instance.group)];
        QCOMPARE(perGroup, (std::map<std::string, int>{{"a", 8}, {"b", 4}, {"c", 2}, {"d", 1}}));
        const QString said = window.statusBar()->currentMessage();
        QVERIFY2(said.contains(QStringLiteral("paper's setup")) &&
                     said.contains(QStringLiteral("8, 4, 2 and 1")),
                 qPrintable(said));

        studio::MainWindow fixed;
        fixed.setInteractive(false);
        fixed.setDefaults(test::testDefaults("stcp920"));
        fixed.setSetupFixed(true);
        QVERIFY(fixed.openPath(QStringLiteral("zoo:fig3-chain")));
        QVERIFY(test::waitForResult(fixed));
        QCOMPARE(QString::fromStdString(fixed.document()->session().arch.name),
                 QStringLiteral("stcp920"));
        QVERIFY(!fixed.statusBar()->currentMessage().contains(QStringLiteral("paper's setup")));
    }

    void autosaveAndRecovery() {
        io::Session edited;
        {
            studio::MainWindow window;
            window.setInteractive(false);
            window.setDefaults(test::testDefaults("teaching"));
            QVERIFY(window.openModel(model_));
            QVERIFY(test::waitForResult(window));
            io::Session next = window.document()->session();
            next.overrides.scopes.push_back(
                {window.result()->graph->tensor(window.result()->graph->outputs()[0]).name,
                 schedule::Scope::DDR});
            next.strategy = "gt-instances";
            window.tryChange(QStringLiteral("strategy"), next);
            QVERIFY(test::waitForEdit(window, nullptr));
            edited = window.document()->session();
            studio::Autosave autosave(window.document());
            QVERIFY(autosave.saveNow());
            // Pretend the process died: its file is renamed to a pid that does not run.
            QVERIFY(QFile::rename(autosave.filePath(),
                                  studio::Autosave::directory() +
                                      QStringLiteral("/session-999999999.stagecraft")));
            window.document()->undoStack()->setClean();
        }
        const QStringList orphans = studio::Autosave::orphans();
        QCOMPARE(orphans.size(), 1);
        studio::MainWindow recovered;
        recovered.setInteractive(false);
        QVERIFY(recovered.recoverSession(orphans.front()));
        QVERIFY(test::waitForResult(recovered));
        QVERIFY(recovered.document()->session() == edited);
        QVERIFY(recovered.document()->isModified());
        QVERIFY(recovered.document()->filePath().isEmpty());
        QVERIFY(studio::Autosave::orphans().isEmpty());
        recovered.document()->undoStack()->setClean();
    }

    void everyOrphanIsOfferedInOneDialog() {
        QDir().mkpath(studio::Autosave::directory());
        QStringList planted;
        for (int i = 0; i < 30; ++i) {
            QString path = studio::Autosave::directory() +
                           QStringLiteral("/session-%1.stagecraft").arg(999999000 + i);
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(i == 0 ? QByteArray("{not a session") : QByteArray("{}"));
            planted << path;
        }
        const QStringList orphans = studio::Autosave::orphans();
        QCOMPARE(orphans.size(), 30);
        studio::RecoveryDialog dialog(orphans);
        QCOMPARE(dialog.rows().size(), 30);
        QVERIFY2(dialog.rows().front().contains(QStringLiteral("unreadable")),
                 qPrintable(dialog.rows().front()));
        QCOMPARE(dialog.chosen(), orphans.front());
        dialog.discardAll();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(studio::Autosave::orphans().isEmpty());
        for (const QString& path : planted)
            QVERIFY(!QFile::exists(path));
    }

    void everyExportIsWrittenAndDeterministic_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QByteArray>("starts");
        QTest::newRow("schedule") << QStringLiteral("schedule") << QByteArray("{");
        QTest::newRow("dot") << QStringLiteral("dot") << QByteArray("digraph");
        QTest::newRow("trace") << QStringLiteral("trace") << QByteArray("{");
        QTest::newRow("csv") << QStringLiteral("csv") << QByteArray("strategy");
        QTest::newRow("breakdown") << QStringLiteral("breakdown") << QByteArray("level,name");
        QTest::newRow("graph-svg") << QStringLiteral("graph-svg") << QByteArray("<?xml");
        QTest::newRow("instances-svg") << QStringLiteral("instances-svg") << QByteArray("<?xml");
        QTest::newRow("graph-png") << QStringLiteral("graph-png") << QByteArray("\x89PNG");
        QTest::newRow("instances-png") << QStringLiteral("instances-png") << QByteArray("\x89PNG");
        for (const char* dock : {"time-png", "costs-png", "compare-png", "diff-png", "steps-png"})
            QTest::newRow(dock) << QString::fromLatin1(dock) << QByteArray("\x89PNG");
    }

    void everyExportIsWrittenAndDeterministic() {
        QFETCH(QString, kind);
        QFETCH(QByteArray, starts);
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("teaching"));
        QVERIFY(window.openModel(model_));
        QVERIFY(test::waitForResult(window));
        QTRY_VERIFY_WITH_TIMEOUT(window.viewsSettled(), 30000);
        QString first = dir_.filePath(QStringLiteral("first-") + kind);
        QString second = dir_.filePath(QStringLiteral("second-") + kind);
        QCOMPARE(window.exportTo(kind, first), QString());
        QCOMPARE(window.exportTo(kind, second), QString());
        QByteArray bytes = fileBytes(first);
        QVERIFY2(bytes.startsWith(starts), bytes.left(40).constData());
        if (!kind.endsWith(QLatin1String("png")))
            QCOMPARE(fileBytes(second), bytes);
        else
            QVERIFY(!QImage(first).isNull() && !isBlank(QImage(first)));
        QString error = window.exportTo(kind, QStringLiteral("/nonexistent-dir/x"));
        QVERIFY(!error.isEmpty());
        // A device is never replaced by an export (docs/limits.md).
        error = window.exportTo(kind, QStringLiteral("/dev/null"));
        QVERIFY2(error.contains(QStringLiteral("is a character device")), qPrintable(error));
        struct stat info {};
        QVERIFY(::stat("/dev/null", &info) == 0 && S_ISCHR(info.st_mode));
    }

    // An export kind the window does not know is refused by name and writes
    // nothing (it used to fall through to the CSV report).
    void anUnknownExportKindIsRefused() {
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("teaching"));
        QVERIFY(window.openModel(model_));
        QVERIFY(test::waitForResult(window));
        QString path = dir_.filePath(QStringLiteral("unknown-kind"));
        QString error = window.exportTo(QStringLiteral("report-pdf"), path);
        QCOMPARE(error, QStringLiteral("unknown export kind 'report-pdf'"));
        QVERIFY(!QFileInfo::exists(path));
    }

    void figuresShowDeltas() {
        sim::Report before;
        before.strategy = "graphturbo";
        before.level = "LB";
        before.latencyUs = 2910;
        before.trafficBytes = {4'900'000'000, 0, 0};
        before.kernels = 15;
        sim::Report now = before;
        before.spills = 14;
        before.efficiency = 0.52;
        now.latencyUs = 2790;
        now.kernels = 17;
        now.spills = 11;
        now.efficiency = 0.55;
        QString text = studio::figuresText(now, &before);
        QVERIFY2(text.contains(QStringLiteral("11 spills (−3)")), qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral("55% of roofline (+3 pt)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("latency 2.79 ms (−120.0 µs)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("17 kernels (+2)")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("DDR 4.90 GB (")), qPrintable(text));
        QString alone = studio::figuresText(now, nullptr);
        QVERIFY(!alone.contains(QLatin1Char('(')));
        now.efficiency = 0.004;
        QVERIFY(studio::figuresText(now, nullptr).endsWith(QStringLiteral("<1% of roofline")));
        now.efficiency = 0.08;
        QVERIFY(studio::figuresText(now, nullptr).endsWith(QStringLiteral(" 8% of roofline")));
        now.level.clear(); // a strategy that tunes no level: no empty field
        now.strategy = "ago";
        QVERIFY2(studio::figuresText(now, nullptr).startsWith(QStringLiteral("ago · latency ")),
                 qPrintable(studio::figuresText(now, nullptr)));
    }

    void commandLineErrors_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        auto args = [](std::initializer_list<const char*> list) {
            QStringList out{QStringLiteral("stagecraft-studio")};
            for (const char* a : list)
                out << QString::fromUtf8(a);
            return out;
        };
        QTest::newRow("arch") << args({"--arch", "nope"}) << QStringLiteral("nope");
        QTest::newRow("strategy") << args({"--strategy", "fast"}) << QStringLiteral("--strategy");
        QTest::newRow("level") << args({"--level", "l3"}) << QStringLiteral("--level");
        QTest::newRow("view") << args({"m.onnx", "--view", "x"}) << QStringLiteral("--view");
        QTest::newRow("size") << args({"m.onnx", "--size", "9"}) << QStringLiteral("--size");
        QTest::newRow("a view without a model")
            << args({"--screenshot", "a.png", "--view", "graph"})
            << QStringLiteral("--view graph needs a model");
        QTest::newRow("dim") << args({"--dim", "batch"}) << QStringLiteral("batch");
        QTest::newRow("two models") << args({"a.onnx", "b.onnx"}) << QStringLiteral("one model");
        QTest::newRow("show") << args({"m.onnx", "--show", "time,nope"})
                              << QStringLiteral("--show: unknown view 'nope'");
        QTest::newRow("diff-with") << args({"m.onnx", "--diff-with", "fast"})
                                   << QStringLiteral("--diff-with: unknown strategy");
        QTest::newRow("step zero") << args({"m.onnx", "--step", "0"}) << QStringLiteral("--step");
        QTest::newRow("step text") << args({"m.onnx", "--step", "two"}) << QStringLiteral("--step");
        QTest::newRow("auto without a batch")
            << args({"m.onnx", "--per-cluster", "auto"})
            << QStringLiteral("--per-cluster auto needs --batch N");
        QTest::newRow("per-cluster text")
            << args({"m.onnx", "--per-cluster", "many"}) << QStringLiteral("--per-cluster");
        QTest::newRow("seq zero") << args({"m.onnx", "--seq", "0"}) << QStringLiteral("--seq");
    }

    void commandLineErrors() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        auto parsed = studio::parseStudioOptions(arguments);
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.contains(error), qPrintable(parsed.error));
    }

    void commandLineDefaults() {
        auto parsed = studio::parseStudioOptions(
            {QStringLiteral("stagecraft-studio"), QStringLiteral("m.onnx"),
             QStringLiteral("--arch"), QStringLiteral("teaching"), QStringLiteral("--level"),
             QStringLiteral("gb"), QStringLiteral("--dim"), QStringLiteral("batch=4")});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QCOMPARE(parsed.options->open, QStringLiteral("m.onnx"));
        QCOMPARE(QString::fromStdString(parsed.options->defaults.arch.name),
                 QStringLiteral("teaching"));
        QVERIFY(parsed.options->defaults.level == schedule::Level::GB);
        QCOMPARE(parsed.options->defaults.dims.at("batch"), int64_t{4});
        QCOMPARE(parsed.options->view, QStringLiteral("window"));
        QCOMPARE(parsed.options->step, 0);
        QVERIFY(parsed.options->show.isEmpty());
        QVERIFY(parsed.options->setupFixed);
        auto plain = studio::parseStudioOptions(
            {QStringLiteral("stagecraft-studio"), QStringLiteral("zoo:fig3-chain")});
        QVERIFY2(plain.options, qPrintable(plain.error));
        QVERIFY(!plain.options->setupFixed);
    }

    // --help is made from the table of options: every entry is in it.
    void commandLineHelpListsTheTable() {
        auto parsed = studio::parseStudioOptions(
            {QStringLiteral("stagecraft-studio"), QStringLiteral("--help")});
        QVERIFY(parsed.exitNow);
        for (const studio::StudioOptionSpec& spec : studio::studioOptionTable()) {
            QVERIFY2(parsed.error.contains(QStringLiteral("--") + spec.name),
                     qPrintable(spec.name));
            // --view and --color-by list every name they accept.
            QStringList names;
            if (spec.name == QStringLiteral("view"))
                names = studio::studioViewNames();
            if (spec.name == QStringLiteral("color-by"))
                names = views::groupOverlayNames();
            for (const QString& name : std::as_const(names))
                QVERIFY2(
                    spec.help.contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(name))),
                    qPrintable(spec.name + QStringLiteral(": ") + name));
        }
        auto axes = studio::parseStudioOptions(
            {QStringLiteral("stagecraft-studio"), QStringLiteral("--sweep"), QStringLiteral("d"),
             QStringLiteral("--sweep-axes"), QStringLiteral("energy_mj,latency_ms")});
        QVERIFY2(axes.options, qPrintable(axes.error));
        QCOMPARE(axes.options->sweepAxes,
                 (QStringList{QStringLiteral("energy_mj"), QStringLiteral("latency_ms")}));
        for (const char* bad : {"energy_mj", "a,,b", "a,b,c,d"}) {
            auto refused = studio::parseStudioOptions(
                {QStringLiteral("stagecraft-studio"), QStringLiteral("--sweep"),
                 QStringLiteral("d"), QStringLiteral("--sweep-axes"), QLatin1String(bad)});
            QVERIFY2(refused.error.startsWith(QStringLiteral("--sweep-axes: expected")), bad);
        }
        auto alone = studio::parseStudioOptions({QStringLiteral("stagecraft-studio"),
                                                 QStringLiteral("--sweep-axes"),
                                                 QStringLiteral("energy_mj,latency_ms")});
        QCOMPARE(alone.error, QStringLiteral("--sweep-axes needs --sweep DIR"));
        auto batch = studio::parseStudioOptions(
            {QStringLiteral("stagecraft-studio"), QStringLiteral("zoo:resnet50"),
             QStringLiteral("--batch"), QStringLiteral("64"), QStringLiteral("--per-cluster"),
             QStringLiteral("auto")});
        QVERIFY2(batch.options, qPrintable(batch.error));
        QVERIFY(batch.options->defaults.batch == (schedule::BatchChoice{64, std::nullopt, true}));
        QVERIFY(batch.options->batchFixed && !batch.options->setupFixed);
    }

    void commandLineAnalysisOptions() {
        auto parsed = studio::parseStudioOptions(
            {QStringLiteral("stagecraft-studio"), QStringLiteral("m.onnx"),
             QStringLiteral("--show"), QStringLiteral("time,steps"), QStringLiteral("--step"),
             QStringLiteral("12"), QStringLiteral("--diff-with"), QStringLiteral("tvm"),
             QStringLiteral("--view"), QStringLiteral("occupancy")});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QCOMPARE(parsed.options->show,
                 QStringList({QStringLiteral("time"), QStringLiteral("steps")}));
        QCOMPARE(parsed.options->step, 12);
        QCOMPARE(parsed.options->diffWith, QStringLiteral("tvm"));
        QCOMPARE(parsed.options->view, QStringLiteral("occupancy"));
    }

private:
    QTemporaryDir dir_;
    QString model_;
};

QTEST_MAIN(TestStudioFeatures)
#include "test_studio_features.moc"
