#pragma once
// Recovery of sessions lost to a crash, in one dialog (autosave.h): every
// orphan autosave is listed with its model and when it was written; the user
// recovers one, discards them all, or keeps them for the next start.

#include <QDialog>
#include <QStringList>

class QListWidget;

namespace stagecraft::studio {

class RecoveryDialog : public QDialog {
    Q_OBJECT
public:
    /// \p orphans: autosave files (Autosave::orphans()).
    explicit RecoveryDialog(const QStringList& orphans, QWidget* parent = nullptr);

    /// The autosave to recover once the dialog is accepted.
    QString chosen() const;
    /// Removes every listed autosave and rejects the dialog.
    void discardAll();
    /// The list's rows, one per orphan: "model — written at".
    QStringList rows() const;

private:
    QStringList orphans_;
    QListWidget* list_;
};

} // namespace stagecraft::studio
