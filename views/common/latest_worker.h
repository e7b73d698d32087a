#pragma once
// One worker thread where the newest request wins. Each request takes a
// ticket; the request before it becomes stale, and its job, asking before
// each step whether its ticket is still current, stops. Jobs run one at a
// time, in the order posted; results go back to the owner's thread by the
// owner's queued calls. The pipeline runner, the comparison runner and the
// Graphviz layouter are built on it.

#include <QString>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

class QObject;

namespace stagecraft::views {

class LatestWorker {
public:
    /// Whether a ticket is still current; safe on any thread, and it may
    /// outlive the worker.
    using TicketCheck = std::function<bool(quint64 ticket)>;

    explicit LatestWorker(const QString& threadName);
    /// stop().
    ~LatestWorker();
    LatestWorker(const LatestWorker&) = delete;
    LatestWorker& operator=(const LatestWorker&) = delete;

    /// A new ticket, the current one: every earlier ticket is stale.
    quint64 nextTicket();
    /// Makes every ticket stale: a running job stops at its next check.
    void cancel();
    bool isCurrent(quint64 ticket) const;
    TicketCheck checker() const;

    /// Runs \p job on the worker thread after the jobs posted before it.
    void post(std::function<void()> job);
    /// Moves \p object to the worker thread; it is deleted when the thread ends.
    void adopt(QObject* object);
    /// Makes every ticket stale, lets the running job return and ends the
    /// thread (queued jobs are dropped). An owner whose jobs call back into
    /// it calls this first in its destructor.
    void stop();

private:
    QThread thread_;
    QObject* context_ = nullptr;
    std::shared_ptr<std::atomic<quint64>> current_;
    quint64 issued_ = 0;
};

} // namespace stagecraft::views
