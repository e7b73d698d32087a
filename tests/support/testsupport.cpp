#include "testsupport.h"

#include <QFile>
#include <QProcess>
#include <QtTest>

namespace stagecraft::test {

std::filesystem::path fetchedModel(const std::string& relativePath) {
    std::filesystem::path path = modelsDir() / relativePath;
    if (!std::filesystem::exists(path)) {
        QTest::qFail(qPrintable(QStringLiteral("missing fetched model %1; run scripts/fetch-models")
                                    .arg(QString::fromStdString(path.string()))),
                     __FILE__, __LINE__);
        return {};
    }
    return path;
}

CliResult runCli(const QStringList& args, int timeoutMs) {
    CliResult result;
    QString program = QString::fromLocal8Bit(qgetenv("STAGECRAFT_CLI"));
    if (program.isEmpty()) {
        result.err = QStringLiteral("STAGECRAFT_CLI is not set");
        return result;
    }
    QProcess process;
    process.start(program, args);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.err = QStringLiteral("timed out");
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

bool matchesGolden(const std::filesystem::path& expectedPath, const QString& actual) {
    QFile expectedFile(QString::fromStdString(expectedPath.string()));
    QString expected;
    if (expectedFile.open(QIODevice::ReadOnly))
        expected = QString::fromUtf8(expectedFile.readAll());
    if (expected == actual)
        return true;
    QString actualPath = QString::fromStdString(expectedPath.string()) + QStringLiteral(".actual");
    QFile out(actualPath);
    if (out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        out.write(actual.toUtf8());
    out.close();
    QProcess diff;
    diff.start(QStringLiteral("diff"),
               {QStringLiteral("-u"), QString::fromStdString(expectedPath.string()), actualPath});
    diff.waitForFinished();
    qWarning().noquote() << diff.readAllStandardOutput();
    return false;
}

} // namespace stagecraft::test
