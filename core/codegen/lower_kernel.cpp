// One kernel plan as one LLVM function (GraphTurbo §4, docs/codegen.md):
//
//   void sc_kNNN_<label>(ptr tensors, ptr arena, ptr scratch,
//                        i64 core, i64 cores, ptr sync)
//
// Every core of the instance's binding runs the function with its id. Layer
// by layer (§4.1): the weight slices that do not follow a tile are promoted
// into the core's scratch once, then the core takes tiles core, core+cores,
// ... of the anchor's tiled loops; per tile it promotes the weight slices
// that follow the tile, then runs the layer's ops, fused, on the tile.
// Stitched buffers (§4.2) are in the shared arena; after each layer the cores
// meet at sc_barrier(sync) (the DSA's synchronization, the host runner's
// barrier) so the next layer may read what any core wrote. Each layer is an
// internal function of the kernel's signature that the kernel calls in turn.
//
// A layer of many ops (a chain of 2,000 fused elementwise ops) puts one loop
// nest per op in its tile loop, and LLVM's loop passes (rotation, unrolling,
// induction-variable simplification) cost more than linearly in the number
// of loops a function holds: 250 ops took 11 s at O2, 500 ops 59 s, 1,000
// ops 362 s. So the ops of a tile go in chunks of kOpsPerFunction into
// functions of their own that the tile loop calls, which keeps compile time
// linear; smaller layers are emitted as before.
//
// A kernel of many layers (most of ResNet-50 in one instance) is lowered in
// parts of about 24 ops (kernelParts, kernel_function.cpp), each a module that compiles
// on its own thread: the first holds the kernel function and calls the later
// parts' layer functions by their external symbols.

#include "codegen/internal/epilogue_chain.h"
#include "codegen/internal/lowering.h"

#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>
#include <map>
#include <optional>
#include <span>

namespace stagecraft::codegen::detail {

namespace {

bool boxIsEmpty(const partition::Box& box) {
    for (const ops::Interval& i : box)
        if (i.empty())
            return true;
    return false;
}

/// Ops of one tile lowered into one function; a layer with more gets
/// functions of this many ops each.
constexpr size_t kOpsPerFunction = 16;
/// Row tiles that each get a copy of the ops with a constant start (host).
constexpr int64_t kMaxConstantRowTiles = 8;

/// A chunk of a tile's ops: the kernel's arguments with the tile index last.
llvm::FunctionType* chunkType(llvm::LLVMContext& ctx) {
    llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
    llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
    return llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr, ptr, ptr, i64, i64, i64},
                                   false);
}

/// Emits the function of one layer. It has the kernel's signature; layers
/// are functions of their own so that the optimizer's cost stays linear in
/// the number of layers of a large instance (they are not inlined back).
class LayerLowering {
public:
    /// \p scratchBytes: of each core's scratch (the plan's, or the host's).
    LayerLowering(llvm::Module& module, llvm::Function* f, const ir::Graph& graph,
                  const partition::SemanticsCache& semantics, const KernelCode& kernel,
                  int64_t scratchBytes, const SourceLines* lines)
        : e_(module, f)
        , f_(f)
        , graph_(graph)
        , semantics_(semantics)
        , k_(kernel)
        , scratchBytes_(scratchBytes)
        , lines_(lines) {
        auto arg = f->arg_begin();
        tensors_ = &*arg++;
        arena_ = &*arg++;
        scratch_ = &*arg++;
        core_ = &*arg++;
        cores_ = &*arg++;
        for (llvm::Argument& a : f->args())
            a.setName(kKernelArgNames[a.getArgNo()]);
    }

    /// The layer function \p layer.
    Status run(const LayerCode& layer, size_t index) {
        layerIndex_ = index;
        begin(layer);
        SC_RETURN_IF_ERROR(lowerLayer(layer));
        e_.b().CreateRetVoid();
        return Status::success();
    }

