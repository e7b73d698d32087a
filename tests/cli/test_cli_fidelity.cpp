// Calibration, profiles and fidelity through the real binary
// (docs/simulator.md, "Fidelity"): `arch calibrate` writes a description that
// validates, round-trips and has sane figures (never this machine's exact
// numbers), and host-cpu uses it from the data directory and says so; `run
// --profile` writes its documented document, a Chrome trace whose kernels
// carry the simulated trace's names; `fidelity` prints its documented
// figures.

#include "cli_helpers.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using stagecraft::test::readJson;
using stagecraft::test::runCli;
using stagecraft::test::s;

namespace {

/// The names of the "kernel ..." spans of a Chrome trace.
QSet<QString> kernelSpans(const QJsonObject& trace) {
    QSet<QString> names;
    for (const QJsonValue& v : trace[s("traceEvents")].toArray()) {
        QJsonObject e = v.toObject();
        if (e[s("ph")].toString() == s("X") && e[s("cat")].toString() == s("kernel"))
            names.insert(e[s("name")].toString());
    }
    return names;
}

/// Whether \p err is calibration's one-line refusal of figures that did
/// not settle (calibrate.cpp): load from elsewhere, not a fault.
bool refusedAsBusy(const QString& err) {
    return err.contains(s("calibrate when it is idle")) ||
           err.contains(s("calibrate when the machine is idle"));
}

} // namespace

