// SplitInfo (GraphTurbo §3.1, Algorithm 1, Eq. 1).
//
// For each loop dim d of the sub-graph's output, outermost first, the split
// factor f_d is the smallest candidate v (1, 2, 4, 8, 9, ..., size(d);
// divisors only, so instances are alike) whose instance fits the LB capacity
// (line 5). `peak` is the largest tensor the sub-graph produces
// (producedPeakBytes). The paper tests ceil(peak / v); we compute the
// instance's own footprint from its propagated slices, which equals
// ceil(peak / v) when the largest tensor splits evenly and is larger when
// halos or unsplit tensors remain (docs/decisions.md). The split of d propagates through the access
// maps (match_dim, line 10): an op counts in n_d when its output is divided
// by the split and the divided dim's extent is divisible by f_d.
//
// Cost model (§3.1: "prevent excessive recomputations that offset the
// benefits brought by fusion"): a split recomputes halos of fused windows and
// whole unsplit ops in every instance. It is kept only when that extra work
// takes no longer on the cluster than moving the sub-graph's intermediates
// off-core and back would (the gain of fusion).
//
// Input re-reads (§3.1's cost extended to data, docs/decisions.md): a split
// whose instances together read the group's activation inputs more than
// maxInputRereads times their size is refused. A 1x1 conv split on its output
// channels reads its whole input in every instance: f instances, f re-reads.
// Where a fallback capacity exists, weights count too (activations and
// weights read over both read once): an N split of a weight-heavy layer
// streams every weight once per instance.
//
// Best split: lexmax (n_d, -f_d, -r_d, -d) over the candidates (Eq. 1, with
// the re-reads r_d ranked before the dim).
//
// Two levels (§3.6, §4.1): when no candidate survives at the LB capacity and
// a fallback capacity is set (the GB, at the LB level), Algorithm 1 runs again
// at the fallback; such an instance lives in the GB and its layers are tiled
// into the LB by the kernel planner.

#include "partition/split_info.h"

#include "partition/internal/split_effect.h"

#include <algorithm>
#include <map>

