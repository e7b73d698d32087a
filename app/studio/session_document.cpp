#include "studio/session_document.h"

#include "cli/report_html.h"
#include "support/file.h"

#include <QUndoCommand>

#include <utility>

namespace stagecraft::studio {

/// The one command: before and after, swapped by undo and redo.
class ChangeSessionCommand : public QUndoCommand {
public:
    ChangeSessionCommand(SessionDocument* document, const QString& text, io::Session before,
                         io::Session after)
        : QUndoCommand(text)
        , document_(document)
        , before_(std::move(before))
        , after_(std::move(after)) {}

    void undo() override {
        emit document_->replayed(text(), true);
        document_->apply(before_);
    }
    void redo() override {
        // The first redo is the push itself, not a redo.
        if (std::exchange(pushed_, true))
            emit document_->replayed(text(), false);
        document_->apply(after_);
    }

private:
    SessionDocument* document_;
    bool pushed_ = false;
    io::Session before_;
    io::Session after_;
};

SessionDocument::SessionDocument(QObject* parent)
    : QObject(parent) {
    connect(&undoStack_, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
}

void SessionDocument::reset(const io::Session& session, const QString& filePath) {
    undoStack_.clear();
    undoStack_.setClean();
    filePath_ = filePath;
    emit filePathChanged(filePath_);
    emit modifiedChanged(false);
    apply(session);
}

void SessionDocument::change(const QString& description, const io::Session& next) {
    if (next == session_)
        return;
    undoStack_.push(new ChangeSessionCommand(this, description, session_, next));
}

QString SessionDocument::saveAs(const QString& path) {
    Status saved = io::saveSession(path.toStdString(), session_);
    if (!saved.ok())
        return QString::fromStdString(saved.error().message());
    undoStack_.setClean();
    if (filePath_ != path) {
        filePath_ = path;
        emit filePathChanged(filePath_);
    }
    return {};
}

void SessionDocument::apply(const io::Session& session) {
    session_ = session;
    emit sessionChanged(session_);
}

bool isReportFile(const QString& path) {
    return path.endsWith(QLatin1String(".html"), Qt::CaseInsensitive) ||
           path.endsWith(QLatin1String(".htm"), Qt::CaseInsensitive);
}

Expected<io::Session> loadSessionFile(const QString& path) {
    const std::string file = path.toStdString();
    if (!isReportFile(path))
        return io::loadSession(file);
    SC_ASSIGN_OR_RETURN(std::string html, readFile(file));
    SC_ASSIGN_OR_RETURN(std::string json, cli::reportSessionJson(html, file));
    return io::readSessionJson(json, file);
}

} // namespace stagecraft::studio
