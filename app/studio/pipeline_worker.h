#pragma once
// The worker behind PipelineRunner; lives in the runner's thread. It keeps
// the loaded model (per file and bindings) and the previous result, so that
// an edit re-runs only from the schedule step.

#include "common/latest_worker.h"
#include "common/pipeline_result.h"
#include "io/session_json.h"
#include "studio/pipeline_runner.h"

#include <QObject>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stagecraft::studio {

class PipelineWorker : public QObject {
    Q_OBJECT
public:
    explicit PipelineWorker(views::LatestWorker::TicketCheck current)
        : current_(std::move(current)) {}

    void process(quint64 ticket, const io::Session& session);

signals:
    void progress(quint64 ticket, const QString& step, int percent);
    void finished(quint64 ticket, stagecraft::views::ResultPtr result);
    void failed(quint64 ticket, const QString& message,
                stagecraft::studio::PipelineRunner::Failure kind);
    void cancelled(quint64 ticket);

private:
    struct Loaded {
        std::string key;
        std::shared_ptr<const ir::Graph> graph;
        std::string sha256;
        std::vector<std::string> warnings;
    };

    bool current(quint64 ticket) const { return current_(ticket); }
    /// The model of \p session, from the cache or imported; empty on failure
    /// (reported) or cancel.
    const Loaded* load(quint64 ticket, const io::Session& session);

    views::LatestWorker::TicketCheck current_;
    Loaded loaded_;
    views::ResultPtr previous_;
};

} // namespace stagecraft::studio