namespace stagecraft::partition {

using detail::groupOutputs;
using detail::inGroup;
using detail::largestOf;
using detail::SplitEffect;
using detail::SplitEvaluator;

namespace {

/// Bytes of tensors produced and consumed only inside the group.
int64_t intermediateBytes(const ir::Graph& graph, std::span<const ir::OpId> ops) {
    int64_t bytes = 0;
    for (ir::OpId op : ops)
        for (ir::TensorId out : graph.op(op).outputs) {
            const ir::Tensor& t = graph.tensor(out);
            bool inside = !graph.isGraphOutput(out) && !t.uses.empty() &&
                          std::all_of(t.uses.begin(), t.uses.end(),
                                      [&](const ir::Use& u) { return inGroup(ops, u.op); });
            if (inside)
                bytes += t.byteSize();
        }
    return bytes;
}

bool worthRecomputing(const SplitEffect& effect, int64_t intermediates, const SplitParams& params) {
    if (!params.recomputeCostModel || effect.extraWork <= 0)
        return true;
    double extraSeconds = effect.extraWork / params.clusterOpsPerSecond;
    double savedSeconds = 2.0 * static_cast<double>(intermediates) / params.offCoreBytesPerSecond;
    return extraSeconds <= savedSeconds;
}

/// How many times the instances together read the group's activation inputs.
double rereads(int64_t factor, const SplitEffect& effect) {
    if (effect.inputBytes <= 0)
        return 1.0;
    return static_cast<double>(factor) * effect.inputReadBytes / effect.inputBytes;
}

/// How many times the instances together read all the group's inputs,
/// weights included.
double trafficRereads(int64_t factor, const SplitEffect& effect) {
    double unique = effect.inputBytes + effect.weightBytes;
    if (unique <= 0)
        return 1.0;
    return static_cast<double>(factor) * (effect.inputReadBytes + effect.weightReadBytes) / unique;
}

/// \p withWeights: weights count too (a level with a fallback, where the
/// instances of a refused split can be made fewer and larger).
bool readsTooMuch(int64_t factor, const SplitEffect& effect, const SplitParams& params,
                  bool withWeights) {
    if (factor <= 1 || params.maxInputRereads <= 0)
        return false;
    double times = withWeights ? trafficRereads(factor, effect) : rereads(factor, effect);
    return times > params.maxInputRereads;
}

SplitCandidate toCandidate(int dim, int64_t factor, const SplitEffect& effect) {
    SplitCandidate c;
    c.dim = dim;
    c.factor = factor;
    c.opsSplit = effect.opsSplit;
    c.instanceBytes = effect.footprint;
    c.recompute = effect.totalWork > 0 ? effect.extraWork / effect.totalWork : 0.0;
    c.rereads = factor > 1 ? rereads(factor, effect) : 1.0; // one instance reads once
    return c;
}

/// Lines 4-6 of Algorithm 1: the smallest candidate v whose instance fits.
/// No instance is smaller than an even share, ceil(peak / v), which gives a
/// lower bound; it usually fits already (no halos, the largest tensor splits
/// evenly). Otherwise footprints shrink as v grows and the search is binary.
std::optional<std::pair<int64_t, SplitEffect>> smallestFit(const SplitEvaluator& evaluator, int dim,
                                                           const std::vector<int64_t>& candidates,
                                                           int64_t peak, int64_t capacity) {
    auto fits = [&](const SplitEffect& effect) {
        return effect.valid && effect.footprint <= capacity;
    };
    size_t lo = 0;
    while (lo < candidates.size() && (peak + candidates[lo] - 1) / candidates[lo] > capacity)
        ++lo;
    if (lo == candidates.size())
        return std::nullopt;
    SplitEffect first = evaluator.evaluate(dim, candidates[lo]);
    if (fits(first))
        return std::make_pair(candidates[lo], first);
    size_t hi = candidates.size() - 1;
    SplitEffect best = lo == hi ? first : evaluator.evaluate(dim, candidates[hi]);
    if (!fits(best))
        return std::nullopt;
    ++lo; // candidates[lo] did not fit
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        SplitEffect effect = evaluator.evaluate(dim, candidates[mid]);
        if (fits(effect)) {
            hi = mid;
            best = effect;
        } else {
            lo = mid + 1;
        }
    }
    return std::make_pair(candidates[hi], best);
}

bool better(const SplitCandidate& a, const SplitCandidate& b, bool rankRereads) {
    if (a.opsSplit != b.opsSplit)
        return a.opsSplit > b.opsSplit;
    if (a.factor != b.factor)
        return a.factor < b.factor;
    if (rankRereads && a.rereads != b.rereads)
        return a.rereads < b.rereads;
    return a.dim < b.dim;
}

/// Lines 2-7 of Algorithm 1 at one capacity: a candidate per dim that fits,
/// is worth its recomputation and does not re-read its inputs too often.
std::vector<SplitCandidate> candidatesAt(const ir::Graph& graph, const SplitEvaluator& evaluator,
                                         std::span<const ir::OpId> ops, int64_t peak,
                                         int64_t capacity, const SplitParams& params,
                                         bool withWeights) {
    std::vector<SplitCandidate> candidates;
    int64_t intermediates = intermediateBytes(graph, ops);
    const ir::Shape& shape = graph.tensor(evaluator.output()).shape;
    for (size_t d = 0; d < shape.size(); ++d) {
        auto fit = smallestFit(evaluator, static_cast<int>(d), splitFactorCandidates(shape[d]),
                               peak, capacity);
        if (!fit || !worthRecomputing(fit->second, intermediates, params) ||
            readsTooMuch(fit->first, fit->second, params, withWeights))
            continue;
        candidates.push_back(toCandidate(static_cast<int>(d), fit->first, fit->second));
    }
    return candidates;
}

/// Seconds the instances of a split of \p v spend on data a GB-resident
/// instance cannot keep: every instance hoists the group's weights into each
/// core's LB, and what its live set and weights hold beyond \p capacity goes
/// to DDR and back.
double residencyCost(int64_t v, const SplitEffect& effect, int64_t capacity,
                     const SplitParams& params) {
    double held = static_cast<double>(effect.liveSet) + effect.weightBytes;
    double overflow = std::max(0.0, held - static_cast<double>(capacity));
    double hoist = effect.weightBytes * static_cast<double>(params.cores) /
                   std::max(params.hoistBytesPerSecond, 1.0);
    double ddr = params.ddrBytesPerSecond > 0 ? 2.0 * overflow / params.ddrBytesPerSecond : 0.0;
    return static_cast<double>(v) * (hoist + ddr);
}

/// The final split of a group whose instances live in the GB (§3.6, or the
/// two-level fallback): from \p best's factor up along its dim, to the first
/// whose instance holds its live set and the group's weights in \p capacity,
/// the factor of least residencyCost (the fewest instances when equal);
/// \p best when no larger factor passes the checks (docs/decisions.md).
SplitCandidate holdingLiveSet(const ir::Graph& graph, const SplitEvaluator& evaluator,
                              std::span<const ir::OpId> ops, const SplitCandidate& best,
                              int64_t capacity, const SplitParams& params) {
    int64_t extent = graph.tensor(evaluator.output()).shape[static_cast<size_t>(best.dim)];
    int64_t intermediates = intermediateBytes(graph, ops);
    SplitCandidate chosen = best;
    double least = -1;
    for (int64_t v : splitFactorCandidates(extent)) {
        if (v < best.factor)
            continue;
        SplitEffect effect = evaluator.evaluate(best.dim, v, true);
        if (!effect.valid || !worthRecomputing(effect, intermediates, params) ||
            (v > best.factor && readsTooMuch(v, effect, params, false)))
            break;
        double cost = residencyCost(v, effect, capacity, params);
        if (least < 0 || cost < least) {
            least = cost;
            chosen = v == best.factor ? best : toCandidate(best.dim, v, effect);
        }
        if (static_cast<double>(effect.liveSet) + effect.weightBytes <=
            static_cast<double>(capacity))
            break; // more instances only hoist the weights more often
    }
    return chosen;
}

} // namespace

