// The emission's manifest.json (kernel_files.cpp writes it with the kernel
// files into the emission's folder).

#include "codegen/manifest.h"

#include "support/sha256.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace stagecraft::codegen {

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

} // namespace

const char* const kManifestFormat = "stagecraft-kernels";
const char* const kVectorReportFile = "vector-report.json";

namespace {

const char* const kFormat = kManifestFormat;
/// Version 2 added "files": the SHA-256 of every file the emission wrote;
/// version 3 each kernel's "compile" (object cache hit or miss, seconds);
/// version 4 each kernel's "parts": the further objects a kernel of many
/// layers is compiled into, linked with its "object"; version 5 the model
/// library ("kind", "weights", "library", the tensors' "offset" and
/// "stored_bytes") and the target's "vlen", and "ir" is null where no .ll
/// was written; version 6 the host's "blocked" weight layout and its
/// tensors' "block"; version 7 their "block_dim"; version 8 their "group" and "group_dim".
constexpr int kVersion = 8;
constexpr const char* kAbi =
    "void kernel(ptr tensors, ptr arena, ptr scratch, i64 core, i64 cores, ptr sync): tensors is "
    "the table of whole tensors by slot; arena is shared by the kernel's cores; each core uses "
    "scratch + core * scratch_bytes_per_core; every core of the binding calls the kernel with "
    "its id; the cores call sc_barrier(sync) between layers; a host kernel of several layers "
    "and cores also exports <symbol>_layers, its layer functions in order (same signature, no "
    "barrier inside), for a runner that runs a layer's cores in turn and meets between layers";

Json boxJson(const partition::Box& box) {
    Json dims = Json::array();
    for (const ops::Interval& i : box)
        dims.push_back({i.lo, i.hi});
    return dims;
}

/// The tensor table; on the host, a weight the kernels read transposed
/// (GlobalTensor::hostTransposed) says so, one stored with padded rows its
/// pitch (hostRowPitch), one in blocks its block, the dim blocked and the other dim's group
/// interleaved in a block, if any (hostBlock, hostBlockGroup):
/// its slot holds it packed so.
Json tensorsJson(const ir::Graph& graph, const CodePlan& plan, bool host,
                 const ModelLibrary* library) {
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
        if (host && g.hostTransposed)
            table.back()["layout"] = "transposed";
        if (host && g.hostRowPitch > 0)
            table.back()["row_pitch"] = g.hostRowPitch;
        if (host && g.hostBlock > 0) { // [dim / block][the other dims][block]
            table.back()["layout"] = "blocked";
            table.back()["block"] = g.hostBlock;
            table.back()["block_dim"] = g.hostBlockDim;
            if (g.hostBlockGroup >
                1) { // [dim / block][.., ceil(group dim / group), ..][block][group]
                table.back()["group"] = g.hostBlockGroup;
                table.back()["group_dim"] = g.hostBlockGroupDim;
            }
        }
        if (library != nullptr && library->weights.offsets[slot] >= 0) {
            table.back()["offset"] = library->weights.offsets[slot];
            table.back()["stored_bytes"] = library->weights.storedBytes[slot];
        }
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

/// How the kernel's object was made: "hit" (read from the object cache),
/// "miss" (compiled, then stored) or "off" (compiled, no cache), and the
/// wall seconds it took. The one field that differs between two emissions.
Json compileJson(const EmittedKernel& emitted, bool objectCache) {
    const char* cache = !objectCache ? "off" : emitted.cached ? "hit" : "miss";
    return {{"cache", cache}, {"seconds", std::round(emitted.seconds * 1e4) / 1e4}};
}

/// The files of a kernel's parts after the first (docs/codegen.md).
Json partsJson(const EmittedKernel& emitted) {
    Json parts = Json::array();
    for (size_t p = 1; p < emitted.parts.size(); ++p)
        parts.push_back({{"ir", emitted.parts[p].ir.empty() ? Json(nullptr)
                                                            : Json(emitted.fileStem(p) + ".ll")},
                         {"object", emitted.fileStem(p) + ".o"}});
    return parts;
}

/// Kernel \p k as its object runs it: host objects run the host's layers
/// (host_layer.cpp).
Json kernelJson(const ir::Graph& graph, const KernelCode& k, const EmittedKernel& emitted,
                size_t order, const EmittedProgram& program) {
    const bool host = program.target == Target::Host;
    Json layers = Json::array();
    for (const LayerCode& layer : k.layers)
        layers.push_back(layerJson(graph, host ? hostLayer(graph, layer, k) : layer));
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
            {"continues_launch", k.continuesLaunch},
            {"ir",
             emitted.parts.front().ir.empty() ? Json(nullptr) : Json(emitted.fileStem(0) + ".ll")},
            {"object", emitted.fileStem(0) + ".o"},
            {"parts", partsJson(emitted)},
            {"instructions", emitted.instructions},
            {"compile", compileJson(emitted, program.objectCache)},
            {"reads", k.reads},
            {"writes", k.writes},
            {"arena_bytes", k.arenaBytes},
            {"scratch_bytes_per_core", host ? hostScratchBytes(graph, k) : k.scratchBytes},
            {"layers", layers}};
}

/// weights.bin's description (the runtime checks size and checksum).
Json weightsJson(const WeightsImage& weights) {
    char checksum[24];
    std::snprintf(checksum, sizeof checksum, "%016llx",
                  static_cast<unsigned long long>(weights.fnv1a64));
    return {{"file", "weights.bin"},
            {"bytes", weights.bytes.size()},
            {"alignment", kWeightsAlignment},
            {"fnv1a64", checksum},
            {"sha256", sha256Hex(std::string_view(weights.bytes))}};
}

Json libraryJson(const ModelLibrary& library) {
    Json runtime = Json::array();
    for (const LibraryFile& f : library.files)
        if (f.path.rfind("runtime/", 0) == 0)
            runtime.push_back(f.path);
    return {{"abi_version", kLibraryAbiVersion},
            {"header", "model.h"},
            {"source", "model.c"},
            {"runtime", runtime},
            {"example", "example.c"},
            {"build", {"CMakeLists.txt", "Makefile"}}};
}

} // namespace

