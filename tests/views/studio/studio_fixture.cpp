#include "studio_fixture.h"

#include "arch/presets.h"
#include "zoo/zoo.h"

namespace stagecraft::test {

QString writeZooModel(const QTemporaryDir& dir, const std::string& name, int64_t batch) {
    QString path = dir.filePath(QString::fromStdString(name) + QStringLiteral(".onnx"));
    zoo::ZooOptions options;
    options.batch = batch;
    auto written = zoo::writeZooModel(name, options, path.toStdString());
    if (!written.ok())
        qFatal("writing %s: %s", name.c_str(), written.error().message().c_str());
    return path;
}

io::Session testDefaults(const std::string& arch) {
    io::Session session;
    auto loaded = arch::loadPreset(arch);
    if (!loaded.ok())
        qFatal("preset %s: %s", arch.c_str(), loaded.error().message().c_str());
    session.arch = *loaded;
    session.level = schedule::Level::LB; // the paper's figures; tests of auto ask for it
    return session;
}

bool waitForResult(studio::MainWindow& window, int timeoutMs) {
    QSignalSpy shown(&window, &studio::MainWindow::resultShown);
    QSignalSpy failed(&window, &studio::MainWindow::failed);
    QElapsedTimer timer;
    timer.start();
    while (shown.isEmpty() && failed.isEmpty() && timer.elapsed() < timeoutMs)
        QTest::qWait(10);
    if (!failed.isEmpty())
        qWarning("pipeline failed: %s", qPrintable(failed.front().front().toString()));
    return !shown.isEmpty();
}

bool waitForEdit(studio::MainWindow& window, QString* refusal, int timeoutMs) {
    QSignalSpy shown(&window, &studio::MainWindow::resultShown);
    QSignalSpy refused(&window, &studio::MainWindow::editRefused);
    QElapsedTimer timer;
    timer.start();
    while (shown.isEmpty() && refused.isEmpty() && timer.elapsed() < timeoutMs)
        QTest::qWait(5);
    if (!refused.isEmpty() && refusal)
        *refusal = refused.front().front().toString();
    return !shown.isEmpty();
}

} // namespace stagecraft::test
