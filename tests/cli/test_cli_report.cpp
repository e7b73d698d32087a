// stagecraft report and schedule --roofline through the real binary: the
// page of the Fig. 3 chain and of ResNet-50 rendered by headless Chromium
// (the script drew the timeline, every strategy and energy row is there, a
// screenshot is not blank), nothing fetched, a hostile name escaped, the
// embedded session, byte-identical output, the size of ResNet-50's page, and
// the roofline CSV and SVG (rows against the kernels, well-formed XML).

#include "cli_helpers.h"
#include "onnx/model_builder.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

using namespace stagecraft;
using stagecraft::test::readAll;
using stagecraft::test::runCli;
using stagecraft::test::s;

namespace {

const QStringList kStrategies =
    s("tvm tvm-llb astitch dla ago ios gt-gb gt-lb gt-instances gt-paper graphturbo")
        .split(QLatin1Char(' '));

/// Chromium's output for \p page with \p args (headless, its profile in
/// \p profile); empty with a warning when it fails.
QByteArray chromium(const QStringList& args, const QString& page, const QString& profile) {
    QString exe = QStandardPaths::findExecutable(s("chromium"));
    if (exe.isEmpty()) {
        qWarning("chromium is not installed (scripts/setup-deps installs it)");
        return {};
    }
    QProcess p;
    p.start(exe, QStringList{s("--headless"), s("--no-sandbox"), s("--disable-gpu"),
                             s("--user-data-dir=") + profile} +
                     args + QStringList{QUrl::fromLocalFile(page).toString()});
    if (!p.waitForFinished(60000) || p.exitCode() != 0) {
        qWarning("chromium failed: %s", p.readAllStandardError().constData());
        return {};
    }
    return p.readAllStandardOutput();
}

/// Nothing the page could fetch: no URL scheme, no external src or href.
bool selfContained(const QByteArray& page) {
    static const QRegularExpression external(s("(src|href)\\s*=\\s*[\"'](?!#)"));
    return !page.contains("http:") && !page.contains("https:") && !page.contains("fetch(") &&
           !page.contains("XMLHttpRequest") && !external.match(QString::fromUtf8(page)).hasMatch();
}

/// The count in `data-drawn="N"` of the DOM, -1 without one.
int drawnSpans(const QByteArray& dom) {
    static const QRegularExpression drawn(s("id=\"timeline\" data-drawn=\"(\\d+)\""));
    QRegularExpressionMatch m = drawn.match(QString::fromUtf8(dom));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

/// The width and height of the PNG \p png (its IHDR chunk).
QSize pngSize(const QByteArray& png) {
    if (png.size() < 24 || !png.startsWith("\x89PNG"))
        return {};
    auto at = [&](int i) {
        return (uchar(png[i]) << 24) | (uchar(png[i + 1]) << 16) | (uchar(png[i + 2]) << 8) |
               uchar(png[i + 3]);
    };
    return QSize(int(at(16)), int(at(20)));
}

} // namespace

class TestCliReport : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString path(const char* name) const { return dir_.filePath(s(name)); }
    QString profile() const { return dir_.filePath(s("chromium-profile")); }

    /// Writes the Fig. 3 chain's report once.
    QString fig3Report() {
        QString out = path("fig3.html");
        if (!QFile::exists(out)) {
            auto r = runCli({s("report"), s("zoo:fig3-chain"), s("--out"), out});
            if (r.exitCode != 0)
                qWarning("%s", qPrintable(r.err));
        }
        return out;
    }

private slots:
    void thePageHasEveryPartAndFetchesNothing() {
        QByteArray page = readAll(fig3Report());
        QVERIFY(page.startsWith("<!DOCTYPE html>"));
        QVERIFY(selfContained(page));
        for (const char* id : {"summary", "compare", "timeline-section", "roofline", "energy",
                               "graph", "stagecraft-session", "timeline-data"})
            QVERIFY2(page.contains(QByteArray("id=\"").append(id).append('"')), id);
        QVERIFY2(page.contains("class=\"roofline\">"), "roofline SVG");
        // The grouped graph is Graphviz's SVG (dot is a dependency).
        QVERIFY2(page.contains("class=\"graph\""), "graph SVG");
    }

    void chromiumRendersTheTimelineAndTheTables() {
        QByteArray dom = chromium({s("--dump-dom")}, fig3Report(), profile());
        QVERIFY(!dom.isEmpty());
        QVERIFY2(drawnSpans(dom) > 0, dom.right(2000).constData());
        QVERIFY(dom.contains("Drawn "));
        for (const QString& name : kStrategies) {
            QVERIFY2(dom.contains(QString(s("<td>") + name + s("</td>")).toUtf8()),
                     qPrintable(name));
        }
        // One energy row per strategy, each with figures or "unknown".
        int start = dom.indexOf("id=\"energy-levels\"");
        QByteArray energy = dom.mid(start, dom.indexOf("</table>", start) - start);
        QCOMPARE(energy.count("<tr>"), kStrategies.size() + 1);
        QVERIFY(energy.contains("total mJ"));
    }

    void theScreenshotIsNotBlank() {
        QString png = path("fig3.png");
        chromium({s("--screenshot=") + png, s("--window-size=1400,900")}, fig3Report(), profile());
        QByteArray image = readAll(png);
        QCOMPARE(pngSize(image), QSize(1400, 900));
        // A blank page of this size compresses to a few kB.
        QVERIFY2(image.size() > 40000, qPrintable(QString::number(image.size())));
    }

