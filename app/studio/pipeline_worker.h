#pragma once
// The worker behind PipelineRunner; lives in the runner's thread. It keeps
// the loaded model (per file, bindings and samples per cluster), the samples
// per cluster `auto` chose (kept through edits, as the level is) and the
// previous result, so that an edit re-runs only from the schedule step.

#include "common/latest_worker.h"
#include "common/pipeline_result.h"
#include "driver/model_load.h"
#include "io/session_json.h"
#include "studio/pipeline_runner.h"

#include <QObject>

#include <map>
#include <memory>
#include <optional>
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
        /// The model's batch over the clusters.
        schedule::ClusterPlan clusters;
    };
    /// The samples per cluster `auto` chose for a model, architecture and
    /// strategy, and the candidates it tried.
    struct AutoPick {
        std::string key;
        int64_t perCluster = 0;
        std::string why;
    };

    bool current(quint64 ticket) const { return current_(ticket); }
    /// The model of \p session, from the cache or imported; empty on failure
    /// (reported) or cancel.
    const Loaded* load(quint64 ticket, const io::Session& session);
    /// The samples per cluster of \p session: given, the model's, or chosen
    /// by `auto` (then remembered); a failure is reported.
    std::optional<int64_t> perClusterOf(quint64 ticket, const io::Session& session,
                                        const driver::ModelSpec& spec);
    /// Imports \p spec at \p perCluster into loaded_ (key \p key).
    bool importAt(quint64 ticket, const io::Session& session, const driver::ModelSpec& spec,
                  int64_t perCluster, const std::string& key);
    void fail(quint64 ticket, const std::string& message);

    views::LatestWorker::TicketCheck current_;
    Loaded loaded_;
    AutoPick autoPick_;
    views::ResultPtr previous_;
};

} // namespace stagecraft::studio
