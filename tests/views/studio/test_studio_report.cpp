// Studio and the HTML report: File → Export → Report writes the page with
// every strategy compared; File → Open reads a report as the session it
// embeds (the same session, not saved over the page); an HTML file without
// a session is refused with a message naming it.

#include "studio/session_document.h"
#include "studio_fixture.h"

#include <QFile>
#include <QStandardPaths>

using namespace stagecraft;

class TestStudioReport : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString model_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        model_ = test::writeZooModel(dir_, "fig3-chain");
    }

    void exportedReportOpensAsItsSession() {
        studio::MainWindow window;
        window.setInteractive(false);
        window.setDefaults(test::testDefaults("teaching"));
        QVERIFY(window.openModel(model_));
        QVERIFY(test::waitForResult(window));
        QString page = dir_.filePath(QStringLiteral("fig3.html"));
        QString error = window.exportTo(QStringLiteral("report"), page);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QFile file(page);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray html = file.readAll();
        QVERIFY(html.contains("id=\"stagecraft-session\""));
        for (const char* strategy : {"<td>tvm</td>", "<td>graphturbo</td>", "<td>ios</td>"})
            QVERIFY2(html.contains(strategy), strategy);

        studio::MainWindow reopened;
        reopened.setInteractive(false);
        QVERIFY(reopened.openPath(page));
        QVERIFY(test::waitForResult(reopened));
        QVERIFY(reopened.document()->session() == window.document()->session());
        QCOMPARE(reopened.result()->eval.report.latencyUs, window.result()->eval.report.latencyUs);
        // Saving must not replace the page with the session.
        QVERIFY(reopened.document()->filePath().isEmpty());
    }

    void anHtmlFileWithoutASessionIsRefused() {
        QString page = dir_.filePath(QStringLiteral("plain.html"));
        QFile file(page);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("<!DOCTYPE html><html><body><script type=\"application/json\">{}</script>"
                   "</body></html>");
        file.close();
        studio::MainWindow window;
        window.setInteractive(false);
        QVERIFY(!window.openPath(page));
        QVERIFY2(window.lastError().contains(page) &&
                     window.lastError().contains(QStringLiteral("no Stagecraft session")),
                 qPrintable(window.lastError()));
        QVERIFY(!window.document()->hasModel());
    }
};

QTEST_MAIN(TestStudioReport)
#include "test_studio_report.moc"
