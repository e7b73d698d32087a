// Epilogues in registers (docs/codegen.md): the elementwise ops that follow
// a contraction in its layer applied to the contraction's sums before its
// single store, instead of as passes of their own over its output. Which
// chains qualify is decided in epilogue_chain.cpp, which the host's tile
// merging asks too. Here the sums go through the ops' own functions
// (scalarOp) as vectors; an input that moves with the lanes is one masked
// load, one that moves with none a splat, any other gathered lane by lane
// at its output position: so the bits are those of the ops run apart, one
// lane at a time.

#include "codegen/internal/epilogue_chain.h"
#include "codegen/internal/lowering.h"

#include <algorithm>

namespace stagecraft::codegen::detail {

namespace {

/// Output loop values at a lane, made when first asked for.
using LoopsAt = std::function<const std::vector<Value*>&(int64_t lane)>;

/// How an epilogue op's other input varies over the lanes.
enum class LaneRead { Gather, Splat, Contiguous };

/// Whether \p d is loop \p loop alone, plainly.
bool plainLoop(const ops::IndexExpr& d, int loop) {
    return !d.full && d.div == 1 && d.mod == 0 && d.terms.size() == 1 &&
           d.terms[0] == ops::IndexTerm{loop, 1, 1, 0};
}

/// With lanes along the output's last loop (\p rowLoop; flattened, then
/// along \p lanes.outer): a map that reads neither gives one value for
/// every lane; one whose last dim is the row plainly (and, flattened, the
/// dim before it the outer loop, rows lanes.width elements apart), no other
/// dim reading either, over a dense last dim, reads consecutive elements.
LaneRead laneRead(const ops::AccessMap& map, const Access& input, int rowLoop,
                  const EpilogueLanes& lanes) {
    const bool flat = lanes.outer >= 0;
    auto reads = [&](const ops::IndexExpr& d) {
        return d.full || std::any_of(d.terms.begin(), d.terms.end(), [&](const ops::IndexTerm& t) {
                   return t.loop == rowLoop || (flat && t.loop == lanes.outer);
               });
    };
    if (map.dims.empty() || std::none_of(map.dims.begin(), map.dims.end(), reads))
        return LaneRead::Splat;
    const size_t rank = map.dims.size();
    const size_t moving = flat ? 2 : 1;
    if (rank < moving || input.strides.empty() || input.strides.back() != 1 ||
        !plainLoop(map.dims.back(), rowLoop) ||
        std::any_of(map.dims.begin(), map.dims.end() - static_cast<std::ptrdiff_t>(moving), reads))
        return LaneRead::Gather;
    if (flat && (input.strides.size() != rank || !plainLoop(map.dims[rank - 2], lanes.outer) ||
                 input.strides[rank - 2] != lanes.width))
        return LaneRead::Gather;
    return LaneRead::Contiguous;
}

/// Input \p slot of \p op over the lanes (the first \p count), the rest poison.
Value* laneValues(Emitter& e, const OpCall& op, int slot, llvm::Type* vectorType, int64_t count,
                  const EpilogueLanes& along, const LoopsAt& loopsAt) {
    const auto lanes =
        static_cast<int64_t>(llvm::cast<llvm::FixedVectorType>(vectorType)->getNumElements());
    const ops::AccessMap& map = *op.semantics->nests[0].accessFor(slot);
    const Access& input = op.inputs[static_cast<size_t>(slot)];
    const LaneRead how = along.alongRow || along.outer >= 0
                             ? laneRead(map, input, op.semantics->nests[0].outputRank - 1, along)
                             : LaneRead::Gather;
    if (how == LaneRead::Splat)
        return e.b().CreateVectorSplat(static_cast<unsigned>(lanes),
                                       loadMapped(e, op, 0, slot, loopsAt(0)));
    if (how == LaneRead::Contiguous) {
        std::vector<Value*> index;
        for (const ops::IndexExpr& d : map.dims)
            index.push_back(e.evalIndex(d, loopsAt(0)));
        std::vector<bool> read(static_cast<size_t>(lanes), false);
        std::fill_n(read.begin(), count, true);
        Value* loaded = e.loadMasked(input, index, 0, read);
        loaded->setName("epiloguelanes"); // for tests
        return loaded;
    }
    Value* gathered = llvm::PoisonValue::get(vectorType);
    for (int64_t lane = 0; lane < count; ++lane)
        gathered = e.b().CreateInsertElement(gathered, loadMapped(e, op, 0, slot, loopsAt(lane)),
                                             static_cast<uint64_t>(lane), "epiloguegather");
    return gathered;
}

/// Input \p slot of \p op over the lanes of \p like as \p to (f32 or
/// int32), or \p fallback where it is omitted.
Value* lanesAs(Emitter& e, const OpCall& op, int slot, Value* like, int64_t count,
               const EpilogueLanes& along, const LoopsAt& loopsAt, ir::DType to, double fallback) {
    const auto lanes = llvm::cast<llvm::FixedVectorType>(like->getType())->getElementCount();
    if (!op.hasInput(slot))
        return e.b().CreateVectorSplat(lanes, e.constant(to, fallback));
    const ir::DType from = inputType(op, slot);
    Value* v = laneValues(e, op, slot, llvm::VectorType::get(e.valueType(from), lanes), count,
                          along, loopsAt);
    llvm::Type* target = llvm::VectorType::get(e.valueType(to), lanes);
    if (from == to)
        return v;
    if (to == ir::DType::Float32)
        return isUnsigned(from) ? e.b().CreateUIToFP(v, target) : e.b().CreateSIToFP(v, target);
    return e.b().CreateIntCast(v, target, !isUnsigned(from));
}

/// \p x, the lanes of a DequantizeLinear's, QuantizeLinear's or Cast's
/// data, through it: the formulas their own lowerings compute one element
/// with (lowerQuantize; a Cast of int32 to f32 is Emitter::convert's).
Value* conversionLanes(Emitter& e, const OpCall& op, Value* x, int64_t count,
                       const EpilogueLanes& along, const LoopsAt& loopsAt) {
    const auto lanes = llvm::cast<llvm::FixedVectorType>(x->getType())->getElementCount();
    if (op.op().kind == ir::OpKind::Cast)
        return e.b().CreateSIToFP(x, llvm::VectorType::get(e.b().getFloatTy(), lanes));
    auto input = [&](int slot, ir::DType to, double fallback) {
        return lanesAs(e, op, slot, x, count, along, loopsAt, to, fallback);
    };
    if (op.op().kind == ir::OpKind::QuantizeLinear)
        return quantized(e, x, input(1, ir::DType::Float32, 1), input(2, ir::DType::Float32, 0),
                         outputType(op, 0));
    Value* whole = e.b().CreateIntCast(x, llvm::VectorType::get(e.b().getInt32Ty(), lanes),
                                       !isUnsigned(inputType(op, 0)));
    return dequantized(e, whole, input(2, ir::DType::Int32, 0), input(1, ir::DType::Float32, 1));
}

} // namespace

Value* applyEpilogue(Emitter& e, const OpCall& call, Value* sums, int64_t count,
                     const EpilogueLanes& along,
                     const std::function<std::vector<Value*>(int64_t lane)>& loopsOf) {
    const llvm::DebugLoc contractionLine = e.b().getCurrentDebugLocation();
    std::vector<std::vector<Value*>> loops; // per lane, made when an input needs them
    auto loopsAt = [&](int64_t lane) -> const std::vector<Value*>& {
        while (static_cast<int64_t>(loops.size()) <= lane)
            loops.push_back(loopsOf(static_cast<int64_t>(loops.size())));
        return loops[static_cast<size_t>(lane)];
    };
    Value* x = sums;
    ir::TensorId current = call.op().outputs[0];
    for (const OpCall& op : call.epilogue) {
        if (op.line)
            e.b().SetCurrentDebugLocation(op.line);
        const ir::DType type = outputType(op, 0);
        const ir::OpKind kind = op.op().kind;
        if (kind == ir::OpKind::DequantizeLinear || kind == ir::OpKind::QuantizeLinear ||
            kind == ir::OpKind::Cast) {
            x = conversionLanes(e, op, x, count, along, loopsAt);
            x->setName("epilogue");
            current = op.op().outputs[0];
            continue;
        }
        std::vector<Value*> args;
        std::vector<ir::DType> types;
        for (int slot = 0; slot < static_cast<int>(op.op().inputs.size()); ++slot) {
            const bool chained = op.op().inputs[static_cast<size_t>(slot)] == current;
            const bool present = chained || op.hasInput(slot);
            args.push_back(chained   ? x
                           : present ? laneValues(e, op, slot, x->getType(), count, along, loopsAt)
                                     : nullptr);
            types.push_back(present ? type : ir::DType::Undefined);
        }
        // epilogueLength took only kinds scalarOp computes so in this type.
        x = scalarOp(e, op, args, types, type).value();
        if (auto* computed = llvm::dyn_cast<llvm::Instruction>(x))
            computed->setName("epilogue"); // for tests and the kernel view
        current = op.op().outputs[0];
    }
    e.b().SetCurrentDebugLocation(contractionLine);
    return x;
}

} // namespace stagecraft::codegen::detail
