#include "studio/pipeline_worker.h"

#include "arch/arch_json.h"
#include "common/run_pipeline.h"
#include "driver/batch_plan.h"
#include "driver/model_check.h"
#include "ir/precision.h"
#include "onnx/importer.h"
#include "support/sha256.h"
#include "zoo/zoo.h"

#include <QMetaType>

#include <sstream>

namespace stagecraft::studio {

namespace {

std::string loadKey(const io::Session& session) {
    std::ostringstream key;
    key << session.modelPath;
    for (const auto& [name, shape] : session.inputShapes) {
        key << '|' << name << ':';
        for (int64_t dim : shape)
            key << dim << 'x';
    }
    for (const auto& [name, value] : session.dims)
        key << '|' << name << '=' << value;
    for (const auto& [name, text] : session.values)
        key << "|value:" << name << '=' << text;
    if (session.precision)
        key << "|precision=" << ir::dtypeName(*session.precision);
    key << "|seq=" << session.seq;
    return key.str();
}

/// The model of \p session as the CLI names it: a file, or the zoo model
/// whose cached file the session opened (written again at each batch).
driver::ModelSpec specOf(const io::Session& session) {
    driver::ModelSpec spec;
    spec.text = session.modelPath;
    if (std::optional<std::string> name = zoo::cachedZooName(session.modelPath)) {
        spec.zooName = *name;
        spec.cachedZoo = true;
    }
    spec.seq = session.seq;
    spec.import.inputShapes = session.inputShapes;
    spec.import.dims = session.dims;
    spec.import.values = session.values;
    spec.precision = session.precision;
    return spec;
}

/// What `auto`'s choice of the samples per cluster depends on.
std::string autoKey(const io::Session& session) {
    return loadKey(session) + "|total=" + std::to_string(session.batch.total.value_or(0)) +
           "|strategy=" + session.strategy +
           "|level=" + std::string(schedule::levelChoiceName(session.level)) +
           "|arch=" + arch::toJson(session.arch);
}

/// The pipeline's request for \p session without its model and batch.
driver::Request requestTemplate(const io::Session& session) {
    driver::Request run;
    run.arch = session.arch;
    run.strategy = session.strategy;
    run.level = session.level;
    run.order = session.order;
    run.overrides = session.overrides;
    run.recordTrace = false;
    return run;
}

QString stepName(views::PipelineStep step) {
    return step == views::PipelineStep::Schedule
               ? QStringLiteral("Scheduling")
               : QStringLiteral("Planning kernels and simulating");
}

} // namespace

void PipelineWorker::fail(quint64 ticket, const std::string& message) {
    emit failed(ticket, QString::fromStdString(message), PipelineRunner::Failure::Error);
}

std::optional<int64_t> PipelineWorker::perClusterOf(quint64 ticket, const io::Session& session,
                                                    const driver::ModelSpec& spec) {
    const schedule::BatchChoice& batch = session.batch;
    if (!batch.autoPerCluster) {
        if (batch.perCluster)
            return *batch.perCluster;
        Expected<int64_t> model = driver::defaultBatch(spec, true);
        if (!model.ok()) {
            // An open batch dim is seldom the only one: the importer names
            // every dim left open at once.
            Expected<onnxio::ImportResult> asBound = onnxio::importModel(spec.text, spec.import);
            fail(ticket, (asBound.ok() ? model.error() : asBound.error()).message());
            return std::nullopt;
        }
        return *model;
    }
    std::string key = autoKey(session);
    if (autoPick_.key == key)
        return autoPick_.perCluster;
    emit progress(ticket, QStringLiteral("Choosing the samples per cluster"), 10);
    driver::Request run = requestTemplate(session);
    std::string tried;
    auto note = [&](const std::string& line) {
        tried += (tried.empty() ? "" : "; ") + line;
    };
    Expected<driver::PlannedAtBatch> picked = driver::scheduleAtBatch(spec, batch, run, note);
    if (!picked.ok()) {
        fail(ticket, picked.error().message());
        return std::nullopt;
    }
    autoPick_ = AutoPick{key, picked->at.clusters.perCluster, tried};
    return autoPick_.perCluster;
}

bool PipelineWorker::importAt(quint64 ticket, const io::Session& session,
                              const driver::ModelSpec& spec, int64_t perCluster,
                              const std::string& key) {
    emit progress(ticket, QStringLiteral("Reading the model"), 15);
    Expected<std::string> sha = fileSha256(session.modelPath);
    if (!sha.ok()) {
        fail(ticket, sha.error().message());
        return false;
    }
    if (!current(ticket)) {
        emit cancelled(ticket);
        return false;
    }
    emit progress(ticket, QStringLiteral("Importing the model"), 20);
    Expected<driver::LoadedModel> imported = driver::loadModel(spec, perCluster);
    if (!imported.ok()) {
        fail(ticket, imported.error().message());
        return false;
    }
    previous_.reset();
    auto kept = std::make_shared<const driver::LoadedModel>(std::move(imported).value());
    loaded_ = Loaded{key,
                     std::shared_ptr<const ir::Graph>(kept, &kept->graph),
                     std::move(sha).value(),
                     kept->warnings,
                     {}};
    return true;
}

const PipelineWorker::Loaded* PipelineWorker::load(quint64 ticket, const io::Session& session) {
    driver::ModelSpec spec = specOf(session);
    std::optional<int64_t> perCluster = perClusterOf(ticket, session, spec);
    if (!perCluster)
        return nullptr;
    Expected<schedule::ClusterPlan> plan =
        driver::clusterPlanFor(session.batch, *perCluster, session.arch,
                               session.batch.autoPerCluster ? driver::kChosenByFootprint
                               : session.batch.perCluster   ? driver::kChosenGiven
                                                            : driver::kChosenByModel);
    if (!plan.ok()) {
        fail(ticket, plan.error().message());
        return nullptr;
    }
    std::string key = loadKey(session) + "|per-cluster=" + std::to_string(*perCluster);
    if (!(loaded_.graph && loaded_.key == key) &&
        !importAt(ticket, session, spec, *perCluster, key))
        return nullptr;
    loaded_.clusters = std::move(plan).value();
    return &loaded_;
}

void PipelineWorker::process(quint64 ticket, const io::Session& session) {
    if (!current(ticket)) {
        emit cancelled(ticket);
        return;
    }
    if (session.precision)
        if (Status rates = arch::checkPrecisionRates(session.arch, *session.precision);
            !rates.ok()) {
            emit failed(ticket, QString::fromStdString(rates.error().message()),
                        PipelineRunner::Failure::Error);
            return;
        }
    const Loaded* model = load(ticket, session);
    if (!model)
        return;
    if (auto changed =
            driver::modelChangedMessage(session.modelPath, session.modelSha256, model->sha256)) {
        emit failed(ticket, QString::fromStdString(*changed),
                    PipelineRunner::Failure::ModelChanged);
        return;
    }
    views::PipelineRequest request;
    request.graph = model->graph;
    request.modelPath = session.modelPath;
    request.arch = session.arch;
    request.strategy = session.strategy;
    request.level = session.level;
    request.order = session.order;
    request.overrides = session.overrides;
    request.warnings = model->warnings;
    request.clusters = model->clusters;
    auto onStep = [&](views::PipelineStep step) {
        if (!current(ticket))
            return false;
        emit progress(ticket, stepName(step), step == views::PipelineStep::Schedule ? 30 : 60);
        return true;
    };
    Expected<views::ResultPtr> result =
        views::runPipeline(request, previous_.get(), ticket, onStep);
    if (!result.ok()) {
        if (!current(ticket))
            emit cancelled(ticket);
        else
            emit failed(ticket, QString::fromStdString(result.error().message()),
                        PipelineRunner::Failure::Error);
        return;
    }
    auto withSha = std::const_pointer_cast<views::PipelineResult>(std::move(result).value());
    withSha->modelSha256 = model->sha256;
    if (session.batch.autoPerCluster)
        withSha->perClusterWhy = autoPick_.why;
    previous_ = withSha;
    emit finished(ticket, previous_);
}

} // namespace stagecraft::studio
