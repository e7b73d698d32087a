// Reading a profile back (profile.h). Every figure is checked against what
// it stands for, as `run --profile` writes it, so that a hand-edited, broken
// or foreign file is refused in one line naming the field and the kernel
// rather than drawn: a negative median, min above max, 2^62 cores. Then the
// check that a profile was measured for the model and schedule it is shown
// beside: the same model, strategy and kernel symbols.

#include "codegen/profile.h"
#include "json/fields.h"
#include "support/strings.h"

#include <cmath>
#include <filesystem>

namespace stagecraft::codegen {

namespace {

using json_fields::child;
using json_fields::errorAt;
using json_fields::Json;
using json_fields::mustBe;

/// Longer than any measurement (11.6 days); keeps sums of medians finite.
constexpr double kMaxNs = 1e15;
/// An architecture's most cores per chip (docs/arch.md).
constexpr int64_t kMaxCores = 65536;
/// `run --repeat` and `--warmup` take at most this many runs.
constexpr int64_t kMaxRuns = 100000;

Expected<double> readNs(const Json& object, const std::string& path, const char* key) {
    SC_ASSIGN_OR_RETURN(const Json* value, json_fields::required(object, path, key));
    double ns = value->is_number() ? value->get<double>() : -1;
    if (!std::isfinite(ns) || ns < 0 || ns > kMaxNs)
        return mustBe(child(path, key), "a number of nanoseconds from 0 to 1e15", *value);
    return ns;
}

/// A whole number from \p least to \p most; \p what says why those bounds.
Expected<int64_t> readCount(const Json& object, const std::string& path, const char* key,
                            int64_t least, int64_t most, const std::string& what) {
    SC_ASSIGN_OR_RETURN(const Json* value, json_fields::required(object, path, key));
    // An unsigned number beyond int64 reads negative here: refused too.
    if (!value->is_number_integer() || value->get<int64_t>() < least ||
        value->get<int64_t>() > most)
        return mustBe(child(path, key),
                      "a whole number from " + std::to_string(least) + " to " +
                          std::to_string(most) + what,
                      *value);
    return value->get<int64_t>();
}

Status checkHeader(const Json& doc) {
    const Json* format = doc.is_object() ? json_fields::optional(doc, "format") : nullptr;
    if (format == nullptr || !format->is_string() || format->get<std::string>() != kProfileFormat)
        return Error("format: expected \"" + std::string(kProfileFormat) + "\"");
    const Json* version = json_fields::optional(doc, "version");
    if (version == nullptr || !version->is_number_integer() ||
        version->get<int64_t>() != kProfileVersion)
        return Error("version: expected " + std::to_string(kProfileVersion));
    return Status::success();
}

/// The kernel's order is its place in the list.
Status checkPlace(const Json& k, const std::string& path, size_t index) {
    SC_ASSIGN_OR_RETURN(const Json* order, json_fields::required(k, path, "order"));
    if (!order->is_number_integer() || order->get<int64_t>() != static_cast<int64_t>(index))
        return mustBe(child(path, "order"), std::to_string(index) + ", the kernel's place", *order);
    return Status::success();
}

/// min <= median <= max, named by \p path.
Status checkSpread(const KernelTiming& t, const std::string& path) {
    auto shown = [](double ns) {
        return Json(ns).dump();
    };
    if (t.minNs > t.medianNs)
        return mustBe(child(path, "min_ns"), "at most median_ns, " + shown(t.medianNs),
                      Json(t.minNs));
    if (t.maxNs < t.medianNs)
        return mustBe(child(path, "max_ns"), "at least median_ns, " + shown(t.medianNs),
                      Json(t.maxNs));
    return Status::success();
}

Expected<KernelTiming> readKernel(const Json& k, size_t index) {
    std::string path = json_fields::item("kernels", index);
    if (!k.is_object())
        return mustBe(path, "an object", k);
    KernelTiming t;
    SC_ASSIGN_OR_RETURN(t.symbol, json_fields::stringField(k, path, "symbol"));
    SC_ASSIGN_OR_RETURN(t.instance, json_fields::stringField(k, path, "instance"));
    path += " ('" + printable(t.symbol) + "')";
    SC_RETURN_IF_ERROR(checkPlace(k, path, index));
    if (std::string expected = kernelSymbol(index, t.instance); t.symbol != expected)
        return errorAt(child(path, "symbol"), "must be " + quote(expected) + ", of kernel " +
                                                  std::to_string(index) + " and instance " +
                                                  quote(t.instance));
    SC_ASSIGN_OR_RETURN(t.cores, readCount(k, path, "cores", 1, kMaxCores,
                                           ", an architecture's most cores per chip"));
    SC_ASSIGN_OR_RETURN(t.medianNs, readNs(k, path, "median_ns"));
    SC_ASSIGN_OR_RETURN(t.minNs, readNs(k, path, "min_ns"));
    SC_ASSIGN_OR_RETURN(t.maxNs, readNs(k, path, "max_ns"));
    SC_RETURN_IF_ERROR(checkSpread(t, path));
    return t;
}

Expected<Profile> readProfile(const Json& doc) {
    SC_RETURN_IF_ERROR(checkHeader(doc));
    Profile p;
    for (auto [key, slot] :
         {std::pair{"model", &p.model}, std::pair{"arch", &p.arch},
          std::pair{"strategy", &p.strategy}, std::pair{"precision", &p.precision}}) {
        SC_ASSIGN_OR_RETURN(*slot, json_fields::stringField(doc, "", key));
    }
    std::string runs = ", as run --repeat and --warmup take them";
    SC_ASSIGN_OR_RETURN(int64_t warmups, readCount(doc, "", "warmups", 0, kMaxRuns, runs));
    SC_ASSIGN_OR_RETURN(int64_t repetitions, readCount(doc, "", "repetitions", 1, kMaxRuns, runs));
    p.warmups = static_cast<int>(warmups);
    p.repetitions = static_cast<int>(repetitions);
    SC_ASSIGN_OR_RETURN(p.totalMedianNs, readNs(doc, "", "total_median_ns"));
    SC_ASSIGN_OR_RETURN(const Json* kernels, json_fields::required(doc, "", "kernels"));
    if (!kernels->is_array())
        return mustBe("kernels", "an array", *kernels);
    for (size_t i = 0; i < kernels->size(); ++i) {
        SC_ASSIGN_OR_RETURN(KernelTiming t, readKernel((*kernels)[i], i));
        p.kernels.push_back(std::move(t));
    }
    return p;
}

/// Whether the profile's \p model names the same model as \p loaded: the
/// same text, or two files of the same name.
bool sameModel(const std::string& model, const std::string& loaded) {
    if (model == loaded)
        return true;
    auto isZoo = [](const std::string& text) {
        return text.rfind("zoo:", 0) == 0;
    };
    if (model.empty() || loaded.empty() || isZoo(model) || isZoo(loaded))
        return false;
    return std::filesystem::path(model).filename() == std::filesystem::path(loaded).filename();
}

} // namespace

Expected<Profile> readProfileJson(std::string_view text, const std::string& source) {
    Expected<Json> doc = json_fields::parse(text);
    Expected<Profile> profile = doc.ok() ? readProfile(*doc) : Expected<Profile>(doc.error());
    if (!profile.ok())
        return profile.error().withContext(source);
    return profile;
}

std::vector<std::string> kernelSymbols(const kernel::Program& program) {
    std::vector<std::string> symbols;
    for (size_t k = 0; k < program.kernels.size(); ++k)
        symbols.push_back(kernelSymbol(k, program.kernels[k].label));
    return symbols;
}

Status checkProfileTarget(const Profile& profile, const ProfileTarget& target,
                          const std::string& source) {
    auto refuse = [&](const std::string& message) {
        return Error(source + ": " + message);
    };
    bool modelMatches = false;
    for (const std::string& name : target.models)
        modelMatches = modelMatches || sameModel(profile.model, name);
    if (!modelMatches)
        return refuse("model: measured for " + quote(profile.model) + ", not the loaded " +
                      quote(target.models.empty() ? std::string() : target.models.front()));
    if (profile.strategy != target.strategy)
        return refuse("strategy: measured with " + quote(profile.strategy) +
                      ", not the shown schedule's " + quote(target.strategy));
    const size_t count = profile.kernels.size();
    for (size_t k = 0; k < std::min(count, target.symbols.size()); ++k)
        if (profile.kernels[k].symbol != target.symbols[k])
            return refuse("kernels[" + std::to_string(k) +
                          "]: " + quote(profile.kernels[k].symbol) +
                          " where the shown schedule has " + quote(target.symbols[k]));
    if (count != target.symbols.size())
        return refuse("kernels: " + std::to_string(count) + " measured, the shown schedule has " +
                      std::to_string(target.symbols.size()));
    return Status::success();
}

} // namespace stagecraft::codegen
