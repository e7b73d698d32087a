// The studio's pipeline runner: results arrive off the GUI thread through
// signals, the newest request wins, cancel stops a run at its next step, a
// bad model fails with the core's message, a changed model is detected.

#include "studio/pipeline_runner.h"
#include "studio_fixture.h"

#include <QFile>

using namespace stagecraft;

class TestPipelineRunner : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        session_ = test::testDefaults("teaching");
        session_.modelPath = test::writeZooModel(dir_, "fig3-chain").toStdString();
        resnet_ = test::testDefaults("stcp920");
        resnet_.modelPath = test::writeZooModel(dir_, "resnet50").toStdString();
    }

    void resultArrivesWithProgress() {
        studio::PipelineRunner runner;
        QSignalSpy finished(&runner, &studio::PipelineRunner::finished);
        QSignalSpy progress(&runner, &studio::PipelineRunner::progress);
        quint64 ticket = runner.run(session_);
        QVERIFY(runner.isBusy());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.front().front().value<quint64>(), ticket);
        auto result = finished.front().back().value<views::ResultPtr>();
        QVERIFY(result);
        QCOMPARE(result->eval.schedule.groups.size(), size_t{4});
        QCOMPARE(result->modelSha256.size(), size_t{64});
        QVERIFY(progress.size() >= 3); // reading, importing, scheduling, simulating
        QVERIFY(!runner.isBusy());
    }

    // ResNet-50 takes long enough to import that the first request is still
    // running when the second comes; either way the newest request's result
    // is the one that arrives last, and every request reports exactly once.
    void newestRequestWins() {
        studio::PipelineRunner runner;
        QSignalSpy finished(&runner, &studio::PipelineRunner::finished);
        QSignalSpy cancelled(&runner, &studio::PipelineRunner::cancelled);
        io::Session tvm = resnet_;
        tvm.strategy = "tvm";
        runner.run(resnet_);
        quint64 second = runner.run(tvm);
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 120000);
        QCOMPARE(finished.size() + cancelled.size(), 2);
        QCOMPARE(finished.back().front().value<quint64>(), second);
        QCOMPARE(finished.back().back().value<views::ResultPtr>()->strategy, std::string("tvm"));
        QVERIFY(cancelled.size() == 1 || finished.size() == 2);
    }

    void cancelStopsTheRun() {
        studio::PipelineRunner runner;
        QSignalSpy finished(&runner, &studio::PipelineRunner::finished);
        QSignalSpy cancelled(&runner, &studio::PipelineRunner::cancelled);
        runner.run(resnet_);
        runner.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), 120000);
        QCOMPARE(finished.size(), 0);
        QCOMPARE(cancelled.size(), 1);
    }

    void badModelFailsWithTheCoresMessage() {
        QString path = dir_.filePath(QStringLiteral("broken.onnx"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a model");
        file.close();
        io::Session broken = session_;
        broken.modelPath = path.toStdString();
        studio::PipelineRunner runner;
        QSignalSpy failed(&runner, &studio::PipelineRunner::failed);
        runner.run(broken);
        QVERIFY(failed.wait(60000));
        QString message = failed.front().at(1).toString();
        QVERIFY2(message.startsWith(path), qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('\n')));
        QVERIFY(failed.front().at(2).value<studio::PipelineRunner::Failure>() ==
                studio::PipelineRunner::Failure::Error);
    }

    void changedModelIsDetected() {
        io::Session stale = session_;
        stale.modelSha256 = std::string(64, 'f');
        studio::PipelineRunner runner;
        QSignalSpy failed(&runner, &studio::PipelineRunner::failed);
        runner.run(stale);
        QVERIFY(failed.wait(60000));
        QVERIFY(failed.front().at(2).value<studio::PipelineRunner::Failure>() ==
                studio::PipelineRunner::Failure::ModelChanged);
        QVERIFY(failed.front().at(1).toString().contains(QStringLiteral("changed on disk")));
    }

private:
    QTemporaryDir dir_;
    io::Session session_;
    io::Session resnet_;
};

QTEST_MAIN(TestPipelineRunner)
#include "test_pipeline_runner.moc"