    /// A chunk function: \p steps of \p layer on the tile its last argument
    /// names.
    Status runChunk(const LayerCode& layer, size_t index, std::span<const OpStep> steps) {
        f_->getArg(5)->setName("tile");
        layerIndex_ = index;
        begin(layer);
        LineScope at(e_.b(), subprogram_, loopLine());
        std::vector<Value*> starts = tileStarts(layer, f_->getArg(5));
        SC_RETURN_IF_ERROR(lowerSteps(layer, steps, starts));
        e_.b().CreateRetVoid();
        return Status::success();
    }

private:
    void begin(const LayerCode& layer) {
        auto& ctx = e_.context();
        aliasing_.emplace(ctx, graph_, layer, f_->getName().str());
        auto* entry = llvm::BasicBlock::Create(ctx, "entry", f_);
        auto* body = llvm::BasicBlock::Create(ctx, "start", f_);
        e_.b().SetInsertPoint(entry);
        describe();
        entryBranch_ = e_.b().CreateBr(body);
        e_.b().SetInsertPoint(body);
        coreScratch_ = e_.b().CreateInBoundsGEP(
            e_.b().getInt8Ty(), scratch_,
            e_.b().CreateMul(core_, e_.i64(scratchBytes_), "", true, true), "core_scratch");
    }

    /// The ops of one tile: inline, or calls of chunk functions when many.
    Status lowerTileOps(const LayerCode& layer, const std::vector<Value*>& starts, Value* tile) {
        std::span<const OpStep> steps(layer.ops);
        if (steps.size() <= kOpsPerFunction)
            return lowerSteps(layer, steps, starts);
        llvm::Module& module = *f_->getParent();
        for (size_t first = 0; first < steps.size(); first += kOpsPerFunction) {
            llvm::Function* chunk = llvm::Function::Create(
                chunkType(module.getContext()), llvm::Function::InternalLinkage,
                k_.symbol + ".layer" + std::to_string(layerIndex_) + ".ops" +
                    std::to_string(first / kOpsPerFunction),
                module);
            chunk->setDoesNotThrow();
            chunk->addFnAttr(llvm::Attribute::NoInline);
            LayerLowering lowering(module, chunk, graph_, semantics_, k_, scratchBytes_, lines_);
            SC_RETURN_IF_ERROR(lowering.runChunk(
                layer, layerIndex_,
                steps.subspan(first, std::min(kOpsPerFunction, steps.size() - first))));
            e_.b().CreateCall(chunk, {tensors_, arena_, scratch_, core_, cores_, tile});
        }
        return Status::success();
    }

    /// The table entry of \p slot, loaded once in the entry block.
    Value* tablePointer(int64_t slot) {
        auto it = table_.find(slot);
        if (it != table_.end())
            return it->second;
        llvm::IRBuilder<> at(entryBranch_);
        Value* address = at.CreateInBoundsGEP(at.getPtrTy(), tensors_, at.getInt64(slot));
        Value* pointer = at.CreateLoad(at.getPtrTy(), address, "t" + std::to_string(slot));
        table_.emplace(slot, pointer);
        return pointer;
    }

    Access access(const LayerCode& layer, const View& v, const std::vector<Value*>& starts) {
        Access a;
        const ir::Tensor& t = graph_.tensor(v.tensor);
        a.dtype = t.dtype;
        a.shape = t.shape;
        switch (v.home) {
        case Home::Global:
            a.base = tablePointer(v.offset);
            break;
        case Home::Stitched:
            a.base = e_.b().CreateInBoundsGEP(e_.b().getInt8Ty(), arena_, e_.i64(v.offset));
            break;
        case Home::Fused:
        case Home::Promoted:
            a.base = e_.b().CreateInBoundsGEP(e_.b().getInt8Ty(), coreScratch_, e_.i64(v.offset));
            break;
        }
        std::vector<int64_t> sizes = layer.tileSizes();
        std::vector<int64_t> extents;
        for (size_t d = 0; d < v.box.size(); ++d) {
            int loop = d < v.tileLoop.size() ? v.tileLoop[d] : -1;
            a.origin.push_back(loop >= 0 ? starts[static_cast<size_t>(loop)] : e_.i64(v.box[d].lo));
            extents.push_back(loop >= 0 ? sizes[static_cast<size_t>(loop)] : v.box[d].size());
        }
        aliasing_->annotate(a, v);
        a.strides.assign(extents.size(), 0);
        int64_t stride = 1;
        for (size_t d = extents.size(); d-- > 0;) {
            a.strides[d] = extents[d] == 1 ? 0 : stride;
            stride *= extents[d];
        }
        // The riscv64 objects read the weights as stored.
        if (v.home == Home::Global && !llvm::Triple(e_.module().getTargetTriple()).isRISCV())
            applyStoredLayout(a, extents, k_, v.offset);
        return a;
    }

