// The emission's files: manifest.json and the per-kernel .ll/.o files.

#include "codegen/manifest.h"

#include "support/file.h"
#include "support/json_depth.h"
#include "support/sha256.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <system_error>
#include <vector>

namespace stagecraft::codegen {

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr const char* kFormat = "stagecraft-kernels";
/// Version 2 added "files": the SHA-256 of every file the emission wrote;
/// version 3 each kernel's "compile" (object cache hit or miss, seconds);
/// version 4 each kernel's "parts": the further objects a kernel of many
/// layers is compiled into, linked with its "object".
constexpr int kVersion = 4;
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
/// (GlobalTensor::hostTransposed) says so: its slot holds it packed so.
Json tensorsJson(const ir::Graph& graph, const CodePlan& plan, bool host) {
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
        parts.push_back(
            {{"ir", emitted.fileStem(p) + ".ll"}, {"object", emitted.fileStem(p) + ".o"}});
    return parts;
}

/// Kernel \p k as its object runs it: host objects run the host's layers
/// (host_layer.cpp).
Json kernelJson(const ir::Graph& graph, const KernelCode& k, const EmittedKernel& emitted,
                size_t order, const EmittedProgram& program) {
    const bool host = program.target == Target::Host;
    Json layers = Json::array();
    for (const LayerCode& layer : k.layers)
        layers.push_back(layerJson(graph, host ? hostLayer(graph, layer, k.cores) : layer));
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
            {"ir", emitted.fileStem(0) + ".ll"},
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

/// What an existing manifest in \p dir says this program wrote there.
struct PreviousEmission {
    /// File name → the SHA-256 it had when written (format version 2).
    std::map<std::string, std::string> files;
};

/// A name emit gives its files: "sc_k<index>_<instance>.ll" or ".o" (with
/// ".part<N>" before the extension for a kernel's further parts), in the
/// directory itself. Only such files are ever removed.
bool isKernelFileName(const std::string& name) {
    fs::path path(name);
    return name.rfind("sc_k", 0) == 0 && path.filename().string() == name &&
           (path.extension() == ".ll" || path.extension() == ".o");
}

/// Reads \p dir/manifest.json if there is one. An unreadable file or another
/// program's manifest is an error: emit must not replace it.
Expected<PreviousEmission> readPrevious(const fs::path& dir) {
    PreviousEmission previous;
    fs::path path = dir / "manifest.json";
    std::error_code ec;
    if (!fs::exists(path, ec))
        return previous;
    SC_ASSIGN_OR_RETURN(std::string text, readFile(path));
    Json doc = checkJsonDepth(text).ok() ? Json::parse(text, nullptr, false) : Json();
    if (doc.is_discarded() || !doc.is_object() || doc.value("format", "") != kFormat)
        return Error(path.string() + ": not a stagecraft-kernels manifest; refusing to replace it "
                                     "(emit into an empty directory or remove the file)");
    const Json* files = doc.contains("files") && doc["files"].is_object() ? &doc["files"] : nullptr;
    if (files == nullptr)
        return previous; // version 1 recorded no hashes: nothing of it is removed
    for (const auto& [name, hash] : files->items())
        if (isKernelFileName(name) && hash.is_string())
            previous.files[name] = hash.get<std::string>();
    return previous;
}

/// Removes the files an earlier emission wrote and this one did not, when
/// they still hold what was written; a file changed since is kept and named
/// in \p notes.
void removeStale(const fs::path& dir, const PreviousEmission& previous,
                 const std::map<std::string, std::string>& written,
                 std::vector<std::string>& notes) {
    for (const auto& [name, hash] : previous.files) {
        if (written.count(name))
            continue;
        fs::path path = dir / name;
        std::error_code ec;
        if (!fs::is_regular_file(fs::symlink_status(path, ec)))
            continue;
        Expected<std::string> now = fileSha256(path);
        if (!now.ok() || *now != hash) {
            notes.push_back("kept " + path.string() +
                            ": an earlier emission wrote it, but it has changed since");
            continue;
        }
        fs::remove(path, ec);
    }
}

} // namespace

std::string writeManifestJson(const ir::Graph& graph, const CodePlan& plan,
                              const EmittedProgram& program, const ManifestInfo& info) {
    Json kernels = Json::array();
    Json files = Json::object();
    for (size_t i = 0; i < plan.kernels.size() && i < program.kernels.size(); ++i) {
        const EmittedKernel& k = program.kernels[i];
        kernels.push_back(kernelJson(graph, plan.kernels[i], k, i, program));
        for (size_t p = 0; p < k.parts.size(); ++p) {
            files[k.fileStem(p) + ".ll"] = sha256Hex(std::string_view(k.parts[p].ir));
            files[k.fileStem(p) + ".o"] = sha256Hex(std::string_view(k.parts[p].object));
        }
    }
    Json doc = {{"format", kFormat},
                {"version", kVersion},
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
                {"tensors", tensorsJson(graph, plan, program.target == Target::Host)},
                {"kernels", kernels},
                {"files", files}};
    return doc.dump(2) + "\n";
}

Status prepareKernelDirectory(const fs::path& dir) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error || !fs::is_directory(dir))
        return Error(dir.string() + ": cannot create the directory" +
                     (error ? ": " + error.message() : std::string()));
    Expected<PreviousEmission> previous = readPrevious(dir);
    return previous.ok() ? Status::success() : Status(previous.error());
}

Expected<std::vector<std::string>> writeKernelFiles(const fs::path& dir, const ir::Graph& graph,
                                                    const CodePlan& plan,
                                                    const EmittedProgram& program,
                                                    const ManifestInfo& info) {
    SC_RETURN_IF_ERROR(prepareKernelDirectory(dir));
    SC_ASSIGN_OR_RETURN(PreviousEmission previous, readPrevious(dir));
    std::map<std::string, std::string> written;
    for (const EmittedKernel& k : program.kernels) {
        for (size_t p = 0; p < k.parts.size(); ++p) {
            std::string stem = k.fileStem(p);
            SC_RETURN_IF_ERROR(writeFileAtomic(dir / (stem + ".ll"), k.parts[p].ir));
            SC_RETURN_IF_ERROR(writeFileAtomic(dir / (stem + ".o"), k.parts[p].object));
            written[stem + ".ll"] = "";
            written[stem + ".o"] = "";
        }
    }
    SC_RETURN_IF_ERROR(
        writeFileAtomic(dir / "manifest.json", writeManifestJson(graph, plan, program, info)));
    std::vector<std::string> notes;
    removeStale(dir, previous, written, notes);
    return notes;
}

} // namespace stagecraft::codegen
