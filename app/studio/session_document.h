#pragma once
// The document of stagecraft-studio (Tiled's document + QUndoStack): it owns
// the session (model, bound dims, architecture, strategy, overrides) and the
// undo history of its changes. Every change is one generic command that swaps
// two sessions; listeners hear sessionChanged and re-run the pipeline from
// the earliest step the difference touches. A session is read from a session
// file or from the HTML page `stagecraft report` writes, which embeds one.

#include "io/session_json.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

namespace stagecraft::studio {

class SessionDocument : public QObject {
    Q_OBJECT
public:
    explicit SessionDocument(QObject* parent = nullptr);

    const io::Session& session() const { return session_; }
    /// The session file, empty until saved or opened from one.
    const QString& filePath() const { return filePath_; }
    bool hasModel() const { return !session_.modelPath.empty(); }
    /// True when the session differs from what was last saved or opened.
    bool isModified() const { return !undoStack_.isClean(); }
    QUndoStack* undoStack() { return &undoStack_; }

    /// Starts over with \p session (a model just opened, a session file read):
    /// clears the undo history.
    void reset(const io::Session& session, const QString& filePath);
    /// Records a change as an undoable command named \p description.
    void change(const QString& description, const io::Session& next);
    /// Marks the document modified without a command (a recovered autosave).
    void markModified() { undoStack_.resetClean(); }
    /// Saves to \p path atomically; on success the document is clean and
    /// \p path becomes its file. Returns the error message, empty on success.
    QString saveAs(const QString& path);

signals:
    void sessionChanged(const stagecraft::io::Session& session);
    /// The change named \p description is being undone (\p undone) or
    /// redone; sessionChanged follows.
    void replayed(const QString& description, bool undone);
    void filePathChanged(const QString& path);
    void modifiedChanged(bool modified);

private:
    friend class ChangeSessionCommand;
    void apply(const io::Session& session);

    io::Session session_;
    QString filePath_;
    QUndoStack undoStack_;
};

/// True for the HTML reports Studio opens as sessions (.html, .htm).
bool isReportFile(const QString& path);

/// Reads the session file \p path, or the session embedded in the report
/// page \p path; an HTML file without one is refused, naming the file.
Expected<io::Session> loadSessionFile(const QString& path);

} // namespace stagecraft::studio