SplitParams splitParamsFor(const arch::Arch& arch) {
    SplitParams params;
    params.capacityBytes = arch::aggregateActivationBytes(arch);
    double chip = arch::peakOpsPerSecond(arch, ir::DType::Float32);
    if (chip > 0 && arch.clusters > 0)
        params.clusterOpsPerSecond = chip / static_cast<double>(arch.clusters);
    const arch::Path* path = arch::findPath(arch, arch::Memory::GB, arch::Memory::LB);
    if (path == nullptr)
        path = arch::findPath(arch, arch::Memory::DDR, arch::Memory::LB);
    if (path != nullptr && path->bandwidthGBps > 0) {
        params.offCoreBytesPerSecond = path->bandwidthGBps * 1e9;
        params.hoistBytesPerSecond = params.offCoreBytesPerSecond;
    }
    if (const arch::Path* ddr = arch::findPath(arch, arch::Memory::DDR, arch::Memory::GB))
        params.ddrBytesPerSecond =
            ddr->bandwidthGBps * 1e9 /
            static_cast<double>(
                ddr->sharedBy == arch::Sharing::Chip && arch.clusters > 0 ? arch.clusters : 1);
    params.cores = 0;
    for (const arch::CoreGroup& group : arch.cluster.coreGroups)
        params.cores += group.count;
    params.cores = std::max<int64_t>(params.cores, 1);
    return params;
}

std::vector<int64_t> splitFactorCandidates(int64_t extent) {
    if (extent < 1)
        return {};                 // an empty dim has nothing to split (and no factor divides it)
    std::vector<int64_t> divisors; // by pairs up to sqrt(extent): flattened dims reach 10^5
    for (int64_t v = 1; v * v <= extent; ++v)
        if (extent % v == 0) {
            divisors.push_back(v);
            divisors.push_back(extent / v);
        }
    std::sort(divisors.begin(), divisors.end());
    divisors.erase(std::unique(divisors.begin(), divisors.end()), divisors.end());
    std::vector<int64_t> values;
    for (int64_t v : divisors)
        if (v >= 9 || v == 1 || v == 2 || v == 4 || v == 8)
            values.push_back(v);
    if (values.empty() || values.back() != extent) // the list ends at size(d) even below 9
        values.push_back(extent);
    return values;
}

