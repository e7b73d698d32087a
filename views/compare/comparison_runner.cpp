// The comparison runner: jobs are posted to its LatestWorker; each strategy's
// result is posted back to the GUI thread, where it is kept only if its job's
// ticket is still the newest.

#include "compare/comparison_runner.h"

#include <QMetaObject>

#include <utility>

namespace stagecraft::views {

namespace {

/// Serials of comparison results, far from the main runner's tickets.
uint64_t nextSerial() {
    static std::atomic<uint64_t> serial{uint64_t(1) << 40};
    return ++serial;
}

int strategyCount() {
    return static_cast<int>(sim::strategies().size());
}

} // namespace

bool sameComparison(const PipelineRequest& a, const PipelineRequest& b) {
    return a.graph == b.graph && a.arch == b.arch && a.level == b.level && a.order == b.order &&
           a.overrides == b.overrides;
}

ComparisonRunner::ComparisonRunner(QObject* parent)
    : QObject(parent)
    , runs_(std::make_shared<std::atomic<int>>(0)) {
    qRegisterMetaType<ResultPtr>("stagecraft::views::ResultPtr");
}

ComparisonRunner::~ComparisonRunner() {
    worker_.stop(); // its jobs call back into this object
}

void ComparisonRunner::setRequest(const PipelineRequest& request) {
    if (request_ && sameComparison(*request_, request)) {
        request_->warnings = request.warnings;
        bool cancelled = !current(generation_);
        if ((!isBusy() || cancelled) && !missing().empty())
            start();
        return;
    }
    bool hadResults = !results_.empty() || !failures_.empty();
    results_.clear();
    failures_.clear();
    request_ = request;
    if (hadResults)
        emit resultsCleared();
    start();
}

void ComparisonRunner::cancel() {
    worker_.cancel();
}

ResultPtr ComparisonRunner::result(const QString& strategy) const {
    auto found = results_.find(strategy.toStdString());
    return found == results_.end() ? nullptr : found->second;
}

std::vector<std::string> ComparisonRunner::missing() const {
    std::vector<std::string> names;
    for (const sim::Strategy& s : sim::strategies())
        if (!results_.count(s.name) && !failures_.count(s.name))
            names.push_back(s.name);
    return names;
}

void ComparisonRunner::start() {
    generation_ = worker_.nextTicket();
    Job job{generation_, *request_, missing()};
    if (job.strategies.empty())
        return;
    ++busy_;
    worker_.post([this, job = std::move(job)] { runJob(job); });
}

// Runs in the worker thread: touches only the atomics and the job.
void ComparisonRunner::runJob(const Job& job) {
    for (const std::string& name : job.strategies) {
        if (!current(job.generation))
            break;
        PipelineRequest request = job.request;
        request.strategy = name;
        runs_->fetch_add(1);
        Expected<ResultPtr> result =
            runBestConfiguration(request, nextSerial(), [&] { return current(job.generation); });
        QMetaObject::invokeMethod(
            this,
            [this, generation = job.generation, name, result = std::move(result)]() mutable {
                accept(generation, name, std::move(result));
            },
            Qt::QueuedConnection);
    }
    QMetaObject::invokeMethod(
        this, [this, generation = job.generation] { jobDone(generation); }, Qt::QueuedConnection);
}

void ComparisonRunner::accept(quint64 generation, const std::string& strategy,
                              Expected<ResultPtr> result) {
    if (generation != generation_)
        return;
    QString name = QString::fromStdString(strategy);
    if (!result.ok()) {
        if (!current(generation))
            return; // cancelled: the strategy stays missing
        failures_[strategy] = result.error().message();
        emit failed(name, QString::fromStdString(result.error().message()));
    } else {
        ResultPtr kept = std::move(result).value();
        results_[strategy] = kept;
        emit resultReady(name, kept);
    }
    emit progress(static_cast<int>(results_.size() + failures_.size()), strategyCount(), name);
}

void ComparisonRunner::jobDone(quint64 generation) {
    --busy_;
    if (generation == generation_ && missing().empty())
        emit finished();
}

} // namespace stagecraft::views
