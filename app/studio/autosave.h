#pragma once
// Autosave with recovery after a crash: a few seconds after each change the
// modified session is written (atomically) to
// <AppDataLocation>/autosave/session-<pid>.stagecraft; a clean exit or a
// save removes it. At start, files of processes that no longer run are
// sessions lost to a crash and are offered for recovery.

#include <QObject>
#include <QStringList>
#include <QTimer>

namespace stagecraft::studio {

class SessionDocument;

class Autosave : public QObject {
    Q_OBJECT
public:
    Autosave(SessionDocument* document, QObject* parent = nullptr);
    /// Destroyed on a clean exit only: the autosave is no longer needed.
    ~Autosave() override { discard(); }

    static QString directory();
    /// Autosave files left by processes that are no longer running.
    static QStringList orphans();
    /// This process's autosave file.
    QString filePath() const;
    /// Writes the session now if it is modified; returns false on failure.
    bool saveNow();
    /// Removes this process's autosave file.
    void discard();
    /// Milliseconds between a change and the autosave.
    void setDelay(int ms) { timer_.setInterval(ms); }

private:
    SessionDocument* document_;
    QTimer timer_;
};

} // namespace stagecraft::studio
