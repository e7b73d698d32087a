// stagecraft zoo: listing, writing, and the exit codes of bad input and usage.

#include "testsupport.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <iterator>

using stagecraft::test::runCli;

class TestCliZoo : public QObject {
    Q_OBJECT
private slots:
    void listNamesEveryModel() {
        auto result = runCli({QStringLiteral("zoo"), QStringLiteral("--list")});
        QCOMPARE(result.exitCode, 0);
        QStringList lines = result.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const char* expected[] = {
            "resnet50",       "bert-base",   "bert-large", "dlrm",         "mobilenet-v2",
            "vit-b16",        "densenet121", "squeezenet", "inception-v3", "inception-v3-block",
            "nasnet-a-cell",  "randwire-ws", "conformer",  "fig3-chain",   "fig2-blocks",
            "resnet-reduced", "bert-2layer"};
        QCOMPARE(lines.size(), int(std::size(expected)));
        for (size_t i = 0; i < std::size(expected); ++i)
            QCOMPARE(lines[int(i)].section(QLatin1Char(' '), 0, 0), QLatin1String(expected[i]));
        QVERIFY(result.out.contains(QStringLiteral("batch 1, seq 128")));
        QVERIFY(result.out.contains(QStringLiteral("batch 8")));
    }

    void writesModelAndWeights_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("summary");
        QTest::newRow("defaults") << QStringList{QStringLiteral("fig3-chain")}
                                  << QStringLiteral("wrote fig3-chain (batch 8,");
        QTest::newRow("batch and seeded")
            << QStringList{QStringLiteral("fig2-blocks"), QStringLiteral("--batch"),
                           QStringLiteral("2"), QStringLiteral("--weights=seeded")}
            << QStringLiteral("wrote fig2-blocks (batch 2,");
        QTest::newRow("seq") << QStringList{QStringLiteral("conformer"), QStringLiteral("--seq"),
                                            QStringLiteral("200")}
                             << QStringLiteral("wrote conformer (batch 1, seq 200,");
    }
    void writesModelAndWeights() {
        QFETCH(QStringList, options);
        QFETCH(QString, summary);
        QTemporaryDir dir;
        QString out = dir.filePath(QStringLiteral("model.onnx"));
        auto result = runCli(QStringList{QStringLiteral("zoo")} + options +
                             QStringList{QStringLiteral("--out"), out});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(result.out.startsWith(summary), qPrintable(result.out));
        QCOMPARE(result.out.count(QLatin1Char('\n')), 1);
        QVERIFY(QFileInfo(out).size() > 0);
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("model.weights"))).size() > 0);
    }

    void badInputAndUsage_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        auto s = [](const char* text) {
            return QString::fromLatin1(text);
        };
        QTest::newRow("unknown model") << QStringList{s("zoo"), s("resnet51"), s("--out"), s("@")}
                                       << 1 << s("unknown model 'resnet51'");
        QTest::newRow("seq out of range")
            << QStringList{s("zoo"), s("bert-base"), s("--seq"), s("1024"), s("--out"), s("@")} << 1
            << s("seq 1024");
        QTest::newRow("batch zero")
            << QStringList{s("zoo"), s("resnet50"), s("--batch"), s("0"), s("--out"), s("@")} << 1
            << s("--batch must be at least 1");
        QTest::newRow("unwritable")
            << QStringList{s("zoo"), s("fig3-chain"), s("--out"), s("@/missing/dir/m.onnx")} << 1
            << s("cannot create");
        QTest::newRow("missing out")
            << QStringList{s("zoo"), s("resnet50")} << 2 << s("missing --out");
        QTest::newRow("missing name")
            << QStringList{s("zoo"), s("--out"), s("@")} << 2 << s("missing NAME");
        QTest::newRow("batch not a number")
            << QStringList{s("zoo"), s("resnet50"), s("--batch"), s("x"), s("--out"), s("@")} << 2
            << s("--batch needs a whole number");
        QTest::newRow("unknown option") << QStringList{s("zoo"), s("resnet50"), s("--bogus")} << 2
                                        << s("unknown option --bogus");
        QTest::newRow("bad weights")
            << QStringList{s("zoo"), s("resnet50"), s("--weights"), s("ones"), s("--out"), s("@")}
            << 2 << s("--weights must be zeros or seeded");
    }
    void badInputAndUsage() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir dir;
        // "@" stands for a path in the temporary directory.
        for (QString& arg : args)
            if (arg.startsWith(QLatin1Char('@')))
                arg = dir.filePath(QStringLiteral("m.onnx")) + arg.mid(1);
        auto result = runCli(args);
        QCOMPARE(result.exitCode, exitCode);
        QVERIFY(result.out.isEmpty());
        QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(result.err.startsWith(QStringLiteral("stagecraft zoo: ")), qPrintable(result.err));
        QVERIFY2(result.err.contains(message), qPrintable(result.err));
    }

    void help() {
        auto result = runCli({QStringLiteral("zoo"), QStringLiteral("--help")});
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.out.contains(QStringLiteral("--weights")));
    }
};

QTEST_GUILESS_MAIN(TestCliZoo)
#include "test_cli_zoo.moc"
