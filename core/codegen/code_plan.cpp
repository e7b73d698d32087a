// Code plans (GraphTurbo §4.1–4.3, docs/codegen.md): where each tensor of a
// kernel lives and how each layer is tiled, read from the kernel plans.
//
// Homes: a tensor that leaves its instance (a group output or a graph
// output) is global; one produced and read only inside its layer is a fused
// intermediate in the core's scratch; one read by a later layer is stitched
// in the kernel's arena, whose offsets come from the same first-fit
// allocator as §4.3 (one pool, reuse after the last reading layer). Weights
// are promoted into scratch unless an op reads one of their dims `full`
// (a gather's table: rows are picked by data, the whole table would not fit)
// or the kernel plan streams them (kernel/plan.h WeightUse::streamed: cut by
// no tile and larger than a core keeps), both read in place.
//
// Tiles: the plan's (§4.1), which cut only the loops kernel/tile_rule.h
// allows; the same rule is checked again here, and a loop it refuses is
// dropped (the reason is kept), so a plan that broke it would still emit
// correct code.

#include "codegen/code_plan.h"

#include "kernel/allocation.h"
#include "kernel/tile_rule.h"

#include <algorithm>
#include <map>
#include <set>

namespace stagecraft::codegen {

namespace {

using partition::Box;
using partition::BoxMap;
using partition::GroupId;

constexpr int64_t kAlign = 64;
/// The one pool the stitched buffers of a kernel are placed in.
constexpr kernel::PoolId kArena{0};

int64_t alignUp(int64_t bytes) {
    return (bytes + kAlign - 1) / kAlign * kAlign;
}

/// The box of \p tensor in \p slices, or an empty box of its rank.
Box boxOr(const ir::Graph& graph, const BoxMap& slices, ir::TensorId tensor) {
    if (const Box* box = slices.find(tensor))
        return *box;
    return Box(graph.tensor(tensor).shape.size());
}

/// What planning one kernel reads.
struct KernelContext {
    const ir::Graph& graph;
    const partition::SemanticsCache& semantics;
    const CodePlan& plan;
    BoxMap slices;
    /// Layer index of every op of the kernel.
    std::map<ir::OpId, int> layerOf;
};

/// True when \p tensor must be in the table: it leaves the instance.
bool leavesInstance(const KernelContext& k, ir::TensorId tensor) {
    if (k.graph.isGraphOutput(tensor))
        return true;
    for (const ir::Use& use : k.graph.tensor(tensor).uses)
        if (k.layerOf.count(use.op) == 0)
            return true;
    return false;
}

/// The last layer reading \p tensor inside the kernel.
int lastReader(const KernelContext& k, ir::TensorId tensor, int producerLayer) {
    int last = producerLayer;
    for (const ir::Use& use : k.graph.tensor(tensor).uses)
        if (auto it = k.layerOf.find(use.op); it != k.layerOf.end())
            last = std::max(last, it->second);
    return last;
}

/// The layer's tile loops from the plan's, checked (file comment).
std::vector<TileLoop> chooseTiles(const KernelContext& k, const kernel::Layer& layer,
                                  const std::vector<ir::OpId>& ops, std::string& reason) {
    const ir::Op& anchor = k.graph.op(layer.anchor);
    if (anchor.outputs.empty() || layer.tileCount <= 1)
        return {};
    const Box* box = k.slices.find(anchor.outputs.front());
    std::vector<TileLoop> tiles;
    for (size_t i = 0; i < layer.tiles.size() && box != nullptr && i < box->size(); ++i) {
        const kernel::TileLoop& t = layer.tiles[i];
        if ((*box)[i].size() != t.extent || t.tile < 1 || t.extent % t.tile != 0)
            break;
        tiles.push_back({static_cast<int>(i), (*box)[i].lo, t.extent, t.tile});
    }
    while (!tiles.empty()) {
        reason = kernel::tilingProblem(k.graph, k.semantics, k.slices, ops, *box,
                                       static_cast<int>(tiles.size()));
        if (reason.empty())
            break;
        tiles.pop_back();
    }
    // Loops with one tile need no loop.
    tiles.erase(std::remove_if(tiles.begin(), tiles.end(),
                               [](const TileLoop& t) { return t.count() == 1; }),
                tiles.end());
    return tiles;
}

/// The tile loop index each dim of \p weight follows when every reader in
/// the layer indexes it with a tiled output loop (-1: the box).
std::vector<int> weightTileLoops(const KernelContext& k, const std::vector<ir::OpId>& ops,
                                 const std::vector<TileLoop>& tiles, ir::TensorId weight) {
    std::vector<int> tiledDims;
    for (const TileLoop& t : tiles)
        tiledDims.push_back(t.dim);
    std::vector<int> loops = kernel::weightTileDims(k.graph, k.semantics, ops, tiledDims, weight);
    for (int& loop : loops)
        if (loop >= 0)
            loop = static_cast<int>(std::find(tiledDims.begin(), tiledDims.end(), loop) -
                                    tiledDims.begin());
    return loops;
}

bool readFully(const KernelContext& k, const std::vector<ir::OpId>& ops, ir::TensorId weight) {
    for (ir::OpId op : ops) {
        const ir::Op& o = k.graph.op(op);
        for (const ops::LoopNest& nest : k.semantics.of(op).nests)
            for (const ops::AccessMap& map : nest.inputs)
                if (o.inputs[static_cast<size_t>(map.operand)] == weight &&
                    std::any_of(map.dims.begin(), map.dims.end(),
                                [](const ops::IndexExpr& e) { return e.full; }))
                    return true;
    }
    return false;
}

View globalView(const KernelContext& k, ir::TensorId tensor) {
    return View{tensor,
                Home::Global,
                k.plan.slotOf(tensor),
                partition::fullBox(k.graph.tensor(tensor).shape),
                {}};
}

/// Builds a layer's views, promotions and scratch layout. \p homes gives the
/// home and arena offset of the tensors the kernel produces.
class LayerPlanner {
public:
    LayerPlanner(const KernelContext& k,
                 const std::map<ir::TensorId, std::pair<Home, int64_t>>& homes, LayerCode& layer,
                 const std::vector<ir::OpId>& ops, const kernel::Layer& planned)
        : k_(k)
        , homes_(homes)
        , layer_(layer)
        , ops_(ops)
        , planned_(planned) {}

