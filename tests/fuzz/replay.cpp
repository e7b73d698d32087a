// The replay test of a fuzz harness: every file in tests/data/fuzz/<harness>/
// (inputs that once crashed, hung or broke a promise, and hand-made hostile
// ones) goes through the harness's LLVMFuzzerTestOneInput, without libFuzzer.
// Each file runs in a child process (this executable with --replay FILE) so
// that a crash fails the row naming the file and the other files still run.
// The driver is one library for every harness: the harness is the suffix of
// the executable's name, test_fuzz_<harness> (tests/fuzz/CMakeLists.txt).

#include "fuzz_harness.h"
#include "testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string_view>
#include <vector>

namespace {

constexpr int kTimeoutMs = 120000;

/// The child: runs one file through the harness.
int replayFile(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "replay: cannot read %s\n", path);
        return 2;
    }
    std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

/// The harness this executable links: test_fuzz_<harness>.
QString harnessName() {
    const QLatin1String prefix("test_fuzz_");
    QString name = QCoreApplication::applicationName();
    return name.startsWith(prefix) ? name.mid(prefix.size()) : name;
}

QString inputDir() {
    auto dir = stagecraft::test::sourceDir() / "tests/data/fuzz" / harnessName().toStdString();
    return QString::fromStdString(dir.string());
}

/// The last \p lines lines of \p text: the sanitizer's report and stack.
QString tail(const QString& text, int lines) {
    QStringList all = text.split(QLatin1Char('\n'));
    return all.mid(std::max<qsizetype>(0, all.size() - lines)).join(QLatin1Char('\n'));
}

} // namespace

class TestFuzzReplay : public QObject {
    Q_OBJECT
    /// The children's scratch directories (fuzz_support.h), removed even
    /// when a child crashes.
    QTemporaryDir scratch_;

private slots:
    void initTestCase() {
        QVERIFY(scratch_.isValid());
        QDir dir(inputDir());
        QVERIFY2(dir.exists(), qPrintable(inputDir()));
        QVERIFY2(!dir.entryList(QDir::Files).isEmpty(), "no inputs to replay");
    }

    void replay_data() {
        QTest::addColumn<QString>("file");
        QDir dir(inputDir());
        for (const QString& name : dir.entryList(QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }
    void replay() {
        QFETCH(QString, file);
        QProcess child;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("STAGECRAFT_FUZZ_TMP"), scratch_.path());
        // The cap scripts/fuzz runs the fuzzers with.
        if (!environment.contains(QStringLiteral("STAGECRAFT_MAX_MEMORY")))
            environment.insert(QStringLiteral("STAGECRAFT_MAX_MEMORY"), QStringLiteral("1G"));
        child.setProcessEnvironment(environment);
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--replay"), file});
        bool finished = child.waitForFinished(kTimeoutMs);
        if (!finished) {
            child.kill();
            child.waitForFinished();
        }
        QString err = QString::fromLocal8Bit(child.readAllStandardError());
        bool passed =
            finished && child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0;
        if (!passed)
            qWarning().noquote() << tail(err, 40);
        QVERIFY2(finished, "timed out");
        QVERIFY2(passed, qPrintable(QStringLiteral("the harness failed on ") + file));
    }
};

int main(int argc, char** argv) {
    if (argc == 3 && std::string_view(argv[1]) == "--replay")
        return replayFile(argv[2]);
    QCoreApplication app(argc, argv);
    TestFuzzReplay test;
    return QTest::qExec(&test, argc, argv);
}

#include "replay.moc"
