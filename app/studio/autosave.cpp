#include "studio/autosave.h"

#include "studio/session_document.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace stagecraft::studio {

namespace {

bool processRunning(qint64 pid) {
    return QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid));
}

} // namespace

Autosave::Autosave(SessionDocument* document, QObject* parent)
    : QObject(parent)
    , document_(document) {
    timer_.setSingleShot(true);
    timer_.setInterval(5000);
    connect(&timer_, &QTimer::timeout, this, &Autosave::saveNow);
    connect(document_, &SessionDocument::sessionChanged, this, [this] {
        if (document_->isModified())
            timer_.start();
    });
}

QString Autosave::directory() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/autosave");
}

QString Autosave::filePath() const {
    return directory() +
           QStringLiteral("/session-%1.stagecraft").arg(QCoreApplication::applicationPid());
}

QStringList Autosave::orphans() {
    static const QRegularExpression name(QStringLiteral("^session-(\\d+)\\.stagecraft$"));
    QStringList found;
    const QStringList files = QDir(directory()).entryList(QDir::Files, QDir::Name);
    for (const QString& file : files) {
        auto match = name.match(file);
        if (match.hasMatch() && !processRunning(match.captured(1).toLongLong()))
            found << directory() + QLatin1Char('/') + file;
    }
    return found;
}

bool Autosave::saveNow() {
    if (!document_->hasModel() || !document_->isModified())
        return true;
    QDir().mkpath(directory());
    return io::saveSession(filePath().toStdString(), document_->session()).ok();
}

void Autosave::discard() {
    timer_.stop();
    QFile::remove(filePath());
}

} // namespace stagecraft::studio
