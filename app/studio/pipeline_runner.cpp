#include "studio/pipeline_runner.h"

#include "studio/pipeline_worker.h"

#include <QMetaObject>

namespace stagecraft::studio {

PipelineRunner::PipelineRunner(QObject* parent)
    : QObject(parent) {
    qRegisterMetaType<views::ResultPtr>("stagecraft::views::ResultPtr");
    qRegisterMetaType<io::Session>("stagecraft::io::Session");
    qRegisterMetaType<Failure>("stagecraft::studio::PipelineRunner::Failure");
    worker_ = new PipelineWorker(jobs_.checker());
    jobs_.adopt(worker_);
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
}

PipelineRunner::~PipelineRunner() {
    jobs_.stop();
}

quint64 PipelineRunner::run(const io::Session& session) {
    quint64 ticket = jobs_.nextTicket();
    ++busy_;
    jobs_.post([worker = worker_, ticket, session] { worker->process(ticket, session); });
    return ticket;
}

void PipelineRunner::cancel() {
    jobs_.cancel();
}

} // namespace stagecraft::studio
