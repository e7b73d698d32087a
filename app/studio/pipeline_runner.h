#pragma once
// Runs the pipeline off the GUI thread: load (import + SHA-256, cached per
// model file and bindings) → schedule → kernel plans and simulation, in one
// worker thread. The newest request wins: an older run stops at its next
// step. Results arrive as one immutable views::ResultPtr.

#include "common/latest_worker.h"
#include "common/pipeline_result.h"
#include "io/session_json.h"

#include <QObject>
#include <QString>

namespace stagecraft::studio {

class PipelineWorker;

class PipelineRunner : public QObject {
    Q_OBJECT
public:
    enum class Failure { Error, ModelChanged };
    Q_ENUM(Failure)

    explicit PipelineRunner(QObject* parent = nullptr);
    ~PipelineRunner() override;

    /// Starts a run for \p session and returns its ticket. A session whose
    /// modelSha256 is set must match the file, or the run fails with
    /// Failure::ModelChanged.
    quint64 run(const io::Session& session);
    /// Stops the current run at its next step (it reports cancelled()).
    void cancel();
    bool isBusy() const { return busy_ > 0; }

signals:
    void progress(quint64 ticket, const QString& step, int percent);
    void finished(quint64 ticket, stagecraft::views::ResultPtr result);
    void failed(quint64 ticket, const QString& message,
                stagecraft::studio::PipelineRunner::Failure kind);
    void cancelled(quint64 ticket);

private:
    views::LatestWorker jobs_{QStringLiteral("stagecraft-pipeline")};
    /// Lives in jobs_' thread.
    PipelineWorker* worker_ = nullptr;
    int busy_ = 0;
};

} // namespace stagecraft::studio