    /// The ranges of \p box, tiled dims narrowed to the current tile.
    std::vector<Range> ranges(const LayerCode& layer, const partition::Box& box,
                              const std::vector<int>& tileLoopOfDim,
                              const std::vector<Value*>& starts) {
        std::vector<Range> result;
        for (size_t d = 0; d < box.size(); ++d) {
            int loop = d < tileLoopOfDim.size() ? tileLoopOfDim[d] : -1;
            if (loop >= 0) {
                Value* lo = starts[static_cast<size_t>(loop)];
                int64_t tile = layer.tiles[static_cast<size_t>(loop)].tile;
                result.push_back({lo, e_.b().CreateAdd(lo, e_.i64(tile), "", true, true)});
            } else {
                result.push_back({e_.i64(box[d].lo), e_.i64(box[d].hi + 1)});
            }
        }
        return result;
    }

    std::vector<int> tileLoopsOfOutput(const LayerCode& layer, size_t rank) {
        std::vector<int> loops(rank, -1);
        for (size_t i = 0; i < layer.tiles.size(); ++i)
            if (static_cast<size_t>(layer.tiles[i].dim) < rank)
                loops[static_cast<size_t>(layer.tiles[i].dim)] = static_cast<int>(i);
        return loops;
    }

    void promote(const LayerCode& layer, const Promotion& p, const std::vector<Value*>& starts) {
        LineScope at(
            e_.b(), subprogram_,
            lines_ ? lines_->listing->promotionLine(static_cast<int>(layerIndex_), p.weight) : 0);
        const View& local = layer.views[static_cast<size_t>(p.view)];
        const ir::Tensor& w = graph_.tensor(p.weight);
        View global{p.weight, Home::Global, p.slot, partition::fullBox(w.shape), {}};
        Access from = access(layer, global, starts);
        Access to = access(layer, local, starts);
        e_.forBox(ranges(layer, local.box, local.tileLoop, starts),
                  [&](const std::vector<Value*>& idx) { e_.store(to, idx, e_.load(from, idx)); });
    }

    /// \p steps in order; a contraction with an epilogue (epilogueLength)
    /// gets the epilogue's calls, and those ops are not lowered again when
    /// its lowering applied them; elementwise ops that form a pointwise run
    /// (pointwiseRun) run as one loop.
    Status lowerSteps(const LayerCode& layer, std::span<const OpStep> steps,
                      const std::vector<Value*>& starts) {
        for (size_t i = 0; i < steps.size(); ++i) {
            if (PointwiseRun run = pointwiseRun(graph_, semantics_, layer, steps, i);
                run.length > 0) {
                SC_ASSIGN_OR_RETURN(std::vector<OpCall> calls,
                                    linedCalls(layer, steps.subspan(i, run.length), starts));
                SC_RETURN_IF_ERROR(lowerPointwiseRun(e_, calls, run.stored));
                i += run.length - 1;
                continue;
            }
            const size_t length = epilogueLength(graph_, layer, steps, i);
            SC_ASSIGN_OR_RETURN(std::vector<OpCall> epilogue,
                                linedCalls(layer, steps.subspan(i + 1, length), starts));
            bool applied = false;
            SC_RETURN_IF_ERROR(lowerStep(layer, steps[i], starts, std::move(epilogue), &applied));
            if (applied)
                i += length;
        }
        return Status::success();
    }

    /// The calls of \p steps, each tied to its op's listing line.
    Expected<std::vector<OpCall>> linedCalls(const LayerCode& layer, std::span<const OpStep> steps,
                                             const std::vector<Value*>& starts) {
        std::vector<OpCall> calls;
        for (const OpStep& step : steps) {
            LineScope at(e_.b(), subprogram_, lines_ ? lines_->listing->statementLine(step.op) : 0);
            SC_ASSIGN_OR_RETURN(OpCall call, makeCall(layer, step, starts));
            call.line = e_.b().getCurrentDebugLocation();
            calls.push_back(std::move(call));
        }
        return calls;
    }

    Status lowerStep(const LayerCode& layer, const OpStep& step, const std::vector<Value*>& starts,
                     std::vector<OpCall> epilogue = {}, bool* epilogueApplied = nullptr) {
        LineScope at(e_.b(), subprogram_, lines_ ? lines_->listing->statementLine(step.op) : 0);
        SC_ASSIGN_OR_RETURN(OpCall call, makeCall(layer, step, starts));
        call.epilogue = std::move(epilogue);
        call.epilogueApplied = epilogueApplied;
        return lowerOp(e_, call);
    }