    void theSessionIsEmbeddedAndTheOutputDeterministic() {
        QByteArray page = readAll(fig3Report());
        QRegularExpression session(
            s("<script type=\"application/json\" id=\"stagecraft-session\">([^<]*)</script>"));
        QRegularExpressionMatch m = session.match(QString::fromUtf8(page));
        QVERIFY(m.hasMatch());
        QJsonObject doc = QJsonDocument::fromJson(m.captured(1).toUtf8()).object();
        QCOMPARE(doc[s("format")].toString(), s("stagecraft-session"));
        QCOMPARE(doc[s("strategy")].toString(), s("graphturbo"));
        QVERIFY(QFile::exists(doc[s("model")].toObject()[s("path")].toString()));
        QString again = path("fig3-again.html");
        auto r = runCli({s("report"), s("zoo:fig3-chain"), s("--out"), again});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(readAll(again) == page);
    }

    void aHostileNameIsEscaped() {
        onnxio::ModelBuilder m("<b>graph</b>", 13);
        m.addInput("x\"<img src=x>", ir::DType::Float32, {int64_t{1}, int64_t{4}, int64_t{8}});
        m.addNode("Relu", {"x\"<img src=x>"}, {"y"}, "<script>alert('op')</script>&amp;");
        m.addNode("Sigmoid", {"y"}, {"z"}, "z</title></svg><i>");
        m.addOutput("z", ir::DType::Float32, {int64_t{1}, int64_t{4}, int64_t{8}});
        QString model = path("hostile.onnx");
        QVERIFY(m.save(model.toStdString()).ok());
        QString out = path("hostile.html");
        auto r = runCli({s("report"), model, s("--arch"), s("teaching"), s("--strategies"),
                         s("tvm,graphturbo"), s("--out"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QByteArray page = readAll(out);
        QVERIFY(!page.contains("<script>alert"));
        QVERIFY(!page.contains("<img src=x>"));
        QVERIFY(!page.contains("<b>graph"));
        QVERIFY(!page.contains("</title></svg><i>"));
        QVERIFY(page.contains("&lt;script&gt;alert"));
        QVERIFY(selfContained(page));
        QByteArray dom = chromium({s("--dump-dom")}, out, profile());
        QVERIFY(drawnSpans(dom) > 0);
        QVERIFY(!dom.contains("<img"));
    }

    void badUsageFailsBeforeAnyWork() {
        auto r = runCli({s("report"), s("zoo:fig3-chain"), s("--out"), path("page.txt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(stagecraft::test::oneLine(r) && r.err.contains(s("must end in .html")));
        QVERIFY(!QFile::exists(path("page.txt")));
        r = runCli({s("report"), s("zoo:fig3-chain")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(s("--out FILE.html is required")));
        r = runCli({s("schedule"), s("zoo:fig3-chain"), s("--roofline"), path("r.png")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(stagecraft::test::oneLine(r) && r.err.contains(s("must end in .csv or .svg")));
        QVERIFY(!QFile::exists(path("r.png")));
    }

    void rooflineCsvAndSvgMatchTheKernels() {
        QString csv = path("r.csv"), svg = path("r.svg");
        auto r = runCli(
            {s("schedule"), s("zoo:fig3-chain"), s("--strategy"), s("tvm"), s("--roofline"), csv});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QRegularExpression kernels(s("kernels (\\d+) per cluster"));
        QRegularExpressionMatch k = kernels.match(r.out);
        QVERIFY2(k.hasMatch(), qPrintable(r.out));
        r = runCli(
            {s("schedule"), s("zoo:fig3-chain"), s("--strategy"), s("tvm"), s("--roofline"), svg});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QStringList lines =
            QString::fromUtf8(readAll(csv)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), s("kind,label,group,level,ops,bytes,seconds,"
                                  "intensity_ops_per_byte,ops_per_second,bytes_per_second"));
        QSet<QString> labels;
        int kernelRows = 0;
        for (const QString& line : lines) {
            QStringList f = line.split(QLatin1Char(','));
            QCOMPARE(f.size(), 10);
            if (f[0] == s("kernel")) {
                labels.insert(f[1]);
                ++kernelRows;
                QVERIFY(f[5].toDouble() > 0);
            }
        }
        QCOMPARE(labels.size(), k.captured(1).toInt());
        QVERIFY(lines.contains(s("ceiling,compute,,,,,,,") +
                               lines[1].section(QLatin1Char(','), 8, 8) + s(",")));
        QByteArray text = readAll(svg);
        QXmlStreamReader xml(text);
        int markers = 0;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == s("title") &&
                xml.readElementText().startsWith(s("kernel ")))
                ++markers;
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(markers, kernelRows);
        QVERIFY(text.contains("arithmetic intensity (ops/byte)"));
        QVERIFY(text.contains("throughput (ops/s)"));
    }

    /// The paper's Table 2 row A: 64 samples, every strategy searched.
    void resnet50FitsInFiveMegabytesAndRenders() {
        QString out = path("resnet50.html");
        QElapsedTimer timer;
        timer.start();
        auto r = runCli({s("report"), s("zoo:resnet50"), s("--out"), out}, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        qInfo("report of zoo:resnet50 in %lld ms", static_cast<long long>(timer.elapsed()));
        QByteArray page = readAll(out);
        QVERIFY2(page.size() < 5 * 1000 * 1000, qPrintable(QString::number(page.size())));
        QVERIFY(selfContained(page));
        QByteArray dom = chromium({s("--dump-dom")}, out, profile());
        QVERIFY(drawnSpans(dom) > 0);
    }
};

QTEST_GUILESS_MAIN(TestCliReport)
#include "test_cli_report.moc"
