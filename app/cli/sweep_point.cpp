// One sweep point: the same steps as `stagecraft compare` for one strategy
// (the batch from Table 2 or the spec, the strategy at its best
// configuration, driver/optimum.h, with what the point gives fixed), with
// the loaded models shared between the points of a sweep.

#include "cli/sweep_point.h"

#include "cli/batch_config.h"
#include "cli/schedule_model.h"
#include "driver/optimum.h"
#include "ir/precision.h"
#include "sweep/variant.h"

#include <future>
#include <map>
#include <mutex>

namespace stagecraft::cli {

namespace {

/// Values computed once per key, by the first thread that asks; the others
/// wait for it.
template <class T>
class Memo {
public:
    template <class Make>
    T get(const std::string& key, Make make) {
        std::promise<T> promise;
        std::shared_future<T> future;
        bool mine = false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            auto [it, inserted] = values_.try_emplace(key);
            if (inserted)
                it->second = promise.get_future().share();
            future = it->second;
            mine = inserted;
        }
        if (mine)
            promise.set_value(make());
        return future.get();
    }

private:
    std::mutex mutex_;
    std::map<std::string, std::shared_future<T>> values_;
};

using SharedModel = Expected<std::shared_ptr<const LoadedModel>>;

std::string modelKey(const ModelSpec& model, int64_t perCluster) {
    return model.text + "|" + std::to_string(model.seq) + "|" +
           (model.precision ? std::string(ir::dtypeName(*model.precision)) : "model") + "|" +
           std::to_string(perCluster);
}

Expected<ModelSpec> modelSpec(const sweep::SweepPoint& point) {
    ModelSpec model;
    model.text = point.model.text;
    if (model.text.rfind("zoo:", 0) == 0)
        model.zooName = model.text.substr(4);
    model.seq = point.model.seq;
    if (point.precision != "model") {
        SC_ASSIGN_OR_RETURN(ir::DType dtype, ir::parsePrecision(point.precision));
        model.precision = dtype;
    }
    return model;
}

} // namespace

class PointCache {
public:
    Memo<SharedModel> models;
};

std::shared_ptr<PointCache> makePointCache() {
    return std::make_shared<PointCache>();
}

namespace {

SharedModel loadShared(PointCache& cache, const ModelSpec& model, int64_t perCluster) {
    return cache.models.get(modelKey(model, perCluster), [&]() -> SharedModel {
        Expected<LoadedModel> loaded = loadModel(model, perCluster);
        if (!loaded.ok())
            return inModel(model, loaded.error());
        return std::make_shared<const LoadedModel>(std::move(loaded).value());
    });
}

sweep::PointResult resultOf(const sim::Report& report) {
    sweep::PointResult r;
    r.levelUsed = report.level;
    r.totalBatch = report.totalBatch;
    r.perCluster = report.perCluster;
    r.kernels = report.kernels;
    r.spills = report.spills;
    r.latencyMs = report.latencyUs / 1000.0;
    r.throughput = report.throughput;
    r.rooflineMs = report.rooflineUs / 1000.0;
    r.efficiency = report.efficiency;
    r.energyMj = report.energyMj();
    r.edpMjMs = report.edpMjMs();
    for (size_t i = 0; i < r.trafficBytes.size(); ++i)
        r.trafficBytes[i] = report.trafficBytes[i];
    return r;
}

Expected<sweep::PointResult> evaluate(const sweep::SweepSpec& spec, const arch::Arch& base,
                                      const sweep::SweepPoint& point, PointCache& cache) {
    SC_ASSIGN_OR_RETURN(arch::Arch arch, sweep::archVariant(base, spec, point));
    SC_ASSIGN_OR_RETURN(ModelSpec model, modelSpec(point));
    SC_RETURN_IF_ERROR(checkPrecision(model, arch));
    const sim::Strategy* strategy = sim::findStrategy(point.strategy);
    if (strategy == nullptr)
        return Error(sim::unknownStrategyMessage(point.strategy));
    SC_ASSIGN_OR_RETURN(driver::Workload workload,
                        workloadFor(model, point.batch, point.perCluster, arch));
    workload.graphAt = [&cache, model](int64_t k) -> Expected<std::shared_ptr<const ir::Graph>> {
        SC_ASSIGN_OR_RETURN(auto loaded, loadShared(cache, model, k));
        return std::shared_ptr<const ir::Graph>(loaded, &loaded->graph);
    };
    driver::Fixed fixed;
    fixed.perCluster = point.perCluster;
    if (point.level != "auto")
        fixed.level = schedule::parseLevel(point.level).value_or(schedule::Level::LB);
    schedule::ScheduleOptions options;
    options.recordTrace = false;
    SC_ASSIGN_OR_RETURN(driver::Optimum best,
                        driver::bestConfiguration(workload, arch, *strategy, fixed, options));
    return resultOf(best.eval.report);
}

} // namespace

sweep::PointResult evaluatePoint(const sweep::SweepSpec& spec, const arch::Arch& base,
                                 const sweep::SweepPoint& point, PointCache& cache) {
    try {
        Expected<sweep::PointResult> result = evaluate(spec, base, point, cache);
        if (result.ok())
            return std::move(result).value();
        sweep::PointResult failed;
        failed.error = result.error().message();
        return failed;
    } catch (const std::exception& e) {
        sweep::PointResult failed;
        failed.error = std::string("internal error: ") + e.what();
        return failed;
    }
}

} // namespace stagecraft::cli