    /// The call of \p step: its tensors' accesses and its regions in the tile.
    Expected<OpCall> makeCall(const LayerCode& layer, const OpStep& step,
                              const std::vector<Value*>& starts) {
        OpCall call;
        call.graph = &graph_;
        call.id = step.op;
        call.semantics = &semantics_.of(step.op);
        const ir::Op& op = graph_.op(step.op);
        for (ir::TensorId in : op.inputs)
            call.inputs.push_back(in == ir::kNoTensor ? Access{}
                                                      : access(layer, *layer.viewOf(in), starts));
        for (size_t o = 0; o < op.outputs.size(); ++o) {
            const partition::Box& region = step.regions[o];
            bool empty = boxIsEmpty(region);
            call.outputs.push_back(empty ? Access{}
                                         : access(layer, *layer.viewOf(op.outputs[o]), starts));
            call.regions.push_back(
                empty ? std::vector<Range>{}
                      : ranges(layer, region, tileLoopsOfOutput(layer, region.size()), starts));
        }
        for (const Access& in : call.inputs)
            if (in.base != nullptr && e_.memoryType(in.dtype) == nullptr)
                return call.error("code generation does not support element type " +
                                  std::string(ir::dtypeName(in.dtype)));
        for (size_t o = 0; o < op.outputs.size(); ++o)
            if (e_.memoryType(graph_.tensor(op.outputs[o]).dtype) == nullptr)
                return call.error("code generation does not support element type " +
                                  std::string(ir::dtypeName(graph_.tensor(op.outputs[o]).dtype)));
        return call;
    }

    /// Tile starts of flat tile index \p t (last loop fastest).
    std::vector<Value*> tileStarts(const LayerCode& layer, Value* t) {
        std::vector<Value*> starts(layer.tiles.size());
        Value* rest = t;
        for (size_t i = layer.tiles.size(); i-- > 0;) {
            const TileLoop& loop = layer.tiles[i];
            if (loop.count() == 1) { // a known start (host_layer.cpp merges a loop whole)
                starts[i] = e_.i64(loop.lo);
                continue;
            }
            Value* index = e_.b().CreateURem(rest, e_.i64(loop.count()));
            rest = e_.b().CreateUDiv(rest, e_.i64(loop.count()));
            starts[i] =
                e_.b().CreateAdd(e_.i64(loop.lo), e_.b().CreateMul(index, e_.i64(loop.tile)));
        }
        return starts;
    }

    /// On the host, the tiles of a tile loop along the output's row (a dense
    /// layer's features, dense_tiles.cpp) when that loop is the last and
    /// has at most kMaxConstantRowTiles tiles: each then runs its own copy
    /// of the ops with its start a constant, as the register-blocked
    /// contraction needs the row's range known (blocked_plan.cpp); 0: none.
    int64_t constantRowTiles(const LayerCode& layer) {
        if (llvm::Triple(e_.module().getTargetTriple()).isRISCV() || layer.tiles.empty() ||
            layer.ops.empty() || layer.ops.size() > kOpsPerFunction)
            return 0;
        const TileLoop& last = layer.tiles.back();
        for (const OpStep& step : layer.ops)
            if (step.regions.empty() || step.regions[0].size() != static_cast<size_t>(last.dim) + 1)
                return 0;
        return last.count() <= kMaxConstantRowTiles ? last.count() : 0;
    }

    /// The ops of tile \p t, one copy per row tile (constantRowTiles).
    Status lowerRowTiles(const LayerCode& layer, const std::vector<Value*>& starts, Value* t,
                         int64_t rowTiles) {
        const TileLoop& last = layer.tiles.back();
        Value* index = e_.b().CreateURem(t, e_.i64(rowTiles));
        Status failure = Status::success();
        for (int64_t i = 0; i < rowTiles; ++i)
            e_.ifThen(e_.b().CreateICmpEQ(index, e_.i64(i)), [&] {
                std::vector<Value*> constant = starts;
                constant.back() = e_.i64(last.lo + i * last.tile);
                if (Status s = lowerTileOps(layer, constant, t); !s.ok() && failure.ok())
                    failure = s;
            });
        return failure;
    }

