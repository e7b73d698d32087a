// stagecraft cache: an empty cache says so, an emission's kernels and a
// zoo model written for zoo:NAME are counted, --clear removes them (and
// nothing else in the directory), and --info with --clear is a usage error.

#include "cli_helpers.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace stagecraft;
using namespace stagecraft::test;

class TestCliCache : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        cache_ = dir_.filePath(s("cache"));
        qputenv("STAGECRAFT_CACHE_DIR", cache_.toUtf8());
        qputenv("STAGECRAFT_CONFIG_DIR", dir_.filePath(s("config")).toUtf8());
    }

    void showsAndClearsWhatItKeeps() {
        CliResult empty = runCli({s("cache")});
        QCOMPARE(empty.exitCode, 0);
        QVERIFY2(empty.out.contains(s("none yet")), qPrintable(empty.out));

        QVERIFY(runCli({s("emit"), s("zoo:fig3-chain"), s("--target"), s("host"), s("--out"),
                        dir_.filePath(s("kernels"))})
                    .exitCode == 0);
        QVERIFY(runCli({s("inspect"), s("zoo:fig3-chain")}).exitCode == 0); // writes zoo/
        QVERIFY(QDir().mkpath(cache_ + s("/models")));
        QFile other(cache_ + s("/models/mine.onnx"));
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.close();

        CliResult info = runCli({s("cache")});
        QCOMPARE(info.exitCode, 0);
        QVERIFY2(info.out.startsWith(s("cache    ") + cache_), qPrintable(info.out));
        QVERIFY2(!info.out.contains(s("objects  0 ")), qPrintable(info.out));
        QVERIFY2(info.out.contains(s("zoo      3 files")), qPrintable(info.out));

        CliResult cleared = runCli({s("cache"), s("--clear")});
        QCOMPARE(cleared.exitCode, 0);
        QVERIFY2(cleared.out.contains(s("removed")), qPrintable(cleared.out));
        CliResult after = runCli({s("cache"), s("--info")});
        QVERIFY2(after.out.contains(s("objects  0 compiled kernel parts")), qPrintable(after.out));
        QVERIFY2(after.out.contains(s("zoo      0 files")), qPrintable(after.out));
        QVERIFY2(QFile::exists(cache_ + s("/models/mine.onnx")), "not Stagecraft's: kept");

        QVERIFY(failed(runCli({s("cache"), s("--info"), s("--clear")}), 2,
                       s("--info and --clear exclude each other")));
    }

private:
    QTemporaryDir dir_;
    QString cache_;
};

QTEST_MAIN(TestCliCache)
#include "test_cli_cache.moc"