std::string writeManifestJson(const ir::Graph& graph, const CodePlan& plan,
                              const EmittedProgram& program, const ManifestInfo& info,
                              const ModelLibrary* library) {
    Json kernels = Json::array();
    Json files = Json::object();
    for (size_t i = 0; i < plan.kernels.size() && i < program.kernels.size(); ++i) {
        const EmittedKernel& k = program.kernels[i];
        kernels.push_back(kernelJson(graph, plan.kernels[i], k, i, program));
        for (size_t p = 0; p < k.parts.size(); ++p) {
            if (!k.parts[p].ir.empty())
                files[k.fileStem(p) + ".ll"] = sha256Hex(std::string_view(k.parts[p].ir));
            files[k.fileStem(p) + ".o"] = sha256Hex(std::string_view(k.parts[p].object));
        }
    }
    if (library != nullptr) {
        files["weights.bin"] = sha256Hex(std::string_view(library->weights.bytes));
        for (const LibraryFile& f : library->files)
            files[f.path] = sha256Hex(std::string_view(f.bytes));
    }
    if (program.vectorReport)
        files[kVectorReportFile] = sha256Hex(std::string_view(program.vectorReportJson));
    Json doc = {{"format", kFormat},
                {"version", kVersion},
                {"kind", library != nullptr ? "library" : "objects"},
                {"model", info.model},
                {"arch", info.arch},
                {"strategy", info.strategy},
                {"target",
                 {{"name", targetName(program.target)},
                  {"triple", program.machine.triple},
                  {"cpu", program.machine.cpu},
                  {"features", program.machine.features},
                  {"vlen", program.vlen > 0 ? Json(program.vlen) : Json(nullptr)},
                  {"opt", program.optLevel}}},
                {"abi", kAbi},
                {"tensors", tensorsJson(graph, plan, program.target == Target::Host, library)}};
    if (library != nullptr) {
        doc["weights"] = weightsJson(library->weights);
        doc["library"] = libraryJson(*library);
    }
    doc["kernels"] = kernels;
    doc["files"] = files;
    return doc.dump(2) + "\n";
}

} // namespace stagecraft::codegen
