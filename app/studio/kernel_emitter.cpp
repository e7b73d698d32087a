#include "studio/kernel_emitter.h"

#include "codegen/object_cache.h"
#include "driver/emit.h"
#include "driver/pipeline.h"

#include <QMetaObject>

#include <algorithm>

namespace stagecraft::studio {

namespace {

/// The summary, or the error, of one emission.
Expected<QString> emitFiles(const KernelEmitter::Request& request,
                            const codegen::EmitProgress& progress) {
    const views::PipelineResult& r = *request.result;
    auto target = codegen::parseTarget(request.target.toStdString());
    if (!target)
        return Error("unknown target '" + request.target.toStdString() + "'");
    SC_ASSIGN_OR_RETURN(codegen::CodePlan plan, driver::planCode(*r.graph, r.eval));
    codegen::EmitOptions options;
    options.target = *target;
    options.optLevel = request.optLevel;
    // As `stagecraft emit`: host objects for a portable CPU, so the library
    // runs on machines other than this one.
    if (*target == codegen::Target::Host)
        options.cpu = codegen::portableHostCpu();
    options.cacheDir = codegen::defaultObjectCacheDir();
    codegen::ManifestInfo info{request.model.toStdString(), r.arch.name, r.strategy};
    SC_ASSIGN_OR_RETURN(driver::Emitted emitted,
                        driver::emitKernels(request.directory.toStdString(), *r.graph,
                                            *r.eval.schedule.semantics, plan, options, info,
                                            progress));
    const codegen::EmittedProgram& program = emitted.program;
    const std::vector<std::string>& notes = emitted.notes;
    auto cached = std::count_if(program.kernels.begin(), program.kernels.end(),
                                [](const codegen::EmittedKernel& k) { return k.cached; });
    QString summary = QStringLiteral("Emitted the model library of %1 kernels for %2 (O%3) "
                                     "into %4 (%5 from the object cache)")
                          .arg(program.kernels.size())
                          .arg(request.target)
                          .arg(program.optLevel)
                          .arg(request.directory)
                          .arg(cached);
    for (const std::string& note : notes)
        summary += QStringLiteral("; ") + QString::fromStdString(note);
    if (options.cacheDir.empty())
        summary += QStringLiteral("; ") + QString::fromStdString(codegen::noObjectCacheDirNote());
    return summary;
}

} // namespace

KernelEmitter::KernelEmitter(QObject* parent)
    : QObject(parent) {}

KernelEmitter::~KernelEmitter() {
    cancel();
    join();
}

bool KernelEmitter::start(const Request& request) {
    if (busy_ || !request.result || request.directory.isEmpty())
        return false;
    join();
    busy_ = true;
    cancelled_ = std::make_shared<std::atomic<bool>>(false);
    worker_ = std::thread([this, request] { work(request); });
    return true;
}

void KernelEmitter::cancel() {
    if (cancelled_)
        cancelled_->store(true);
}

void KernelEmitter::join() {
    if (worker_.joinable())
        worker_.join();
}

void KernelEmitter::work(Request request) {
    auto cancelled = cancelled_;
    auto onProgress = [this, cancelled](const codegen::EmitCount& count) {
        QMetaObject::invokeMethod(
            this,
            [this, done = count.done, total = count.total] {
                emit progress(static_cast<int>(done), static_cast<int>(total));
            },
            Qt::QueuedConnection);
        return !cancelled->load();
    };
    Expected<QString> outcome = emitFiles(request, onProgress);
    QMetaObject::invokeMethod(
        this,
        [this, outcome] {
            busy_ = false;
            if (outcome.ok())
                emit finished(*outcome);
            else
                emit failed(QString::fromStdString(outcome.error().message()));
        },
        Qt::QueuedConnection);
}

} // namespace stagecraft::studio
