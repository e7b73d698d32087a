#include "studio/pipeline_runner.h"

#include "studio/pipeline_worker.h"

#include <QMetaObject>

namespace stagecraft::studio {

PipelineRunner::PipelineRunner(QObject* parent)
    : QObject(parent)
    , latest_(std::make_shared<std::atomic<quint64>>(0)) {
    qRegisterMetaType<views::ResultPtr>("stagecraft::views::ResultPtr");
    qRegisterMetaType<io::Session>("stagecraft::io::Session");
    qRegisterMetaType<Failure>("stagecraft::studio::PipelineRunner::Failure");
    worker_ = new PipelineWorker(latest_);
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &PipelineWorker::progress, this, &PipelineRunner::progress);
    connect(worker_, &PipelineWorker::finished, this, [this](quint64 ticket, views::ResultPtr r) {
        --busy_;
        emit finished(ticket, std::move(r));
    });
    connect(worker_, &PipelineWorker::failed, this,
            [this](quint64 ticket, const QString& message, Failure kind) {
                --busy_;
                emit failed(ticket, message, kind);
            });
    connect(worker_, &PipelineWorker::cancelled, this, [this](quint64 ticket) {
        --busy_;
        emit cancelled(ticket);
    });
    thread_.setObjectName(QStringLiteral("stagecraft-pipeline"));
    thread_.start();
}

PipelineRunner::~PipelineRunner() {
    latest_->store(0);
    thread_.quit();
    thread_.wait();
}

quint64 PipelineRunner::run(const io::Session& session) {
    quint64 ticket = ++nextTicket_;
    latest_->store(ticket);
    ++busy_;
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, ticket, session] { worker->process(ticket, session); },
        Qt::QueuedConnection);
    return ticket;
}

void PipelineRunner::cancel() {
    latest_->store(0);
}

} // namespace stagecraft::studio