class TestCliFidelity : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString path(const char* name) const { return dir_.filePath(s(name)); }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("STAGECRAFT_DATA_DIR", dir_.filePath(s("data")).toUtf8());
    }
    void cleanupTestCase() { qunsetenv("STAGECRAFT_DATA_DIR"); }

    void calibrationWritesASaneDescription() {
        auto before = runCli({s("arch"), s("host-cpu")});
        QVERIFY2(before.out.contains(s("assumptions: run 'stagecraft arch calibrate'")),
                 qPrintable(before.out));
        // Calibration refuses, by design, while something else loads the
        // machine (its figures did not settle); on a busy CI machine the
        // check below is tried three times, then skipped, saying why.
        auto r = runCli({s("arch"), s("calibrate"), s("--repeat"), s("1")}, 180000);
        for (int retry = 0; retry < 2 && r.exitCode != 0 && refusedAsBusy(r.err); ++retry)
            r = runCli({s("arch"), s("calibrate"), s("--repeat"), s("1")}, 180000);
        if (r.exitCode != 0 && refusedAsBusy(r.err))
            QSKIP(qPrintable(s("the machine was busy three times: ") + r.err.trimmed()));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.err.contains(s("building the conv3x3 kernel")));
        QVERIFY(r.err.contains(s("timing the set, round 3 of 3")));
        QVERIFY(r.out.contains(s("efficiency per op family:")));
        QStringList written = QDir(path("data")).entryList({s("host-cpu-*.json")}, QDir::Files);
        QCOMPARE(written.size(), 1);
        QString file = path("data/") + written.front();
        // It validates and round-trips.
        auto json = runCli({s("arch"), file, s("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        QFile raw(file);
        QVERIFY(raw.open(QIODevice::ReadOnly));
        QCOMPARE(json.out.toUtf8(), raw.readAll());
        // Sane ranges, not this machine's numbers.
        QJsonObject arch = QJsonDocument::fromJson(json.out.toUtf8()).object();
        for (const QJsonValue& p : arch[s("paths")].toArray()) {
            double gbps = p.toObject()[s("bandwidth_gbps")].toDouble();
            QVERIFY2(gbps > 0.1 && gbps < 10000, qPrintable(QString::number(gbps)));
        }
        QJsonObject overheads = arch[s("overheads")].toObject();
        QVERIFY(overheads[s("kernel_launch_ns")].toDouble() < 1e7);
        QJsonArray units = arch[s("cluster")]
                               .toObject()[s("core_groups")]
                               .toArray()[0]
                               .toObject()[s("units")]
                               .toArray();
        bool fitted = false;
        for (const QJsonValue& u : units) {
            QJsonObject efficiency = u.toObject()[s("efficiency")].toObject();
            for (const QJsonValue& e : efficiency) {
                QVERIFY(e.toDouble() > 0 && e.toDouble() <= 1);
                fitted = true;
            }
        }
        QVERIFY(fitted);
        auto after = runCli({s("arch"), s("host-cpu")});
        QVERIFY2(after.out.contains(s("calibrated on")), qPrintable(after.out));
    }

    void profileIsADocumentAndATrace() {
        QStringList model = {s("zoo:fig2-blocks"), s("--arch"), s("teaching")};
        auto r = runCli(QStringList{s("run")} + model +
                        QStringList{s("--seeded"), s("--outputs"), path("out.json"), s("--profile"),
                                    path("profile.json"), s("--repeat"), s("3")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject profile = readJson(path("profile.json"));
        QCOMPARE(profile[s("format")].toString(), s("stagecraft-profile"));
        QCOMPARE(profile[s("repetitions")].toInt(), 3);
        QJsonArray kernels = profile[s("kernels")].toArray();
        QVERIFY(!kernels.isEmpty());
        double sum = 0;
        for (const QJsonValue& k : kernels) {
            QJsonObject kernel = k.toObject();
            QVERIFY(kernel[s("min_ns")].toDouble() <= kernel[s("median_ns")].toDouble());
            QVERIFY(kernel[s("median_ns")].toDouble() <= kernel[s("max_ns")].toDouble());
            sum += kernel[s("median_ns")].toDouble();
        }
        QVERIFY(sum > 0);
        // The simulated trace of the same schedule names its kernels alike.
        auto simulated = runCli(QStringList{s("schedule")} + model +
                                QStringList{s("--simulate"), s("--trace"), path("sim.json")});
        QVERIFY2(simulated.exitCode == 0, qPrintable(simulated.err));
        QSet<QString> measuredNames = kernelSpans(profile);
        QCOMPARE(measuredNames.size(), kernels.size());
        QCOMPARE(kernelSpans(readJson(path("sim.json"))), measuredNames);
    }

    void fidelityReportsItsFigures() {
        auto r = runCli({s("fidelity"), s("zoo:fig2-blocks"), s("--strategies"),
                         s("tvm,graphturbo"), s("--repeat"), s("2"), s("--json")},
                        300000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc[s("format")].toString(), s("stagecraft-fidelity"));
        QCOMPARE(doc[s("arch")].toString(), s("host-cpu"));
        QJsonArray strategies = doc[s("strategies")].toArray();
        QCOMPARE(strategies.size(), 2);
        for (const QJsonValue& v : strategies) {
            QJsonObject st = v.toObject();
            // Spearman's rho only from three kernels on (issue 60: it said
            // 1.000 of a strategy with one kernel).
            if (st[s("kernels")].toArray().size() < 3) {
                QVERIFY(st[s("spearman")].isNull());
            } else {
                double rho = st[s("spearman")].toDouble();
                QVERIFY(rho >= -1 && rho <= 1);
            }
            QVERIFY(st[s("ratio")].toDouble() > 0);
            QVERIFY(!st[s("kernels")].toArray().isEmpty());
            QJsonObject k = st[s("kernels")].toArray()[0].toObject();
            QVERIFY(k[s("simulated_ns")].toDouble() > 0 && k[s("measured_ns")].toDouble() > 0);
        }
        QVERIFY(doc[s("ranking_conflicts")].isArray());
        auto text = runCli({s("fidelity"), s("zoo:fig2-blocks"), s("--strategies"), s("tvm"),
                            s("--repeat"), s("1")},
                           300000);
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(text.out.contains(s("sim/measured  spearman")));
    }
};

QTEST_GUILESS_MAIN(TestCliFidelity)
#include "test_cli_fidelity.moc"
