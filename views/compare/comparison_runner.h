#pragma once
// Runs every strategy of sim::strategies() on one request (model, arch,
// level, order, overrides) in one worker thread, one strategy after the
// other, each at its best configuration (runBestConfiguration: the search
// `stagecraft compare` runs), and keeps the results: a strategy already
// computed for the same request is never recomputed, so switching between
// them costs nothing. The newest request wins: a different request cancels
// the running one before its next trial and drops the kept results.

#include "common/latest_worker.h"
#include "common/pipeline_result.h"
#include "common/run_pipeline.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stagecraft::views {

class ComparisonRunner : public QObject {
    Q_OBJECT
public:
    explicit ComparisonRunner(QObject* parent = nullptr);
    ~ComparisonRunner() override;

    /// Compares every strategy on \p request (its strategy field is ignored).
    /// The same model, arch, level, order and overrides as the current
    /// request only computes the strategies still missing.
    void setRequest(const PipelineRequest& request);
    /// Stops the running strategy at its next step; kept results stay. A
    /// later setRequest of the same request resumes the missing ones.
    void cancel();

    bool isBusy() const { return busy_ > 0; }
    bool hasRequest() const { return request_.has_value(); }
    /// The result of \p strategy for the current request, or null.
    ResultPtr result(const QString& strategy) const;
    /// Computed results by strategy name.
    const std::map<std::string, ResultPtr>& results() const { return results_; }
    /// Strategies that failed for the current request, with the message.
    const std::map<std::string, std::string>& failures() const { return failures_; }
    /// Pipelines the worker has run since construction (cached ones excluded).
    int runCount() const { return runs_->load(); }

signals:
    /// \p done of \p total strategies are computed; \p strategy just finished.
    void progress(int done, int total, const QString& strategy);
    void resultReady(const QString& strategy, stagecraft::views::ResultPtr result);
    void failed(const QString& strategy, const QString& message);
    /// The kept results were dropped for a new request.
    void resultsCleared();
    /// Every strategy of the current request is computed or failed.
    void finished();

private:
    struct Job {
        quint64 generation = 0;
        PipelineRequest request;
        std::vector<std::string> strategies;
    };
    void start();
    void runJob(const Job& job);
    void accept(quint64 generation, const std::string& strategy, Expected<ResultPtr> result);
    void jobDone(quint64 generation);
    std::vector<std::string> missing() const;
    bool current(quint64 generation) const { return worker_.isCurrent(generation); }

    LatestWorker worker_{QStringLiteral("stagecraft-compare")};
    std::shared_ptr<std::atomic<int>> runs_;
    std::optional<PipelineRequest> request_;
    /// The ticket of the current request's job.
    quint64 generation_ = 0;
    int busy_ = 0;
    std::map<std::string, ResultPtr> results_;
    std::map<std::string, std::string> failures_;
};

/// Same model, arch, level, order and overrides: the strategies' results of
/// one are valid for the other.
bool sameComparison(const PipelineRequest& a, const PipelineRequest& b);

} // namespace stagecraft::views
