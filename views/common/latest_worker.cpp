// The newest-request-wins worker (latest_worker.h): jobs are functors queued
// to a context object living in the worker thread; a ticket is current while
// the shared counter holds it (0: none is).

#include "common/latest_worker.h"

#include <QMetaObject>
#include <QObject>

#include <utility>

namespace stagecraft::views {

LatestWorker::LatestWorker(const QString& threadName)
    : context_(new QObject)
    , current_(std::make_shared<std::atomic<quint64>>(0)) {
    thread_.setObjectName(threadName);
    adopt(context_);
    thread_.start();
}

LatestWorker::~LatestWorker() {
    stop();
}

quint64 LatestWorker::nextTicket() {
    current_->store(++issued_);
    return issued_;
}

void LatestWorker::cancel() {
    current_->store(0);
}

bool LatestWorker::isCurrent(quint64 ticket) const {
    return current_->load() == ticket;
}

LatestWorker::TicketCheck LatestWorker::checker() const {
    return [current = current_](quint64 ticket) {
        return current->load() == ticket;
    };
}

void LatestWorker::post(std::function<void()> job) {
    QMetaObject::invokeMethod(context_, std::move(job), Qt::QueuedConnection);
}

void LatestWorker::adopt(QObject* object) {
    object->moveToThread(&thread_);
    QObject::connect(&thread_, &QThread::finished, object, &QObject::deleteLater);
}

void LatestWorker::stop() {
    cancel();
    thread_.quit();
    thread_.wait();
}

} // namespace stagecraft::views