    void run() {
        std::vector<int64_t> sizes = layer_.tileSizes();
        for (ir::OpId op : ops_) {
            for (ir::TensorId in : k_.graph.op(op).inputs)
                if (in != ir::kNoTensor)
                    addView(in, sizes);
            for (ir::TensorId out : k_.graph.op(op).outputs)
                addView(out, sizes);
        }
    }

private:
    void addView(ir::TensorId tensor, const std::vector<int64_t>& sizes) {
        if (layer_.viewOf(tensor) != nullptr)
            return;
        const ir::Tensor& t = k_.graph.tensor(tensor);
        auto home = homes_.find(tensor);
        if (t.isConstant()) {
            addWeight(tensor, sizes);
        } else if (home == homes_.end() || home->second.first == Home::Global) {
            layer_.views.push_back(globalView(k_, tensor));
        } else if (home->second.first == Home::Stitched) {
            layer_.views.push_back({tensor, Home::Stitched, home->second.second,
                                    boxOr(k_.graph, k_.slices, tensor),
                                    std::vector<int>(t.shape.size(), -1)});
        } else {
            std::vector<int> loops(t.shape.size(), -1);
            for (size_t i = 0; i < layer_.tiles.size(); ++i)
                loops[static_cast<size_t>(layer_.tiles[i].dim)] = static_cast<int>(i);
            addScratch({tensor, Home::Fused, 0, boxOr(k_.graph, k_.slices, tensor), loops}, sizes);
        }
    }

    void addWeight(ir::TensorId weight, const std::vector<int64_t>& sizes) {
        if (readFully(k_, ops_, weight) || streamed(weight)) {
            layer_.views.push_back(globalView(k_, weight));
            return;
        }
        std::vector<int> loops = weightTileLoops(k_, ops_, layer_.tiles, weight);
        bool perTile = std::any_of(loops.begin(), loops.end(), [](int l) { return l >= 0; });
        int32_t index = addScratch(
            {weight, Home::Promoted, 0, boxOr(k_.graph, k_.slices, weight), loops}, sizes);
        layer_.promotions.push_back({weight, k_.plan.slotOf(weight), index, perTile});
    }

