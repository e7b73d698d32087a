#pragma once
// The worker behind PipelineRunner; lives in the runner's thread. It keeps
// the loaded model (per file and bindings) and the previous result, so that
// an edit re-runs only from the schedule step.

#include "common/pipeline_result.h"
#include "io/session_json.h"
#include "studio/pipeline_runner.h"

#include <QObject>

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stagecraft::studio {

class PipelineWorker : public QObject {
    Q_OBJECT
public:
    explicit PipelineWorker(std::shared_ptr<std::atomic<quint64>> latest)
        : latest_(std::move(latest)) {}

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

    bool current(quint64 ticket) const { return latest_->load() == ticket; }
    /// The model of \p session, from the cache or imported; empty on failure
    /// (reported) or cancel.
    const Loaded* load(quint64 ticket, const io::Session& session);

    std::shared_ptr<std::atomic<quint64>> latest_;
    Loaded loaded_;
    views::ResultPtr previous_;
};

} // namespace stagecraft::studio
