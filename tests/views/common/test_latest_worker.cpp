// The newest-request-wins worker (views/common/latest_worker.h): a new
// ticket makes the older one stale, cancel() makes every ticket stale, jobs
// run on the worker thread in the order posted, a running job sees its
// ticket go stale, and stop() returns only after the running job.

#include "common/latest_worker.h"

#include <QSemaphore>
#include <QtTest>

#include <atomic>
#include <mutex>
#include <vector>

using stagecraft::views::LatestWorker;

class TestLatestWorker : public QObject {
    Q_OBJECT
private slots:
    void ticketsGoStale() {
        LatestWorker worker(QStringLiteral("test"));
        quint64 first = worker.nextTicket();
        QVERIFY(worker.isCurrent(first));
        quint64 second = worker.nextTicket();
        QVERIFY(second != first);
        QVERIFY(!worker.isCurrent(first));
        QVERIFY(worker.isCurrent(second));
        LatestWorker::TicketCheck check = worker.checker();
        QVERIFY(check(second) && !check(first));
        worker.cancel();
        QVERIFY(!worker.isCurrent(second) && !check(second));
        QVERIFY(worker.isCurrent(worker.nextTicket()));
    }

    void jobsRunOnTheWorkerInOrder() {
        LatestWorker worker(QStringLiteral("test-order"));
        std::mutex mutex;
        std::vector<int> ran;
        std::vector<QThread*> threads;
        QSemaphore done;
        for (int i = 0; i < 5; ++i)
            worker.post([&, i] {
                std::lock_guard lock(mutex);
                ran.push_back(i);
                threads.push_back(QThread::currentThread());
                done.release();
            });
        QVERIFY(done.tryAcquire(5, 10000));
        QCOMPARE(ran, (std::vector<int>{0, 1, 2, 3, 4}));
        for (QThread* thread : threads) {
            QVERIFY(thread != QThread::currentThread());
            QCOMPARE(thread->objectName(), QStringLiteral("test-order"));
        }
    }

    void aRunningJobSeesANewerRequest() {
        LatestWorker worker(QStringLiteral("test-stale"));
        quint64 ticket = worker.nextTicket();
        QSemaphore started, sawStale;
        std::atomic<int> checks{0};
        worker.post([&] {
            started.release();
            while (worker.isCurrent(ticket))
                checks.fetch_add(1);
            sawStale.release();
        });
        QVERIFY(started.tryAcquire(1, 10000));
        worker.nextTicket();
        QVERIFY(sawStale.tryAcquire(1, 10000));
    }

    void stopWaitsForTheRunningJob() {
        std::atomic<bool> finished{false};
        QSemaphore started;
        {
            LatestWorker worker(QStringLiteral("test-stop"));
            quint64 ticket = worker.nextTicket();
            worker.post([&] {
                started.release();
                while (worker.isCurrent(ticket))
                    QThread::msleep(1);
                QThread::msleep(50);
                finished.store(true);
            });
            QVERIFY(started.tryAcquire(1, 10000));
        } // ~LatestWorker: stop()
        QVERIFY(finished.load());
    }
};

QTEST_GUILESS_MAIN(TestLatestWorker)
#include "test_latest_worker.moc"
