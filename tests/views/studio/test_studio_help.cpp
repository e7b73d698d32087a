// Help in the main window: the menu offers the documentation and the
// keyboard shortcuts; the shortcuts list is read from the menus (the
// step-through's Ctrl+T, Open's Ctrl+O, the Roofline's Ctrl+Shift+R), no two
// actions share keys, Analyze → Roofline raises its dock, and every
// documentation page built into the program renders from its Markdown.

#include "studio/help_windows.h"
#include "studio/main_window.h"

#include <QMenu>
#include <QMenuBar>
#include <QtTest>

using namespace stagecraft;

class TestStudioHelp : public QObject {
    Q_OBJECT

private slots:
    void theHelpMenuOffersDocumentationAndShortcuts() {
        studio::MainWindow window;
        auto* help = window.menuBar()->findChild<QMenu*>(QStringLiteral("helpMenu"));
        QVERIFY(help);
        QStringList texts;
        for (const QAction* action : help->actions())
            texts << action->text().remove(QLatin1Char('&'));
        QVERIFY2(texts.contains(QStringLiteral("Documentation")), qPrintable(texts.join(u',')));
        QVERIFY(texts.contains(QStringLiteral("Keyboard Shortcuts")));
        QVERIFY(texts.contains(QStringLiteral("About Stagecraft")));
    }

    void theShortcutsAreReadFromTheMenus() {
        studio::MainWindow window;
        studio::ShortcutsDialog dialog(window.menuBar());
        const QStringList rows = dialog.rows();
        const QString stepThrough =
            QStringLiteral("Analyze \u203a Step Through the Algorithms: ") +
            QKeySequence(Qt::CTRL | Qt::Key_T).toString(QKeySequence::NativeText);
        QVERIFY2(rows.contains(stepThrough), qPrintable(rows.join(u'\n')));
        const QString open = QStringLiteral("File \u203a Open…: ") +
                             QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText);
        QVERIFY2(rows.contains(open), qPrintable(rows.join(u'\n')));
        for (const QString& row : rows)
            QVERIFY2(!row.endsWith(QStringLiteral(": ")), qPrintable(row));
        const QString roofline =
            QStringLiteral("Analyze \u203a Roofline: ") +
            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R).toString(QKeySequence::NativeText);
        QVERIFY2(rows.contains(roofline), qPrintable(rows.join(u'\n')));
    }

    // No two menu actions share keys: a clash would make Qt fire neither.
    void everyShortcutIsUnique() {
        studio::MainWindow window;
        QHash<QKeySequence, QString> owners;
        QList<QAction*> actions = window.menuBar()->actions();
        while (!actions.isEmpty()) {
            QAction* action = actions.takeFirst();
            if (action->menu() != nullptr)
                actions += action->menu()->actions();
            if (action->shortcut().isEmpty())
                continue;
            const QString owner = owners.value(action->shortcut());
            QVERIFY2(owner.isEmpty(), qPrintable(owner + QStringLiteral(" and ") + action->text()));
            owners.insert(action->shortcut(), action->text());
        }
        QVERIFY(owners.contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)));
    }

    void theRooflineEntryRaisesTheRoofline() {
        studio::MainWindow window;
        window.show();
        auto* analyze = window.menuBar()->findChild<QMenu*>(QStringLiteral("analyzeMenu"));
        QVERIFY(analyze);
        QAction* roofline = nullptr;
        for (QAction* action : analyze->actions())
            if (action->text().remove(QLatin1Char('&')) == QStringLiteral("Roofline"))
                roofline = action;
        QVERIFY(roofline);
        roofline->trigger();
        QWidget* view = window.view(studio::StudioView::Roofline);
        QVERIFY(view);
        QTRY_VERIFY(view->isVisible());
    }

    void everyDocumentationPageRenders() {
        studio::DocumentationDialog dialog;
        QVERIFY(dialog.shownText().startsWith(QStringLiteral("Stagecraft Studio")));
        for (const QString& page : studio::DocumentationDialog::pages()) {
            QVERIFY2(dialog.showPage(page), qPrintable(page));
            const QString text = dialog.shownText();
            QVERIFY2(text.size() > 200, qPrintable(page));
            QVERIFY2(!text.startsWith(QLatin1Char('#')), "Markdown is rendered, not shown");
        }
        QVERIFY(!dialog.showPage(QStringLiteral("decisions.md")));
    }
};

QTEST_MAIN(TestStudioHelp)
#include "test_studio_help.moc"
