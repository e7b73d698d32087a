#include "studio/pipeline_worker.h"

#include "common/run_pipeline.h"
#include "driver/model_check.h"
#include "ir/precision.h"
#include "onnx/importer.h"
#include "support/sha256.h"

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
    return key.str();
}

QString stepName(views::PipelineStep step) {
    return step == views::PipelineStep::Schedule
               ? QStringLiteral("Scheduling")
               : QStringLiteral("Planning kernels and simulating");
}

} // namespace

const PipelineWorker::Loaded* PipelineWorker::load(quint64 ticket, const io::Session& session) {
    std::string key = loadKey(session);
    if (loaded_.graph && loaded_.key == key)
        return &loaded_;
    emit progress(ticket, QStringLiteral("Reading the model"), 5);
    Expected<std::string> sha = fileSha256(session.modelPath);
    if (!sha.ok()) {
        emit failed(ticket, QString::fromStdString(sha.error().message()),
                    PipelineRunner::Failure::Error);
        return nullptr;
    }
    if (!current(ticket)) {
        emit cancelled(ticket);
        return nullptr;
    }
    emit progress(ticket, QStringLiteral("Importing the model"), 15);
    onnxio::ImportOptions options;
    options.inputShapes = session.inputShapes;
    options.dims = session.dims;
    options.values = session.values;
    Expected<onnxio::ImportResult> imported = onnxio::importModel(session.modelPath, options);
    if (imported.ok() && session.precision) {
        Expected<ir::Graph> converted = ir::convertPrecision(imported->graph, *session.precision);
        if (converted.ok())
            imported->graph = std::move(converted).value();
        else
            imported = converted.error();
    }
    if (!imported.ok()) {
        emit failed(ticket, QString::fromStdString(imported.error().message()),
                    PipelineRunner::Failure::Error);
        return nullptr;
    }
    previous_.reset();
    loaded_ = Loaded{key, std::make_shared<const ir::Graph>(std::move(imported->graph)),
                     std::move(sha).value(), std::move(imported->warnings)};
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
    previous_ = withSha;
    emit finished(ticket, previous_);
}

} // namespace stagecraft::studio
