#pragma once
// The run the main window waits for: its ticket, its session, and what its
// result means when it arrives: an edit to record as an undoable command
// once the pipeline accepted it, a model or session that replaces the
// document once it loaded, or neither (undo, redo, a re-run). A result or
// failure of any other ticket is stale and ignored.

#include "io/session_json.h"

#include <QString>

#include <optional>
#include <utility>

namespace stagecraft::studio {

class PendingRun {
public:
    struct Edit {
        QString description;
        io::Session next;
    };
    struct Open {
        io::Session session;
        QString filePath;
        /// An autosave being recovered: removed once loaded, the document stays modified.
        QString recoveredFrom;
        /// Opened although the model changed on disk (the user agreed).
        bool modelChanged = false;
        /// Said on the status bar once open (a zoo figure's setup), or empty.
        QString note;
    };

    /// The run of \p session has \p ticket; what it is for stays as set.
    void started(quint64 ticket, const io::Session& session) {
        ticket_ = ticket;
        session_ = session;
    }
    /// The next run's result is \p edit, recorded once accepted.
    void expectEdit(Edit edit) {
        open_.reset();
        edit_ = std::move(edit);
    }
    /// The next run's result replaces the document.
    void expectOpen(Open open) {
        edit_.reset();
        open_ = std::move(open);
    }
    /// The next run records no edit (an undo or redo already did).
    void expectNoEdit() { edit_.reset(); }

    bool isCurrent(quint64 ticket) const { return ticket == ticket_; }
    bool idle() const { return ticket_ == 0; }
    /// Forgets the run and what it was for (cancelled, or overtaken).
    void drop() {
        ticket_ = 0;
        edit_.reset();
        open_.reset();
    }
    /// The run ended; returns its session. What it was for is taken next.
    const io::Session& end() {
        ticket_ = 0;
        return session_;
    }
    std::optional<Edit> takeEdit() { return std::exchange(edit_, std::nullopt); }
    std::optional<Open> takeOpen() { return std::exchange(open_, std::nullopt); }
    /// The document being opened, to retry it; null when none.
    Open* open() { return open_ ? &*open_ : nullptr; }

private:
    quint64 ticket_ = 0;
    io::Session session_;
    std::optional<Edit> edit_;
    std::optional<Open> open_;
};

} // namespace stagecraft::studio