    bool streamed(ir::TensorId weight) const {
        return std::any_of(planned_.weights.begin(), planned_.weights.end(),
                           [&](const auto& w) { return w.tensor == weight && w.streamed; });
    }

    int32_t addScratch(View view, const std::vector<int64_t>& sizes) {
        view.offset = layer_.scratchBytes;
        layer_.scratchBytes += alignUp(view.storageBytes(k_.graph, sizes));
        layer_.views.push_back(std::move(view));
        return static_cast<int32_t>(layer_.views.size() - 1);
    }

    const KernelContext& k_;
    const std::map<ir::TensorId, std::pair<Home, int64_t>>& homes_;
    LayerCode& layer_;
    const std::vector<ir::OpId>& ops_;
    const kernel::Layer& planned_;
};

/// Homes of the tensors the kernel produces; stitched ones get arena offsets.
Expected<std::map<ir::TensorId, std::pair<Home, int64_t>>> planHomes(const KernelContext& k,
                                                                     int64_t& arenaBytes) {
    std::map<ir::TensorId, std::pair<Home, int64_t>> homes;
    kernel::Requests requests;
    IdVector<kernel::RequestId, ir::TensorId> stitched;
    int64_t total = 0;
    for (const auto& [op, layer] : k.layerOf)
        for (ir::TensorId out : k.graph.op(op).outputs) {
            if (leavesInstance(k, out)) {
                homes[out] = {Home::Global, k.plan.slotOf(out)};
                continue;
            }
            int last = lastReader(k, out, layer);
            if (last == layer) {
                homes[out] = {Home::Fused, 0};
                continue;
            }
            int64_t bytes = alignUp(partition::boxElements(boxOr(k.graph, k.slices, out)) *
                                    ir::dtypeSize(k.graph.tensor(out).dtype));
            requests.push_back({k.graph.tensor(out).name, bytes, layer, last, kArena});
            stitched.push_back(out);
            total += bytes;
        }
    kernel::Pools pools{{"arena", std::max<int64_t>(total, 1), kernel::kNoPool}};
    SC_ASSIGN_OR_RETURN(kernel::Allocation alloc, kernel::allocate(pools, requests));
    for (kernel::RequestId r : stitched.ids())
        homes[stitched[r]] = {Home::Stitched, alloc.tensors[r].placements.front().offset};
    arenaBytes = requests.empty() ? 0 : alloc.peakBytes[kArena];
    return homes;
}

std::vector<ir::OpId> layerOps(const kernel::Layer& layer) {
    std::vector<ir::OpId> ops;
    for (const kernel::OpWork& w : layer.ops)
        ops.push_back(w.op);
    return ops;
}

void addSlots(const ir::Graph& graph, KernelCode& code) {
    std::set<int32_t> reads, writes;
    for (const LayerCode& layer : code.layers) {
        for (const Promotion& p : layer.promotions)
            reads.insert(p.slot);
        for (const OpStep& step : layer.ops) {
            const ir::Op& o = graph.op(step.op);
            for (ir::TensorId in : o.inputs)
                if (const View* v = layer.viewOf(in); v != nullptr && v->home == Home::Global)
                    reads.insert(static_cast<int32_t>(v->offset));
            for (ir::TensorId out : o.outputs)
                if (const View* v = layer.viewOf(out); v != nullptr && v->home == Home::Global)
                    writes.insert(static_cast<int32_t>(v->offset));
        }
    }
    code.reads.assign(reads.begin(), reads.end());
    code.writes.assign(writes.begin(), writes.end());
}

void addSlice(const ir::Graph& graph, const schedule::Schedule& s, KernelCode& code) {
    const schedule::Instance& inst = s.instances[code.instance];
    const schedule::Group& group = s.groups[inst.group];
    if (!group.split || group.split->factor <= 1)
        return;
    code.splitTensor = group.splitInfo.output;
    code.splitDim = group.split->dim;
    int64_t length = graph.tensor(code.splitTensor).shape[static_cast<size_t>(code.splitDim)] /
                     group.split->factor;
    code.sliceLo = (inst.index - 1) * length;
    code.sliceHi = inst.index * length;
}

Expected<KernelCode> planKernel(const ir::Graph& graph, const schedule::Schedule& s,
                                const kernel::Kernel& kernel, size_t index, const CodePlan& plan) {
    KernelContext k{
        graph, *s.semantics, plan, schedule::instanceSlices(graph, s, kernel.instance), {}};
    double work = 0;
    for (size_t l = 0; l < kernel.layers.size(); ++l)
        for (const kernel::OpWork& w : kernel.layers[l].ops) {
            k.layerOf[w.op] = static_cast<int>(l);
            work += w.work;
        }
    KernelCode code;
    code.symbol = kernelSymbol(index, kernel.label);
    code.instance = kernel.instance;
    code.label = kernel.label;
    code.cores = std::max<int64_t>(kernel.cores, 1);
    code.continuesLaunch = kernel.continuesLaunch;
    code.work = work;
    SC_ASSIGN_OR_RETURN(auto homes, planHomes(k, code.arenaBytes));
    for (const kernel::Layer& layer : kernel.layers) {
        LayerCode lc;
        lc.anchor = layer.anchor;
        std::vector<ir::OpId> ops = layerOps(layer);
        lc.tiles = chooseTiles(k, layer, ops, lc.untiledReason);
        for (ir::OpId op : ops) {
            OpStep step{op, {}};
            for (ir::TensorId out : graph.op(op).outputs)
                step.regions.push_back(boxOr(graph, k.slices, out));
            lc.ops.push_back(std::move(step));
        }
        LayerPlanner(k, homes, lc, ops, layer).run();
        code.scratchBytes = std::max(code.scratchBytes, lc.scratchBytes);
        code.layers.push_back(std::move(lc));
    }
    addSlots(graph, code);
    listHostLayouts(plan.globals, code);
    addSlice(graph, s, code);
    return code;
}

/// The roles of the tensors every kernel may address.
std::vector<GlobalTensor> tableOf(const ir::Graph& graph, const schedule::Schedule& s) {
    IdVector<ir::TensorId, int> role(graph.tensorCount(), -1);
    auto mark = [&](ir::TensorId t, TensorRole r) {
        int& current = role[t];
        current = std::max(current, static_cast<int>(r));
    };
    for (ir::TensorId in : graph.inputs())
        mark(in, TensorRole::Input);
    for (GroupId g : s.partition.groupIds()) {
        for (ir::TensorId out : s.partition.outputs(g))
            mark(out, TensorRole::Activation);
        for (ir::OpId op : s.partition.ops(g))
            for (ir::TensorId in : graph.op(op).inputs)
                if (in != ir::kNoTensor && graph.tensor(in).isConstant())
                    mark(in, TensorRole::Weight);
    }
    for (ir::TensorId out : graph.outputs())
        mark(out, TensorRole::Output);
    std::vector<GlobalTensor> table;
    for (ir::TensorId t : role.ids())
        if (role[t] >= 0)
            table.push_back({t, static_cast<TensorRole>(role[t]), graph.tensor(t).byteSize()});
    return table;
}

/// True when the union of \p boxes is the whole of \p shape.
bool coversWhole(const std::vector<Box>& boxes, const ir::Shape& shape) {
    if (ir::elementCount(shape) == 0)
        return true;
    // Cells between the boxes' bounds, per dim; each cell is in a box or not.
    std::vector<std::vector<int64_t>> cuts(shape.size());
    for (size_t d = 0; d < shape.size(); ++d) {
        std::set<int64_t> points{0, shape[d]};
        for (const Box& b : boxes)
            if (b.size() == shape.size() && !b[d].empty())
                points.insert({b[d].lo, b[d].hi + 1});
        cuts[d].assign(points.begin(), points.end());
    }
    std::vector<size_t> cell(shape.size(), 0);
    while (true) {
        bool covered = std::any_of(boxes.begin(), boxes.end(), [&](const Box& b) {
            if (b.size() != shape.size())
                return false;
            for (size_t d = 0; d < shape.size(); ++d)
                if (cuts[d][cell[d]] < b[d].lo || cuts[d][cell[d]] > b[d].hi)
                    return false;
            return true;
        });
        if (!covered)
            return false;
        size_t d = 0;
        while (d < shape.size() && ++cell[d] + 1 >= cuts[d].size())
            cell[d++] = 0;
        if (d == shape.size())
            return true;
    }
}

/// Every tensor leaving a group is computed whole by its instances.
Status checkCoverage(const ir::Graph& graph, const schedule::Schedule& s,
                     const std::vector<KernelCode>& kernels) {
    std::map<ir::TensorId, std::vector<Box>> written;
    for (const KernelCode& k : kernels)
        for (const LayerCode& layer : k.layers)
            for (const OpStep& step : layer.ops)
                for (size_t i = 0; i < step.regions.size(); ++i) {
                    ir::TensorId out = graph.op(step.op).outputs[i];
                    if (const View* v = layer.viewOf(out); v != nullptr && v->home == Home::Global)
                        written[out].push_back(step.regions[i]);
                }
    for (GroupId g : s.partition.groupIds())
        for (ir::TensorId out : s.partition.outputs(g))
            if (!coversWhole(written[out], graph.tensor(out).shape))
                return Error("tensor '" + graph.tensor(out).name + "' of group " +
                             partition::Partition::label(g) +
                             " is not computed whole by the group's instances");
    return Status::success();
}

} // namespace

std::string_view homeName(Home home) {
    switch (home) {
    case Home::Global:
        return "global";
    case Home::Stitched:
        return "stitched";
    case Home::Fused:
        return "fused";
    case Home::Promoted:
        return "promoted";
    }
    return "global";
}

std::string_view roleName(TensorRole role) {
    switch (role) {
    case TensorRole::Input:
        return "input";
    case TensorRole::Weight:
        return "weight";
    case TensorRole::Activation:
        return "activation";
    case TensorRole::Output:
        return "output";
    }
    return "activation";
}

int64_t View::storageBytes(const ir::Graph& graph, const std::vector<int64_t>& tileSizes) const {
    int64_t elements = 1;
    for (size_t d = 0; d < box.size(); ++d) {
        int loop = d < tileLoop.size() ? tileLoop[d] : -1;
        elements *= loop >= 0 ? tileSizes[static_cast<size_t>(loop)] : box[d].size();
    }
    return elements * ir::dtypeSize(graph.tensor(tensor).dtype);
}

const View* LayerCode::viewOf(ir::TensorId tensor) const {
    for (const View& v : views)
        if (v.tensor == tensor)
            return &v;
    return nullptr;
}

int64_t LayerCode::tileCount() const {
    int64_t count = 1;
    for (const TileLoop& t : tiles)
        count *= t.count();
    return count;
}

std::vector<int64_t> LayerCode::tileSizes() const {
    std::vector<int64_t> sizes;
    for (const TileLoop& t : tiles)
        sizes.push_back(t.tile);
    return sizes;
}

int32_t CodePlan::slotOf(ir::TensorId tensor) const {
    auto it = std::lower_bound(globals.begin(), globals.end(), tensor,
                               [](const GlobalTensor& g, ir::TensorId t) { return g.tensor < t; });
    return it != globals.end() && it->tensor == tensor ? static_cast<int32_t>(it - globals.begin())
                                                       : -1;
}

Expected<CodePlan> planCode(const ir::Graph& graph, const schedule::Schedule& schedule,
                            const kernel::Program& program) {
    CodePlan plan;
    plan.globals = tableOf(graph, schedule);
    markHostLayouts(graph, *schedule.semantics, plan.globals);
    for (size_t i = 0; i < program.kernels.size(); ++i) {
        SC_ASSIGN_OR_RETURN(KernelCode code,
                            planKernel(graph, schedule, program.kernels[i], i, plan));
        const kernel::Pools& lbPools = program.lb.allocation.pools;
        code.localBytes = lbPools.empty() ? 0 : lbPools[kernel::kPassLevel].capacityBytes;
        plan.kernels.push_back(std::move(code));
    }
    SC_RETURN_IF_ERROR(checkCoverage(graph, schedule, plan.kernels));
    dropUnalignedBlocks(graph, *schedule.semantics, plan);
    return plan;
}

} // namespace stagecraft::codegen
