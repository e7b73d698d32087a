// Weight promotion in the streams (GraphTurbo §2.2, Fig. 11; docs/simulator.md):
// a layer's weights come DDR->GB by DMA unless the GB weight cache holds them
// (the GB bytes above the activations at the layer's task, least recently
// used dropped as the room shrinks), then GB->LB into the LB's fixed reserve.
// The reserve holds two layers' weights: a hoist waits for the layer two back
// to finish computing. In a run of instances that share a launch, the next
// instance's weights may come while the one before computes.

#include "kernel/internal/stream_builder.h"

#include <algorithm>

namespace stagecraft::kernel::detail {

int64_t WeightCache::uncachedBytes(const Layer& layer, int64_t capacity,
                                   std::vector<TaskId>& fetches) {
    evictDownTo(capacity);
    int64_t fetched = 0;
    for (const Layer::WeightUse& w : layer.weights) {
        auto hit = std::find_if(entries_.begin(), entries_.end(),
                                [&](const Entry& e) { return e.tensor == w.tensor; });
        if (hit != entries_.end()) {
            fetches.push_back(hit->fetch);
            std::rotate(hit, hit + 1, entries_.end()); // most recent last
            continue;
        }
        if (w.gathered || w.wholeBytes > capacity) {
            fetched += w.readBytes; // streamed: the part (the rows) read only
            continue;
        }
        evictDownTo(capacity - w.wholeBytes);
        entries_.push_back({w.tensor, w.wholeBytes, kNoTask});
        bytes_ += w.wholeBytes;
        fetched += w.wholeBytes;
    }
    return fetched;
}

void WeightCache::setFetch(TaskId dma) {
    for (Entry& e : entries_)
        if (e.fetch == kNoTask)
            e.fetch = dma;
}

/// Drops the least recently used weights until at most \p bytes stay
/// cached (read-only copies: dropping one costs nothing).
void WeightCache::evictDownTo(int64_t bytes) {
    while (bytes_ > bytes && !entries_.empty()) {
        bytes_ -= entries_.front().bytes;
        entries_.erase(entries_.begin());
    }
}

/// The weight cache's bytes at \p task: the GB above its activations.
int64_t StreamBuilder::cacheBytesAt(int32_t task) const {
    const auto& bytes = program_.weightCacheBytes;
    return task >= 0 && static_cast<size_t>(task) < bytes.size() ? bytes[static_cast<size_t>(task)]
                                                                 : 0;
}

/// The DMA of \p layer's uncached weights and the hoist of \p hoistBytes of
/// them into the reserve; appends to \p after what the layer's tiles wait for.
void StreamBuilder::weights(const Layer& layer, const Task& base, int64_t hoistBytes,
                            std::vector<TaskId>& after) {
    TaskId dma = kNoTask;
    // A weight found in the cache can be promoted once the DMA that brought
    // it has ended (it may still run: a shared launch promotes early).
    std::vector<TaskId> ready = {run_.launch, weightsAfter_};
    if (arch_.cluster.globalBuffer)
        if (int64_t bytes = cache_.uncachedBytes(layer, cacheBytesAt(layer.task), ready);
            bytes > 0) {
            dma = transfer(TaskKind::WeightDma, arch::Memory::DDR, arch::Memory::GB, bytes, base,
                           {run_.launch, weightsAfter_, run_.lastDma});
            cache_.setFetch(dma);
            residency_.brought(bytes);
        }
    run_.lastDma = dma != kNoTask ? dma : run_.lastDma;
    const auto& ends = run_.layerEnds;
    TaskId twoBack = run_.hoistedLayers >= 2 ? ends[ends.size() - 2].second : kNoTask;
    ++run_.hoistedLayers;
    ready.push_back(dma);
    ready.push_back(twoBack);
    if (hoistBytes == 0 && layer.doubleBuffered) { // its weights all follow the tiles
        after.insert(after.end(), ready.begin(), ready.end());
        return;
    }
    // Promoted weights sit in the GB, fetched now or found in its cache: the
    // hoist starts there whenever the architecture has a GB.
    arch::Memory from = arch_.cluster.globalBuffer ? arch::Memory::GB : arch::Memory::DDR;
    after.push_back(
        transfer(TaskKind::WeightHoist, from, arch::Memory::LB, hoistBytes, base, ready));
}

} // namespace stagecraft::kernel::detail