    /// The line of the layer's tile loops (its anchor's), or 0.
    int loopLine() const {
        return lines_ ? lines_->listing->layerLine(static_cast<int>(layerIndex_)) : 0;
    }

    Status lowerLayer(const LayerCode& layer) {
        LineScope at(e_.b(), subprogram_, loopLine());
        Status failure = Status::success();
        Value* tiles = e_.i64(layer.tileCount());
        e_.ifThen(e_.b().CreateICmpSLT(core_, tiles), [&] {
            for (const Promotion& p : layer.promotions)
                if (!p.perTile)
                    promote(layer, p, {});
            e_.forRange(
                {core_, tiles},
                [&](Value* t) {
                    std::vector<Value*> starts = tileStarts(layer, t);
                    for (const Promotion& p : layer.promotions)
                        if (p.perTile)
                            promote(layer, p, starts);
                    int64_t rowTiles = constantRowTiles(layer);
                    Status s = rowTiles > 1 ? lowerRowTiles(layer, starts, t, rowTiles)
                                            : lowerTileOps(layer, starts, t);
                    if (!s.ok() && failure.ok())
                        failure = s;
                },
                1, cores_);
        });
        return failure;
    }

    /// With source lines: gives the function its subprogram, at its layer's
    /// "# layer N" line (its setup and prologue belong to no op), and makes
    /// that the current location.
    void describe() {
        if (lines_ == nullptr)
            return;
        int line = std::max(1, lines_->listing->headerLine(static_cast<int>(layerIndex_)));
        subprogram_ = describeFunction(*lines_, *f_, line);
        LineScope::set(e_.b(), subprogram_, line);
    }

    Emitter e_;
    llvm::Function* f_;
    const ir::Graph& graph_;
    const partition::SemanticsCache& semantics_;
    const KernelCode& k_;
    int64_t scratchBytes_;
    Value* tensors_ = nullptr;
    Value* arena_ = nullptr;
    Value* scratch_ = nullptr;
    Value* core_ = nullptr;
    Value* cores_ = nullptr;
    Value* coreScratch_ = nullptr;
    llvm::Instruction* entryBranch_ = nullptr;
    std::map<int64_t, Value*> table_;
    std::optional<AliasScopes> aliasing_;
    size_t layerIndex_ = 0;
    const SourceLines* lines_ = nullptr;
    llvm::DISubprogram* subprogram_ = nullptr;
};

} // namespace

Status lowerKernelPart(llvm::Module& module, const ir::Graph& graph,
                       const partition::SemanticsCache& semantics, const KernelCode& kernel,
                       const std::vector<KernelPart>& parts, size_t part,
                       const SourceLines* lines) {
    // The first part's layers are called from its kernel function alone; the
    // others' are called across objects, so they are external.
    auto linkage = part == 0 ? llvm::Function::InternalLinkage : llvm::Function::ExternalLinkage;
    // The host runs the layers as hostLayer makes them (host_layer.cpp).
    const bool host = !llvm::Triple(module.getTargetTriple()).isRISCV();
    const int64_t scratch = host ? hostScratchBytes(graph, kernel) : kernel.scratchBytes;
    std::vector<llvm::Function*> layers;
    for (size_t l = 0; l < kernel.layers.size(); ++l) {
        bool here = l >= parts[part].first && l < parts[part].last;
        if (!here && part != 0)
            continue;
        llvm::Function* f = llvm::Function::Create(
            kernelType(module.getContext()), here ? linkage : llvm::Function::ExternalLinkage,
            kernel.symbol + ".layer" + std::to_string(l), module);
        f->setDoesNotThrow();
        if (here) {
            f->addFnAttr(llvm::Attribute::NoInline);
            const LayerCode& planned = kernel.layers[l];
            SC_RETURN_IF_ERROR(LayerLowering(module, f, graph, semantics, kernel, scratch, lines)
                                   .run(host ? hostLayer(graph, planned, kernel) : planned, l));
        }
        layers.push_back(f);
    }
    if (part == 0)
        buildKernelFunction(module, kernel, layers, lines);
    if (lines != nullptr)
        lines->builder->finalize();
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (llvm::verifyModule(module, &out))
        return Error("kernel " + kernel.symbol + ": the emitted IR does not verify: " +
                     out.str().substr(0, out.str().find('\n')));
    return Status::success();
}

} // namespace stagecraft::codegen::detail
