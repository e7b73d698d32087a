// The emission's files: manifest.json and the per-kernel .ll/.o files.

#include "codegen/manifest.h"

#include "support/file.h"

#include <nlohmann/json.hpp>

#include <set>
#include <system_error>

namespace stagecraft::codegen {

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr const char* kFormat = "stagecraft-kernels";
constexpr const char* kAbi =
    "void kernel(ptr tensors, ptr arena, ptr scratch, i64 core, i64 cores, ptr sync): tensors is "
    "the table of whole tensors by slot; arena is shared by the kernel's cores; each core uses "
    "scratch + core * scratch_bytes_per_core; every core of the binding calls the kernel with "
    "its id; the cores call sc_barrier(sync) between layers";

Json boxJson(const partition::Box& box) {
    Json dims = Json::array();
    for (const ops::Interval& i : box)
        dims.push_back({i.lo, i.hi});
    return dims;
}

Json tensorsJson(const ir::Graph& graph, const CodePlan& plan) {
    Json table = Json::array();
    for (size_t slot = 0; slot < plan.globals.size(); ++slot) {
        const GlobalTensor& g = plan.globals[slot];
        const ir::Tensor& t = graph.tensor(g.tensor);
        table.push_back({{"slot", slot},
                         {"name", t.name},
                         {"role", roleName(g.role)},
                         {"dtype", ir::dtypeName(t.dtype)},
                         {"shape", t.shape},
                         {"bytes", g.bytes}});
    }
    return table;
}

Json layerJson(const ir::Graph& graph, const LayerCode& layer) {
    Json ops = Json::array();
    for (const OpStep& step : layer.ops)
        ops.push_back(graph.op(step.op).name);
    Json tiles = Json::array();
    for (const TileLoop& t : layer.tiles)
        tiles.push_back({{"dim", t.dim}, {"lo", t.lo}, {"extent", t.extent}, {"tile", t.tile}});
    Json buffers = Json::array();
    for (const View& v : layer.views) {
        if (v.home == Home::Global || v.home == Home::Promoted)
            continue;
        buffers.push_back({{"tensor", graph.tensor(v.tensor).name},
                           {"home", homeName(v.home)},
                           {"offset", v.offset},
                           {"bytes", v.storageBytes(graph, layer.tileSizes())},
                           {"box", boxJson(v.box)}});
    }
    Json promoted = Json::array();
    for (const Promotion& p : layer.promotions) {
        const View& v = layer.views[static_cast<size_t>(p.view)];
        promoted.push_back({{"weight", graph.tensor(p.weight).name},
                            {"slot", p.slot},
                            {"offset", v.offset},
                            {"bytes", v.storageBytes(graph, layer.tileSizes())},
                            {"per_tile", p.perTile}});
    }
    Json json = {{"anchor", graph.op(layer.anchor).name}, {"ops", ops}, {"tiles", tiles}};
    if (!layer.untiledReason.empty() && layer.tiles.empty())
        json["untiled_because"] = layer.untiledReason;
    json["buffers"] = buffers;
    json["promoted"] = promoted;
    json["scratch_bytes"] = layer.scratchBytes;
    return json;
}

Json kernelJson(const ir::Graph& graph, const KernelCode& k, const EmittedKernel& emitted,
                size_t order) {
    Json layers = Json::array();
    for (const LayerCode& layer : k.layers)
        layers.push_back(layerJson(graph, layer));
    Json slice = nullptr;
    if (k.splitDim >= 0)
        slice = {{"tensor", graph.tensor(k.splitTensor).name},
                 {"dim", k.splitDim},
                 {"lo", k.sliceLo},
                 {"hi", k.sliceHi}};
    return {{"order", order},
            {"symbol", k.symbol},
            {"instance", k.label},
            {"slice", slice},
            {"cores", k.cores},
            {"ir", k.symbol + ".ll"},
            {"object", k.symbol + ".o"},
            {"instructions", emitted.instructions},
            {"reads", k.reads},
            {"writes", k.writes},
            {"arena_bytes", k.arenaBytes},
            {"scratch_bytes_per_core", k.scratchBytes},
            {"layers", layers}};
}

/// The kernel files an existing manifest in \p dir lists.
std::set<std::string> listedFiles(const fs::path& dir) {
    std::set<std::string> files;
    auto text = readFile(dir / "manifest.json");
    if (!text.ok())
        return files;
    Json doc = Json::parse(*text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || doc.value("format", "") != kFormat ||
        !doc.contains("kernels") || !doc["kernels"].is_array())
        return files;
    for (const Json& k : doc["kernels"])
        for (const char* key : {"ir", "object"})
            if (k.is_object() && k.contains(key) && k[key].is_string()) {
                std::string name = k[key].get<std::string>();
                if (fs::path(name).filename().string() == name)
                    files.insert(name);
            }
    return files;
}

} // namespace

std::string writeManifestJson(const ir::Graph& graph, const CodePlan& plan,
                              const EmittedProgram& program, const ManifestInfo& info) {
    Json kernels = Json::array();
    for (size_t i = 0; i < plan.kernels.size() && i < program.kernels.size(); ++i)
        kernels.push_back(kernelJson(graph, plan.kernels[i], program.kernels[i], i));
    Json doc = {{"format", kFormat},
                {"version", 1},
                {"model", info.model},
                {"arch", info.arch},
                {"strategy", info.strategy},
                {"target",
                 {{"name", targetName(program.target)},
                  {"triple", program.machine.triple},
                  {"cpu", program.machine.cpu},
                  {"features", program.machine.features},
                  {"opt", program.optLevel}}},
                {"abi", kAbi},
                {"tensors", tensorsJson(graph, plan)},
                {"kernels", kernels}};
    return doc.dump(2) + "\n";
}

Status writeKernelFiles(const fs::path& dir, const ir::Graph& graph, const CodePlan& plan,
                        const EmittedProgram& program, const ManifestInfo& info) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error || !fs::is_directory(dir))
        return Error(dir.string() + ": cannot create the directory");
    std::set<std::string> stale = listedFiles(dir);
    for (const EmittedKernel& k : program.kernels) {
        SC_RETURN_IF_ERROR(writeFileAtomic(dir / (k.symbol + ".ll"), k.ir));
        SC_RETURN_IF_ERROR(writeFileAtomic(dir / (k.symbol + ".o"), k.object));
        stale.erase(k.symbol + ".ll");
        stale.erase(k.symbol + ".o");
    }
    SC_RETURN_IF_ERROR(
        writeFileAtomic(dir / "manifest.json", writeManifestJson(graph, plan, program, info)));
    for (const std::string& name : stale)
        fs::remove(dir / name, error);
    return Status::success();
}

} // namespace stagecraft::codegen
