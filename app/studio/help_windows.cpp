// The Help menu's windows (help_windows.h).

#include "studio/help_windows.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

namespace stagecraft::studio {

namespace {

/// The documentation pages of the program's resources, what the list says.
struct Page {
    const char* file;
    const char* title;
};

constexpr Page kPages[] = {
    {"studio.md", "Stagecraft Studio"},
    {"graph-view.md", "The graph view"},
    {"instance-view.md", "The instance view"},
    {"inspector.md", "The inspector"},
    {"scheduling.md", "How a model is scheduled"},
    {"simulator.md", "The simulator"},
    {"baselines.md", "The strategies compared"},
    {"session-format.md", "Session files"},
};

/// A menu's title without its mnemonic ampersand.
QString plainText(QString text) {
    return text.remove(QLatin1Char('&'));
}

void collect(const QMenu* menu, const QString& path, QList<QStringList>& rows) {
    for (const QAction* action : menu->actions()) {
        if (action->isSeparator())
            continue;
        const QString name = plainText(action->text());
        if (action->menu() != nullptr) {
            collect(action->menu(), path + QStringLiteral(" \u203a ") + name, rows);
            continue;
        }
        if (!action->shortcut().isEmpty())
            rows.append({path, name, action->shortcut().toString(QKeySequence::NativeText)});
    }
}

} // namespace

ShortcutsDialog::ShortcutsDialog(const QMenuBar* menus, QWidget* parent)
    : QDialog(parent)
    , table_(new QTableWidget(this)) {
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    QList<QStringList> rows;
    for (const QAction* top : menus->actions())
        if (top->menu() != nullptr)
            collect(top->menu(), plainText(top->text()), rows);
    table_->setColumnCount(3);
    table_->setHorizontalHeaderLabels({tr("Menu"), tr("Action"), tr("Keys")});
    table_->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < rows.size(); ++r)
        for (int c = 0; c < 3; ++c)
            table_->setItem(r, c, new QTableWidgetItem(rows[r][c]));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->resizeColumnsToContents();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_);
    layout->addWidget(buttons);
    resize(620, 560);
}

QStringList ShortcutsDialog::rows() const {
    QStringList out;
    for (int r = 0; r < table_->rowCount(); ++r)
        out << table_->item(r, 0)->text() + QStringLiteral(" \u203a ") +
                   table_->item(r, 1)->text() + QStringLiteral(": ") + table_->item(r, 2)->text();
    return out;
}

DocumentationDialog::DocumentationDialog(QWidget* parent)
    : QDialog(parent)
    , list_(new QListWidget(this))
    , browser_(new QTextBrowser(this)) {
    setObjectName(QStringLiteral("documentationDialog"));
    setWindowTitle(tr("Stagecraft Documentation"));
    for (const Page& page : kPages) {
        auto* item = new QListWidgetItem(tr(page.title), list_);
        item->setData(Qt::UserRole, QString::fromLatin1(page.file));
    }
    list_->setMaximumWidth(220);
    browser_->setSearchPaths({QStringLiteral(":/docs")});
    browser_->setOpenExternalLinks(true);
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            showPage(list_->item(row)->data(Qt::UserRole).toString());
    });
    // A link to another page (`graph-view.md`) opens it here.
    connect(browser_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.isRelative() && url.path().endsWith(QLatin1String(".md")))
            showPage(url.path().section(QLatin1Char('/'), -1));
    });
    browser_->setOpenLinks(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* row = new QHBoxLayout;
    row->addWidget(list_);
    row->addWidget(browser_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(buttons);
    resize(1000, 720);
    list_->setCurrentRow(0);
}

QStringList DocumentationDialog::pages() {
    QStringList out;
    for (const Page& page : kPages)
        out << QString::fromLatin1(page.file);
    return out;
}

bool DocumentationDialog::showPage(const QString& name) {
    QFile file(QStringLiteral(":/docs/") + name);
    if (!pages().contains(name) || !file.open(QIODevice::ReadOnly))
        return false;
    browser_->setMarkdown(QString::fromUtf8(file.readAll()));
    const int row = static_cast<int>(pages().indexOf(name));
    if (list_->currentRow() != row) {
        const QSignalBlocker block(list_);
        list_->setCurrentRow(row);
    }
    return true;
}

QString DocumentationDialog::shownText() const {
    return browser_->toPlainText();
}

} // namespace stagecraft::studio
