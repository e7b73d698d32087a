#pragma once
// Small helpers the CLI suites share: strings for arguments, the fig3-chain
// command line, stderr checks, files read back.

#include "testsupport.h"

#include <QByteArray>
#include <QDebug>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <filesystem>

namespace stagecraft::test {

/// \p text (UTF-8) as a QString.
inline QString s(const char* text) {
    return QString::fromUtf8(text);
}

/// \p path as a QString.
inline QString q(const std::filesystem::path& path) {
    return QString::fromStdString(path.string());
}

/// `command zoo:fig3-chain --arch teaching` and \p more.
inline QStringList fig3(const char* command, const QStringList& more) {
    return QStringList{s(command), s("zoo:fig3-chain"), s("--arch"), s("teaching")} + more;
}

/// `schedule zoo:fig3-chain --arch teaching` at the LB level (Fig. 3's)
/// unless \p more picks one, and \p more.
inline QStringList scheduleFig3(const QStringList& more) {
    QStringList args{s("schedule"), s("zoo:fig3-chain"), s("--arch"), s("teaching")};
    if (!more.contains(s("--level")))
        args << s("--level") << s("lb");
    return args + more;
}

/// Exactly one line on stderr, ending in a newline.
inline bool oneLine(const CliResult& r) {
    return r.err.count(QLatin1Char('\n')) == 1 && r.err.endsWith(QLatin1Char('\n'));
}

/// Exit \p code with one line on stderr that contains \p part; otherwise
/// warns with what the run gave.
inline bool failed(const CliResult& r, int code, const QString& part) {
    if (r.exitCode == code && oneLine(r) && r.err.contains(part))
        return true;
    qWarning().noquote() << "exit" << r.exitCode << "stderr:" << r.err;
    return false;
}

/// The bytes of the file \p path; empty when it cannot be read.
inline QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The JSON object in the file \p path; empty when it cannot be read or parsed.
inline QJsonObject readJson(const QString& path) {
    return QJsonDocument::fromJson(readAll(path)).object();
}

/// The JSON object \p text holds; warns when it is not JSON.
inline QJsonObject parsed(const QByteArray& text) {
    QJsonParseError error;
    QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

/// The JSON object a run printed on stdout; warns when it is not JSON.
inline QJsonObject parsed(const CliResult& result) {
    return parsed(result.out.toUtf8());
}

} // namespace stagecraft::test
