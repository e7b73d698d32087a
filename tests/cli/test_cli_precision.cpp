// Attribution and precision through the real binary (docs/simulator.md):
// compare's breakdown per strategy adds up to its latency and lists groups
// and kernels, CSV and text carry it; --precision converts the model (bytes
// moved fall, the report names the precision), a model stored in f16 is
// simulated in f16 without the option, kernels run in f16 and bf16 close to
// f32, and a bad precision or an architecture without its rates is refused.

#include "cli_helpers.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using stagecraft::test::fig3;
using stagecraft::test::runCli;
using stagecraft::test::s;

namespace {

QJsonArray strategies(const stagecraft::test::CliResult& r) {
    return QJsonDocument::fromJson(r.out.toUtf8()).object()[s("strategies")].toArray();
}

QJsonObject named(const QJsonArray& all, const char* name) {
    for (const QJsonValue& v : all)
        if (v.toObject()[s("name")].toString() == s(name))
            return v.toObject();
    return {};
}

double sumOf(const QJsonObject& causes) {
    double sum = 0;
    for (const QJsonValue& v : causes)
        sum += v.toDouble();
    return sum;
}

} // namespace

class TestCliPrecision : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString path(const char* name) const { return dir_.filePath(s(name)); }

private slots:
    void compareBreaksDownEveryStrategy() {
        auto r = runCli(fig3("compare", {s("--json")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const QJsonValue& v : strategies(r)) {
            QJsonObject strategy = v.toObject();
            QJsonObject b = strategy[s("breakdown")].toObject();
            double total = b[s("total_ns")].toDouble();
            QVERIFY(qAbs(total - strategy[s("latency_us")].toDouble() * 1000) <= 1e-6 * total);
            QVERIFY(qAbs(sumOf(b[s("time_ns")].toObject()) - total) <= 1e-6 * total);
            QCOMPARE(b[s("time_ns")].toObject().size(), 13);
            QCOMPARE(b[s("kernels")].toArray().size(), strategy[s("kernels")].toInt());
            double groups = 0;
            for (const QJsonValue& g : b[s("groups")].toArray())
                groups += g.toObject()[s("total_ns")].toDouble();
            QVERIFY(qAbs(groups - total) <= 1e-6 * total);
        }
        // tvm keeps every kernel output in DDR: its stores cost time, graphturbo's less.
        QJsonArray all = strategies(r);
        double tvmStores = named(all, "tvm")[s("breakdown")]
                               .toObject()[s("time_ns")]
                               .toObject()[s("activation_store")]
                               .toDouble();
        double gtStores = named(all, "graphturbo")[s("breakdown")]
                              .toObject()[s("time_ns")]
                              .toObject()[s("activation_store")]
                              .toDouble();
        QVERIFY2(gtStores < tvmStores, qPrintable(QString::number(gtStores)));
    }

    void csvAndTextCarryTheBreakdown() {
        auto csv = runCli(fig3("compare", {s("--csv")}));
        QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
        QString header = csv.out.section(QLatin1Char('\n'), 0, 0);
        QVERIFY(header.contains(s(",time_compute_matrix_us,")));
        QVERIFY(header.contains(s(",bytes_spill_back,")));
        auto text = runCli(fig3("schedule", {s("--simulate")}));
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(text.out.contains(s("where the time goes (of ")));
        QVERIFY(text.out.contains(s("  units waiting for DMA:")));
        QVERIFY(text.out.contains(s("  groups by time: ")));
    }

    void precisionChangesTheBytesMoved() {
        auto f32 = runCli(fig3("compare", {s("--json"), s("--strategies"), s("tvm")}));
        auto f16 = runCli(fig3(
            "compare", {s("--json"), s("--strategies"), s("tvm"), s("--precision"), s("f16")}));
        QVERIFY2(f32.exitCode == 0 && f16.exitCode == 0, qPrintable(f32.err + f16.err));
        QJsonObject a = strategies(f32)[0].toObject(), b = strategies(f16)[0].toObject();
        QCOMPARE(a[s("precision")].toString(), s("f32"));
        QCOMPARE(b[s("precision")].toString(), s("f16"));
        double ddr32 = a[s("traffic_bytes")].toObject()[s("DDR")].toDouble();
        double ddr16 = b[s("traffic_bytes")].toObject()[s("DDR")].toDouble();
        // Half the bytes inside; the f32 input and output are cast at the boundary.
        QVERIFY2(ddr16 < 0.7 * ddr32 && ddr16 > 0.4 * ddr32,
                 qPrintable(QString::number(ddr16 / ddr32)));
    }

    void aModelStoredInF16RunsInF16WithoutTheOption() {
        QString model = path("fig3-f16.onnx");
        auto zoo = runCli({s("zoo"), s("fig3-chain"), s("--out"), model, s("--precision"), s("f16"),
                           s("--weights"), s("seeded")});
        QVERIFY2(zoo.exitCode == 0, qPrintable(zoo.err));
        auto r = runCli({s("compare"), model, s("--arch"), s("teaching"), s("--json"),
                         s("--strategies"), s("tvm")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(strategies(r)[0].toObject()[s("precision")].toString(), s("f16"));
        // Its kernels run and agree with the f32 model's within f16's precision.
        auto f32 = runCli(fig3("run", {s("--seeded"), s("--save-inputs"), path("in.json"),
                                       s("--outputs"), path("f32.json")}));
        QVERIFY2(f32.exitCode == 0, qPrintable(f32.err));
        auto run = runCli({s("run"), model, s("--arch"), s("teaching"), s("--inputs"),
                           path("in.json"), s("--outputs"), path("f16.json"), s("--reference"),
                           path("f32.json"), s("--tolerance"), s("0.02")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    }

    void kernelsRunAtTheRequestedPrecision_data() {
        QTest::addColumn<QString>("precision");
        QTest::newRow("f16") << s("f16");
        QTest::newRow("bf16") << s("bf16");
    }
    void kernelsRunAtTheRequestedPrecision() {
        QFETCH(QString, precision);
        auto f32 = runCli({s("run"), s("zoo:fig2-blocks"), s("--seeded"), s("--save-inputs"),
                           path("in2.json"), s("--outputs"), path("ref2.json")});
        QVERIFY2(f32.exitCode == 0, qPrintable(f32.err));
        auto r = runCli({s("run"), s("zoo:fig2-blocks"), s("--precision"), precision, s("--inputs"),
                         path("in2.json"), s("--outputs"), path("out2.json"), s("--reference"),
                         path("ref2.json"), s("--tolerance"), s("0.05")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        // Not the f32 result: the narrow storage shows.
        QVERIFY2(!r.out.contains(s("relative error 0 ")), qPrintable(r.out));
    }

    void int8ModelsRunAtTheIntegerRate_data() {
        QTest::addColumn<QString>("precision");
        QTest::addColumn<QString>("integerOp");
        QTest::newRow("i8") << s("i8") << s("QLinearConv");
        QTest::newRow("i8-dynamic") << s("i8-dynamic") << s("ConvInteger");
    }
    void int8ModelsRunAtTheIntegerRate() {
        QFETCH(QString, precision);
        QFETCH(QString, integerOp);
        QString model = dir_.filePath(s("fig2-") + precision + s(".onnx"));
        QString reference = dir_.filePath(s("fig2-f32.onnx"));
        auto zoo = runCli({s("zoo"), s("fig2-blocks"), s("--out"), model, s("--precision"),
                           precision, s("--weights"), s("seeded"), s("--batch"), s("64")});
        QVERIFY2(zoo.exitCode == 0, qPrintable(zoo.err));
        auto zooF32 =
            runCli({s("zoo"), s("fig2-blocks"), s("--out"), reference, s("--batch"), s("64")});
        QVERIFY2(zooF32.exitCode == 0, qPrintable(zooF32.err));
        auto inspect = runCli({s("inspect"), model});
        QVERIFY2(inspect.exitCode == 0, qPrintable(inspect.err));
        QVERIFY(inspect.out.contains(integerOp));
        // Every op on STCP920's units: an integer contraction runs at the
        // i8 rate of its 8-bit operands, whatever it outputs.
        QVERIFY2(
            inspect.out.contains(QRegularExpression(s("stcp920: \\d+ ops on compute units\n"))),
            qPrintable(inspect.out));
        // Its convolutions run at STCP920's int8 rate, four times f16's: at a
        // batch that keeps the units busy (64) the static model, whose
        // activations stay int8 between convolutions, is simulated faster
        // than the f32 one.
        auto f32 =
            runCli({s("compare"), reference, s("--json"), s("--strategies"), s("graphturbo")});
        auto i8 = runCli({s("compare"), model, s("--json"), s("--strategies"), s("graphturbo")});
        QVERIFY2(f32.exitCode == 0 && i8.exitCode == 0, qPrintable(f32.err + i8.err));
        double f32Time = strategies(f32)[0].toObject()[s("latency_us")].toDouble();
        double i8Time = strategies(i8)[0].toObject()[s("latency_us")].toDouble();
        qInfo("fig2-blocks: f32 %.2f us, %s %.2f us", f32Time, qPrintable(precision), i8Time);
        if (precision == s("i8"))
            QVERIFY(i8Time < f32Time);
        // (Their kernels against ONNX Runtime: test_host_execution.)
    }

    void badPrecisionsAreRefused() {
        auto usage = runCli(fig3("schedule", {s("--precision"), s("fp8")}));
        QCOMPARE(usage.exitCode, 2);
        QVERIFY(usage.err.contains(s("unknown precision 'fp8' (expected f32, f16 or bf16)")));
        auto rates = runCli(fig3("compare", {s("--precision"), s("bf16")}));
        QCOMPARE(rates.exitCode, 1);
        QCOMPARE(rates.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(rates.err.contains(s("architecture 'teaching' has no unit that runs complex ops "
                                      "at bf16")),
                 qPrintable(rates.err));
    }
};

QTEST_GUILESS_MAIN(TestCliPrecision)
#include "test_cli_precision.moc"
