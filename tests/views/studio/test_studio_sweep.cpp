// File → Open Sweep on a sweep the real CLI ran: the table holds every
// record, the plot's Pareto front is exactly the points no other beats on
// both columns, selecting in the plot selects the table row, a double click
// opens the point in the main window with its architecture variant,
// strategy and batch, a directory without a sweep is refused with the file
// named, and `--sweep DIR --screenshot` renders the window. Energy and EDP
// are axes like latency; without an energy table they read "—", never 0;
// --sweep-axes picks the plotted columns.

#include "studio/session_document.h"
#include "studio_fixture.h"
#include "sweeps/sweep_scatter.h"
#include "sweeps/sweep_window.h"

#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace stagecraft;

namespace {

/// 2 gb_bytes × 2 clusters × 2 strategies of fig3-chain: 8 points.
const char* kSpec = R"({"models": ["zoo:fig3-chain"],
  "arch": {"vary": {"gb_bytes": [16384, 8388608], "clusters": [1, 4]}},
  "strategies": ["tvm", "graphturbo"], "precisions": ["f16"], "per_cluster": [2]})";

} // namespace

class TestStudioSweep : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString sweep_;
    std::unique_ptr<studio::MainWindow> window_;

    /// The sweep window, opened on the sweep when not open yet.
    views::SweepWindow* sweepWindow() {
        if (!window_->sweepWindow() && !window_->openSweep(sweep_))
            qWarning("%s", qPrintable(window_->lastError()));
        return window_->sweepWindow();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // Zoo models a point opens are written to the cache: keep it here.
        qputenv("XDG_CACHE_HOME", dir_.filePath(QStringLiteral("cache")).toUtf8());
        QFile spec(dir_.filePath(QStringLiteral("spec.json")));
        QVERIFY(spec.open(QIODevice::WriteOnly));
        spec.write(kSpec);
        spec.close();
        sweep_ = dir_.filePath(QStringLiteral("sweep"));
        QProcess cli;
        cli.start(qEnvironmentVariable("STAGECRAFT_CLI"),
                  {QStringLiteral("sweep"), spec.fileName(), QStringLiteral("--out"), sweep_});
        QVERIFY(cli.waitForFinished(300000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        window_ = std::make_unique<studio::MainWindow>();
        window_->setInteractive(false);
        window_->setDefaults(test::testDefaults("stcp920"));
        window_->resize(1400, 900);
        window_->show();
    }

    void tableAndFrontFollowTheRecords() {
        QVERIFY2(window_->openSweep(sweep_), qPrintable(window_->lastError()));
        views::SweepWindow* sweep = sweepWindow();
        QVERIFY(sweep);
        QCOMPARE(sweep->table()->model()->rowCount(), 8);
        QVERIFY(sweep->setColumns(QStringLiteral("gb_bytes"), QStringLiteral("latency_ms"),
                                  QStringLiteral("strategy")));
        const QVector<bool>& front = sweep->scatter()->front();
        QCOMPARE(front.size(), 8);
        QAbstractItemModel* model = sweep->table()->model();
        auto value = [&](int row, const char* name) {
            for (int c = 0; c < model->columnCount(); ++c)
                if (model->headerData(c, Qt::Horizontal).toString() == QLatin1String(name))
                    return model->index(row, c).data(Qt::UserRole).toDouble();
            return -1.0;
        };
        // The table is sorted by point, so row r is point r.
        int onFront = 0;
        for (int r = 0; r < 8; ++r) {
            bool beaten = false;
            for (int o = 0; o < 8; ++o)
                beaten = beaten || (value(o, "gb_bytes") <= value(r, "gb_bytes") &&
                                    value(o, "latency_ms") <= value(r, "latency_ms") &&
                                    (value(o, "gb_bytes") < value(r, "gb_bytes") ||
                                     value(o, "latency_ms") < value(r, "latency_ms")));
            QCOMPARE(front[r], !beaten);
            onFront += front[r] ? 1 : 0;
        }
        QVERIFY(onFront >= 1);
    }

    void clickingAPointSelectsItsRow() {
        views::SweepWindow* sweep = sweepWindow();
        QVERIFY(sweep);
        emit sweep->scatter()->rowClicked(5);
        QCOMPARE(sweep->table()->currentIndex().row(), 5);
        sweep->selectPoint(3);
        QCOMPARE(sweep->table()->currentIndex().row(), 3);
    }

    void doubleClickOpensThePointWithItsArchitecture() {
        views::SweepWindow* sweep = sweepWindow();
        QVERIFY(sweep);
        // Point 7: gb_bytes 8388608, clusters 4, graphturbo.
        QModelIndex index = sweep->table()->model()->index(7, 0);
        sweep->table()->scrollTo(index);
        QRect cell = sweep->table()->visualRect(index);
        // A double click is a press, a release and the double click itself.
        QTest::mouseClick(sweep->table()->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(sweep->table()->viewport(), Qt::LeftButton, {}, cell.center());
        QVERIFY2(test::waitForResult(*window_, 120000), qPrintable(window_->lastError()));
        const io::Session& session = window_->document()->session();
        QCOMPARE(session.strategy, std::string("graphturbo"));
        QCOMPARE(session.arch.clusters, 4);
        QCOMPARE(session.arch.cluster.globalBuffer->bytes, 8388608);
        // The zoo model, written into the cache (STAGECRAFT_CACHE_DIR in tests).
        QCOMPARE(QString::fromStdString(session.modelPath),
                 qEnvironmentVariable("STAGECRAFT_CACHE_DIR") +
                     QLatin1String("/zoo/fig3-chain-seq0-b2.v2.onnx"));
        QVERIFY(session.precision.has_value());
    }

    void directoryWithoutASweepIsRefused() {
        QTemporaryDir empty;
        QVERIFY(!window_->openSweep(empty.path()));
        QVERIFY2(window_->lastError().contains(QLatin1String("spec.json")),
                 qPrintable(window_->lastError()));
    }

    void screenshotRendersTheSweepWindow() {
        QString png = dir_.filePath(QStringLiteral("sweep.png"));
        QProcess studio;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("ASAN_OPTIONS"),
                   env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":detect_leaks=0"));
        studio.setProcessEnvironment(env);
        studio.start(qEnvironmentVariable("STAGECRAFT_STUDIO"),
                     {QStringLiteral("--sweep"), sweep_, QStringLiteral("--screenshot"), png,
                      QStringLiteral("--size"), QStringLiteral("1280x800")});
        QVERIFY(studio.waitForFinished(300000));
        QVERIFY2(studio.exitCode() == 0, studio.readAllStandardError().constData());
        QImage image(png);
        QCOMPARE(image.size(), QSize(1280, 800));
        // The plot paints dots in the strategies' colours, not a blank window.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }

    // stcp920 has an energy table: energy and EDP are axes like latency,
    // and the front over them is the points nothing beats on both.
    void energyColumnsAreAxes() {
        views::SweepWindow* sweep = sweepWindow();
        QVERIFY(sweep);
        QVERIFY2(sweep->axisColumns().contains(QStringLiteral("energy_mj")),
                 qPrintable(sweep->axisColumns().join(u',')));
        QVERIFY(sweep->axisColumns().contains(QStringLiteral("edp_mj_ms")));
        QVERIFY(sweep->setColumns(QStringLiteral("energy_mj"), QStringLiteral("latency_ms")));
        QVERIFY(sweep->scatter()->front().contains(true));
        QVERIFY(sweep->setColumns(QStringLiteral("edp_mj_ms"), QStringLiteral("gb_bytes"),
                                  QStringLiteral("energy_mj")));
        QVERIFY(!sweep->setColumns(QStringLiteral("strategy"), QStringLiteral("latency_ms")));
    }

    // Without an energy table energy is unknown: "—" in the table, never 0,
    // not an axis, said in the summary; the other axes keep their front.
    void unknownEnergyReadsADash() {
        QProcess arch;
        arch.start(qEnvironmentVariable("STAGECRAFT_CLI"),
                   {QStringLiteral("arch"), QStringLiteral("stcp920"), QStringLiteral("--json")});
        QVERIFY(arch.waitForFinished(60000));
        QJsonObject document = QJsonDocument::fromJson(arch.readAllStandardOutput()).object();
        QVERIFY(document.contains(QStringLiteral("energy")));
        document.remove(QStringLiteral("energy"));
        QFile archFile(dir_.filePath(QStringLiteral("no-energy.json")));
        QVERIFY(archFile.open(QIODevice::WriteOnly));
        archFile.write(QJsonDocument(document).toJson());
        archFile.close();
        QFile spec(dir_.filePath(QStringLiteral("no-energy-spec.json")));
        QVERIFY(spec.open(QIODevice::WriteOnly));
        spec.write(QStringLiteral(R"({"models": ["zoo:fig3-chain"], "arch": "%1",
            "strategies": ["tvm", "graphturbo"], "per_cluster": [2]})")
                       .arg(archFile.fileName())
                       .toUtf8());
        spec.close();
        const QString out = dir_.filePath(QStringLiteral("no-energy"));
        QProcess cli;
        cli.start(qEnvironmentVariable("STAGECRAFT_CLI"),
                  {QStringLiteral("sweep"), spec.fileName(), QStringLiteral("--out"), out});
        QVERIFY(cli.waitForFinished(300000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        auto table = views::loadSweepTable(out);
        QVERIFY2(table.ok(), table.ok() ? "" : table.error().message().c_str());
        views::SweepWindow window(*table);
        QVERIFY(!window.axisColumns().contains(QStringLiteral("energy_mj")));
        QVERIFY(window.axisColumns().contains(QStringLiteral("latency_ms")));
        QAbstractItemModel* model = window.table()->model();
        int energy = -1;
        for (int c = 0; c < model->columnCount(); ++c)
            if (model->headerData(c, Qt::Horizontal).toString() == QLatin1String("edp_mj_ms"))
                energy = c;
        QVERIFY(energy >= 0);
        QCOMPARE(model->rowCount(), 2);
        for (int r = 0; r < model->rowCount(); ++r) {
            QCOMPARE(model->index(r, energy).data().toString(), QStringLiteral("\u2014"));
            QVERIFY(!model->index(r, energy).data(Qt::UserRole).isValid());
            QVERIFY(model->index(r, energy)
                        .data(Qt::ToolTipRole)
                        .toString()
                        .contains(QLatin1String("energy table")));
        }
        bool said = false;
        for (const QLabel* label : window.findChildren<QLabel*>())
            said = said || label->text().contains(QLatin1String("Energy unknown for 2 points"));
        QVERIFY(said);
        QVERIFY(window.setColumns(QStringLiteral("kernels"), QStringLiteral("latency_ms")));
        QVERIFY(window.scatter()->front().contains(true));
    }

    // --sweep-axes picks the plotted columns from the command line; a name
    // that is not a column is an error listing those that are.
    void sweepAxesFromTheCommandLine() {
        QProcess studio;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("ASAN_OPTIONS"),
                   env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":detect_leaks=0"));
        studio.setProcessEnvironment(env);
        const QString png = dir_.filePath(QStringLiteral("axes.png"));
        studio.start(qEnvironmentVariable("STAGECRAFT_STUDIO"),
                     {QStringLiteral("--sweep"), sweep_, QStringLiteral("--sweep-axes"),
                      QStringLiteral("energy_mj,latency_ms"), QStringLiteral("--screenshot"), png});
        QVERIFY(studio.waitForFinished(300000));
        QVERIFY2(studio.exitCode() == 0, studio.readAllStandardError().constData());
        QVERIFY(QImage(png).width() > 0);
        studio.start(qEnvironmentVariable("STAGECRAFT_STUDIO"),
                     {QStringLiteral("--sweep"), sweep_, QStringLiteral("--sweep-axes"),
                      QStringLiteral("joules,latency_ms"), QStringLiteral("--screenshot"), png});
        QVERIFY(studio.waitForFinished(300000));
        QCOMPARE(studio.exitCode(), 1);
        const QString error = QString::fromUtf8(studio.readAllStandardError());
        QVERIFY2(error.contains(QLatin1String("--sweep-axes: 'joules,latency_ms' are not columns")),
                 qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("energy_mj")), qPrintable(error));
    }

    void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestStudioSweep)
#include "test_studio_sweep.moc"
