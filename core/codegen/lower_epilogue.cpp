// Epilogues in registers (docs/codegen.md): the elementwise ops that follow
// a contraction in its layer (bias add, batch norm left unfolded, an
// activation, a residual Add ...) applied to the contraction's sums before
// its single store, instead of as passes of their own over its output. A
// chain qualifies when each op reads the tensor before it exactly once, that
// tensor is read by no other op and lives only in the tile (Home::Fused), and
// every op computes the contraction's region in its floating-point type: so
// nothing else needs the intermediate values, and no rounding to a narrower
// type is skipped. A requantized contraction (QLinearConv, QLinearMatMul)
// starts its chain with the DequantizeLinear of its bytes, an integer one
// (ConvInteger, MatMulInteger) with the Cast of its int32 sums to f32, and
// a chain may end in a QuantizeLinear: the conversions are then the ops'
// own, done in registers (a QDQ ResNet-50's residual blocks). The sums go
// through the ops' own functions (scalarOp) as vectors, each other input
// gathered lane by lane at its output position (LLVM merges adjacent loads
// into one, a broadcast into a splat), so the bits are those of the ops run
// apart, one lane at a time.

#include "codegen/internal/lowering.h"

#include <algorithm>

namespace stagecraft::codegen::detail {

namespace {

/// Output loop values at a lane, made when first asked for.
using LoopsAt = std::function<const std::vector<Value*>&(int64_t lane)>;

/// The elementwise kinds an epilogue takes: those whose scalar function is
/// plain arithmetic, comparison and selection (no libm call, which the
/// riscv64 objects make for exp).
bool epilogueKind(ir::OpKind kind) {
    using enum ir::OpKind;
    switch (kind) {
    case Add:
    case Sub:
    case Mul:
    case Max:
    case Min:
    case Relu:
    case LeakyRelu:
    case Clip:
    case HardSigmoid:
    case HardSwish:
    case BatchNormalization:
        return true;
    default:
        return false;
    }
}

bool contractionKind(ir::OpKind kind) {
    return kind == ir::OpKind::Conv || kind == ir::OpKind::ConvTranspose ||
           kind == ir::OpKind::MatMul;
}

/// Contractions whose sums are requantized to bytes in their own lowering.
bool requantizedKind(ir::OpKind kind) {
    return kind == ir::OpKind::QLinearConv || kind == ir::OpKind::QLinearMatMul;
}

/// Contractions whose int32 sums are their output.
bool summedKind(ir::OpKind kind) {
    return kind == ir::OpKind::ConvInteger || kind == ir::OpKind::MatMulInteger;
}

bool byteType(ir::DType t) {
    return t == ir::DType::UInt8 || t == ir::DType::Int8;
}

/// Inputs of the ops of \p layer that are \p tensor.
int64_t readersOf(const ir::Graph& graph, const LayerCode& layer, ir::TensorId tensor) {
    int64_t readers = 0;
    for (const OpStep& step : layer.ops)
        for (ir::TensorId in : graph.op(step.op).inputs)
            readers += in == tensor ? 1 : 0;
    return readers;
}

/// Whether \p step reads \p current, the chain's last tensor, once, as its
/// only reader, over the contraction's region and shape, and \p current
/// lives only in the tile.
bool readsChainAlone(const ir::Graph& graph, const LayerCode& layer, const OpStep& step,
                     const OpStep& contraction, ir::TensorId current) {
    const ir::Op& op = graph.op(step.op);
    if (op.outputs.size() != 1 || step.regions.size() != 1 ||
        !(step.regions[0] == contraction.regions[0]) ||
        std::count(op.inputs.begin(), op.inputs.end(), current) != 1)
        return false;
    const View* view = layer.viewOf(current);
    return view != nullptr && view->home == Home::Fused && readersOf(graph, layer, current) == 1 &&
           graph.tensor(op.outputs[0]).shape == graph.tensor(current).shape;
}

/// Whether \p step converts \p current at an end of the chain: a
/// DequantizeLinear of bytes or a Cast of int32 to f32 (first), a
/// QuantizeLinear of f32 to bytes (last), reading it as its data.
bool convertsChain(const ir::Graph& graph, const LayerCode& layer, const OpStep& step,
                   const OpStep& contraction, ir::TensorId current, ir::OpKind kind) {
    const ir::Op& op = graph.op(step.op);
    if (op.kind != kind || op.inputs.empty() || op.inputs[0] != current ||
        !readsChainAlone(graph, layer, step, contraction, current))
        return false;
    const ir::DType from = graph.tensor(current).dtype, to = graph.tensor(op.outputs[0]).dtype;
    switch (kind) {
    case ir::OpKind::DequantizeLinear:
        return byteType(from) && to == ir::DType::Float32;
    case ir::OpKind::Cast:
        return from == ir::DType::Int32 && to == ir::DType::Float32;
    default:
        return from == ir::DType::Float32 && byteType(to);
    }
}

/// Whether \p step can follow the chain whose last tensor is \p current.
bool extendsChain(const ir::Graph& graph, const LayerCode& layer, const OpStep& step,
                  const OpStep& contraction, ir::TensorId current, ir::DType type) {
    const ir::Op& op = graph.op(step.op);
    for (ir::TensorId in : op.inputs)
        if (in != ir::kNoTensor && graph.tensor(in).dtype != type)
            return false; // scalarOp's vectors are of one type
    return epilogueKind(op.kind) && op.outputs.size() == 1 &&
           graph.tensor(op.outputs[0]).dtype == type &&
           readsChainAlone(graph, layer, step, contraction, current);
}

/// How an epilogue op's other input varies over the lanes.
enum class LaneRead { Gather, Splat, Contiguous };

/// With lanes along the output's last loop (\p rowLoop): a map that does
/// not read it gives one value for every lane; one whose last dim is that
/// loop plainly (and no other dim reads it), over a dense last dim, reads
/// consecutive elements.
LaneRead laneRead(const ops::AccessMap& map, const Access& input, int rowLoop) {
    auto reads = [&](const ops::IndexExpr& d) {
        return d.full || std::any_of(d.terms.begin(), d.terms.end(),
                                     [&](const ops::IndexTerm& t) { return t.loop == rowLoop; });
    };
    if (map.dims.empty() || std::none_of(map.dims.begin(), map.dims.end(), reads))
        return LaneRead::Splat;
    const ops::IndexExpr& last = map.dims.back();
    const bool plain = !last.full && last.div == 1 && last.mod == 0 && last.terms.size() == 1 &&
                       last.terms[0] == ops::IndexTerm{rowLoop, 1, 1, 0};
    const bool othersStill = std::none_of(map.dims.begin(), map.dims.end() - 1, reads);
    return plain && othersStill && !input.strides.empty() && input.strides.back() == 1
               ? LaneRead::Contiguous
               : LaneRead::Gather;
}

/// Input \p slot of \p op over the lanes (the first \p count), the rest poison.
Value* laneValues(Emitter& e, const OpCall& op, int slot, llvm::Type* vectorType, int64_t count,
                  bool lanesAlongRow, const LoopsAt& loopsAt) {
    const auto lanes =
        static_cast<int64_t>(llvm::cast<llvm::FixedVectorType>(vectorType)->getNumElements());
    const ops::AccessMap& map = *op.semantics->nests[0].accessFor(slot);
    const Access& input = op.inputs[static_cast<size_t>(slot)];
    const LaneRead how = lanesAlongRow ? laneRead(map, input, op.semantics->nests[0].outputRank - 1)
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
        return e.loadMasked(input, index, 0, read);
    }
    Value* gathered = llvm::PoisonValue::get(vectorType);
    for (int64_t lane = 0; lane < count; ++lane)
        gathered = e.b().CreateInsertElement(gathered, loadMapped(e, op, 0, slot, loopsAt(lane)),
                                             static_cast<uint64_t>(lane));
    return gathered;
}

/// Input \p slot of \p op over the lanes of \p like as \p to (f32 or
/// int32), or \p fallback where it is omitted.
Value* lanesAs(Emitter& e, const OpCall& op, int slot, Value* like, int64_t count,
               bool lanesAlongRow, const LoopsAt& loopsAt, ir::DType to, double fallback) {
    const auto lanes = llvm::cast<llvm::FixedVectorType>(like->getType())->getElementCount();
    if (!op.hasInput(slot))
        return e.b().CreateVectorSplat(lanes, e.constant(to, fallback));
    const ir::DType from = inputType(op, slot);
    Value* v = laneValues(e, op, slot, llvm::VectorType::get(e.valueType(from), lanes), count,
                          lanesAlongRow, loopsAt);
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
Value* conversionLanes(Emitter& e, const OpCall& op, Value* x, int64_t count, bool lanesAlongRow,
                       const LoopsAt& loopsAt) {
    const auto lanes = llvm::cast<llvm::FixedVectorType>(x->getType())->getElementCount();
    if (op.op().kind == ir::OpKind::Cast)
        return e.b().CreateSIToFP(x, llvm::VectorType::get(e.b().getFloatTy(), lanes));
    auto input = [&](int slot, ir::DType to, double fallback) {
        return lanesAs(e, op, slot, x, count, lanesAlongRow, loopsAt, to, fallback);
    };
    if (op.op().kind == ir::OpKind::QuantizeLinear)
        return quantized(e, x, input(1, ir::DType::Float32, 1), input(2, ir::DType::Float32, 0),
                         outputType(op, 0));
    Value* whole = e.b().CreateIntCast(x, llvm::VectorType::get(e.b().getInt32Ty(), lanes),
                                       !isUnsigned(inputType(op, 0)));
    return dequantized(e, whole, input(2, ir::DType::Int32, 0), input(1, ir::DType::Float32, 1));
}

} // namespace

size_t epilogueLength(const ir::Graph& graph, const LayerCode& layer, std::span<const OpStep> steps,
                      size_t first) {
    const ir::Op& op = graph.op(steps[first].op);
    const bool requantized = requantizedKind(op.kind), summed = summedKind(op.kind);
    if ((!contractionKind(op.kind) && !requantized && !summed) || op.outputs.size() != 1 ||
        steps[first].regions.size() != 1)
        return 0;
    const OpStep& contraction = steps[first];
    ir::TensorId current = op.outputs[0];
    size_t next = first + 1;
    auto takes = [&](bool taken) {
        if (taken)
            current = graph.op(steps[next++].op).outputs[0];
        return taken;
    };
    if ((requantized || summed) && // its bytes dequantized, its sums cast first
        !takes(next < steps.size() &&
               convertsChain(graph, layer, steps[next], contraction, current,
                             requantized ? ir::OpKind::DequantizeLinear : ir::OpKind::Cast)))
        return 0;
    const ir::DType type = graph.tensor(current).dtype;
    if (type != ir::DType::Float32 && type != ir::DType::Float64)
        return 0;
    while (next < steps.size() &&
           takes(extendsChain(graph, layer, steps[next], contraction, current, type)))
        continue;
    takes(next < steps.size() && convertsChain(graph, layer, steps[next], contraction, current,
                                               ir::OpKind::QuantizeLinear));
    return next - first - 1;
}

Value* applyEpilogue(Emitter& e, const OpCall& call, Value* sums, int64_t count, bool lanesAlongRow,
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
            x = conversionLanes(e, op, x, count, lanesAlongRow, loopsAt);
            x->setName("epilogue");
            current = op.op().outputs[0];
            continue;
        }
        std::vector<Value*> args;
        std::vector<ir::DType> types;
        for (int slot = 0; slot < static_cast<int>(op.op().inputs.size()); ++slot) {
            const bool chained = op.op().inputs[static_cast<size_t>(slot)] == current;
            const bool present = chained || op.hasInput(slot);
            args.push_back(
                chained   ? x
                : present ? laneValues(e, op, slot, x->getType(), count, lanesAlongRow, loopsAt)
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