ir::TensorId primaryOutput(const ir::Graph& graph, std::span<const ir::OpId> ops) {
    return largestOf(graph, ops, groupOutputs(graph, ops));
}

BoxMap instanceBoxes(const ir::Graph& graph, const SemanticsCache& semantics,
                     std::span<const ir::OpId> ops, ir::TensorId output, int dim, int64_t factor,
                     int64_t index) {
    const ir::Shape& shape = graph.tensor(output).shape;
    Box box = fullBox(shape);
    int64_t length = shape[static_cast<size_t>(dim)] / factor;
    box[static_cast<size_t>(dim)] = {index * length, (index + 1) * length - 1};
    std::pair<ir::TensorId, Box> seed{output, std::move(box)};
    return propagateBoxes(graph, semantics, ops, std::span(&seed, 1));
}

SplitInfo computeSplitInfo(const ir::Graph& graph, const SemanticsCache& semantics,
                           std::span<const ir::OpId> ops, const SplitParams& params) {
    SplitInfo info;
    SplitEvaluator evaluator(graph, semantics, ops, groupOutputs(graph, ops));
    info.output = evaluator.output();
    info.peakBytes = producedPeakBytes(graph, ops);
    bool fallback = params.fallbackCapacityBytes > params.capacityBytes;
    info.candidates = candidatesAt(graph, evaluator, ops, info.peakBytes, params.capacityBytes,
                                   params, fallback && params.countWeightRereads);
    bool atFallback = info.candidates.empty() && fallback;
    if (atFallback)
        info.candidates = candidatesAt(graph, evaluator, ops, info.peakBytes,
                                       params.fallbackCapacityBytes, params, false);
    for (const SplitCandidate& c : info.candidates)
        if (!info.best || better(c, *info.best, params.maxInputRereads > 0))
            info.best = c;
    if (info.best && params.finalSplit && params.residentSplits &&
        (atFallback || params.capacityIsGlobal)) {
        SplitCandidate held = holdingLiveSet(
            graph, evaluator, ops, *info.best,
            atFallback ? params.fallbackCapacityBytes : params.capacityBytes, params);
        if (held.factor != info.best->factor)
            info.resident = held;
    }
    return info;
}

std::optional<int64_t> bestSplitFactor(const ir::Graph& graph, const SemanticsCache& semantics,
                                       std::span<const ir::OpId> ops, const SplitParams& params) {
    ir::TensorId output = primaryOutput(graph, ops);
    if (!graph.tensor(output).shape.empty() &&
        producedPeakBytes(graph, ops) <= params.capacityBytes)
        return 1;
    SplitInfo info = computeSplitInfo(graph, semantics, ops, params);
    return info.best ? std::optional<int64_t>(info.best->factor) : std::nullopt;
}

Expected<SplitCandidate> evaluateSplit(const ir::Graph& graph, const SemanticsCache& semantics,
                                       std::span<const ir::OpId> ops, int dim, int64_t factor) {
    SplitEvaluator evaluator(graph, semantics, ops, groupOutputs(graph, ops));
    const ir::Tensor& t = graph.tensor(evaluator.output());
    if (dim < 0 || static_cast<size_t>(dim) >= t.shape.size())
        return Error("dim " + std::to_string(dim) + " is out of range for the output " +
                     ir::formatShape(t.shape));
    int64_t extent = t.shape[static_cast<size_t>(dim)];
    if (factor < 1 || extent % factor != 0)
        return Error("factor " + std::to_string(factor) + " does not divide dim " +
                     std::to_string(dim) + " (extent " + std::to_string(extent) + ")");
    SplitEffect effect = evaluator.evaluate(dim, factor);
    if (!effect.valid)
        return Error("a split of dim " + std::to_string(dim) +
                     " cannot divide every output of the sub-graph");
    return toCandidate(dim, factor, effect);
}

} // namespace stagecraft::partition
