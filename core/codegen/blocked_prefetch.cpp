// The epilogue's inputs prefetched a segment ahead in the register-blocked
// contraction (docs/decisions.md, "Residuals prefetched a segment ahead").
// A residual Add's other input, shaped as the output, is read only when a
// tile's reduction is done, one plane per tile row. With the output's
// planes apart (NCHW), a 1 x 1 Conv's tile walks the planes of its input,
// its residual and its output at once, more streams than the hardware
// prefetcher follows, and the epilogue's loads wait for memory: on
// `znver3`, 60 % of ResNet-50 layer1.0.conv3's samples fell on the Relu
// after its residual's load (`perf annotate`). So before its reduction
// each tile prefetches the lines its rows will read in the next segment;
// a segment of every tile later they are in L1. The host only: the DSA's
// caches are not modelled. Prefetches change no value.

#include "codegen/internal/blocked_emitter.h"

#include <llvm/IR/Intrinsics.h>

#include <algorithm>

namespace stagecraft::codegen::detail {

namespace {

constexpr int64_t kLineBytes = 64;

/// The inputs of \p call's epilogue shaped as its output, read element by
/// element as it is (the epilogue's ops are elementwise): a residual.
std::vector<const Access*> readsLikeOutput(const OpCall& call) {
    std::vector<const Access*> reads;
    const ir::Shape& shape = call.outputs[0].shape;
    for (const OpCall& op : call.epilogue)
        for (size_t slot = 0; slot < op.inputs.size(); ++slot)
            if (op.hasInput(static_cast<int>(slot)) && op.inputs[slot].shape == shape &&
                op.op().inputs[slot] != call.op().outputs[0] &&
                std::none_of(call.epilogue.begin(), call.epilogue.end(), [&](const OpCall& o) {
                    return o.op().outputs[0] == op.op().inputs[slot];
                }))
                reads.push_back(&op.inputs[slot]);
    return reads;
}

} // namespace

bool prefetchesEpilogue(const OpCall& call, const BlockedPlan& plan) {
    const int rank = call.semantics->nests[0].outputRank;
    return plan.outStride == 1 && plan.row == rank - 1 && plan.start == nullptr &&
           !readsLikeOutput(call).empty();
}

void BlockedEmitter::prefetchNextSegment(const Segment& s, Value* block, int64_t tile) {
    // The next segment's positions along the (flattened) row, the last one
    // for a segment past the end: every address stays inside the tensor.
    const int64_t first = plan_.outer < 0 ? plan_.first : 0;
    Value* last = e_.i64(first + plan_.positions() - 1);
    Value* next = e_.b().CreateAdd(s.first, e_.i64(s.width));
    for (const Access* input : readsLikeOutput(call_)) {
        const int64_t perLine = std::max<int64_t>(1, kLineBytes / ir::dtypeSize(input->dtype));
        std::vector<int64_t> offsets; // a lane of each line, and the last lane
        for (int64_t lane = 0; lane < s.width; lane += perLine)
            offsets.push_back(lane);
        if ((s.width - 1) % perLine != 0)
            offsets.push_back(s.width - 1);
        for (int64_t r = 0; r < tile; ++r)
            for (int64_t offset : offsets) {
                Value* position = e_.min(e_.b().CreateAdd(next, e_.i64(offset)), last);
                std::vector<Value*> loops = at(block, r, position);
                loops.resize(static_cast<size_t>(nest_.outputRank));
                Value* address = e_.elementPtr(*input, loops);
                // A read (0), kept in every level (3), of data (1).
                e_.b().CreateIntrinsic(
                    llvm::Intrinsic::prefetch, {address->getType()},
                    {address, e_.b().getInt32(0), e_.b().getInt32(3), e_.b().getInt32(1)});
            }
    }
}

} // namespace stagecraft::codegen::detail
