// stagecraft arch: --list, --json that loads back, the summary, exit codes and
// one-line errors.

#include "testsupport.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using stagecraft::test::CliResult;
using stagecraft::test::runCli;

namespace {

QStringList args(std::initializer_list<const char*> list) {
    QStringList result{QStringLiteral("arch")};
    for (const char* arg : list)
        result << QString::fromUtf8(arg);
    return result;
}

bool writeText(const QString& path, const QByteArray& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

QString describe(const CliResult& r) {
    return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out, r.err);
}

} // namespace

class TestCliArch : public QObject {
    Q_OBJECT
private slots:
    void listNamesEveryPreset() {
        CliResult r = runCli(args({"--list"}));
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        for (const char* name :
             {"stcp920", "teaching", "habana-goya", "ascend-910", "graphcore-ipu", "host-cpu"}) {
            bool found = false;
            for (const QString& line : lines)
                found = found || line.startsWith(QString::fromUtf8(name) + QLatin1Char(' '));
            QVERIFY2(found, name);
        }
        QVERIFY(r.err.isEmpty());
    }

    void jsonLoadsBack() {
        CliResult r = runCli(args({"stcp920", "--json"}));
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QJsonParseError error;
        QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QJsonObject root = doc.object();
        QCOMPARE(root.value(QStringLiteral("format")).toString(),
                 QStringLiteral("stagecraft-arch"));
        QCOMPARE(root.value(QStringLiteral("name")).toString(), QStringLiteral("stcp920"));
        QCOMPARE(root.value(QStringLiteral("clusters")).toInt(), 4); // §5 Eq. 2: d = 4

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString path = dir.filePath(QStringLiteral("stcp920-copy.json"));
        QVERIFY(writeText(path, r.out.toUtf8()));
        CliResult back = runCli({QStringLiteral("arch"), path, QStringLiteral("--json")});
        QVERIFY2(back.exitCode == 0, qPrintable(describe(back)));
        QCOMPARE(back.out, r.out);
    }

    void summary() {
        CliResult r = runCli(args({"teaching"}));
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(QStringLiteral("aggregate LB for activations: 28 KiB")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("1 cluster(s) x 4 cores")), qPrintable(r.out));
        CliResult byDefault = runCli(args({}));
        QCOMPARE(byDefault.exitCode, 0);
        QVERIFY(byDefault.out.startsWith(QStringLiteral("stcp920: ")));
    }

    void badFileIsBadInput() {
        CliResult good = runCli(args({"teaching", "--json"}));
        QCOMPARE(good.exitCode, 0);
        QString text = good.out;
        QString find = QStringLiteral("\"bytes\": 8192");
        QCOMPARE(text.count(find), 1);
        text.replace(find, QStringLiteral("\"bytes\": -5"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString path = dir.filePath(QStringLiteral("bad.json"));
        QVERIFY(writeText(path, text.toUtf8()));

        CliResult r = runCli({QStringLiteral("arch"), path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith(QStringLiteral("stagecraft arch: ") + path), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("cluster.core_groups[0].local_buffer.bytes")),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(r.err.endsWith(QLatin1Char('\n')));
    }

    void unknownPresetIsBadInput() {
        CliResult r = runCli(args({"no-such-chip"}));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("'no-such-chip'")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("stcp920")), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }

    void badUsage_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("unknown option") << args({"--bogus"});
        QTest::newRow("two names") << args({"stcp920", "teaching"});
        QTest::newRow("list with a name") << args({"--list", "stcp920"});
        QTest::newRow("list with json") << args({"--list", "--json"});
    }
    void badUsage() {
        QFETCH(QStringList, arguments);
        CliResult r = runCli(arguments);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.startsWith(QStringLiteral("stagecraft arch: ")), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }

    void help() {
        CliResult r = runCli(args({"--help"}));
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith(QStringLiteral("usage: stagecraft arch")));
        QVERIFY(r.out.contains(QStringLiteral("--list")));
    }
};

QTEST_GUILESS_MAIN(TestCliArch)
#include "test_cli_arch.moc"
