#pragma once
// The Help menu's windows: the keyboard shortcuts of every menu action, read
// from the menus themselves (so the list cannot drift from them), and the
// user documentation (docs/*.md built into the program) rendered from its
// Markdown, with its links between pages followed.

#include <QDialog>
#include <QStringList>

class QMenuBar;
class QListWidget;
class QTableWidget;
class QTextBrowser;

namespace stagecraft::studio {

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    /// Lists every action of \p menus with a shortcut: menu, action, keys.
    explicit ShortcutsDialog(const QMenuBar* menus, QWidget* parent = nullptr);
    /// The rows shown, "Menu › Action: keys" (for tests).
    QStringList rows() const;

private:
    QTableWidget* table_ = nullptr;
};

class DocumentationDialog : public QDialog {
    Q_OBJECT
public:
    explicit DocumentationDialog(QWidget* parent = nullptr);
    /// Shows the page \p name ("studio.md"); false when there is none.
    bool showPage(const QString& name);
    /// The pages built in, in the list's order.
    static QStringList pages();
    /// The text of the page shown (for tests).
    QString shownText() const;

private:
    QListWidget* list_ = nullptr;
    QTextBrowser* browser_ = nullptr;
};

} // namespace stagecraft::studio
