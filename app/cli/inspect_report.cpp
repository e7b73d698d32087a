#include "cli/inspect_report.h"

#include "ops/semantics.h"
#include "support/strings.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>

namespace stagecraft::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string tensorLine(const ir::Tensor& t) {
    return t.name + "  " + std::string(ir::dtypeName(t.dtype)) + " " + ir::formatShape(t.shape);
}

std::string loopsText(const ops::LoopNest& nest) {
    std::string text;
    for (size_t i = 0; i < nest.loops.size(); ++i) {
        if (static_cast<int>(i) == nest.outputRank && i > 0)
            text += " |";
        const ops::LoopDim& loop = nest.loops[i];
        bool marked = loop.kind == ops::IterKind::Parallel && !loop.bindable;
        text += " " + loop.name + "=" + std::to_string(loop.extent) + (marked ? "*" : "");
    }
    return text;
}

std::string accessText(const ir::Graph& graph, const ir::Op& op, const ops::AccessMap& map,
                       const ops::LoopNest& nest) {
    std::vector<std::string> dims;
    for (const ops::IndexExpr& expr : map.dims)
        dims.push_back(ops::formatIndex(expr, nest.loops));
    return graph.tensor(op.inputs[static_cast<size_t>(map.operand)]).name + "[" + join(dims, ", ") +
           "]";
}

void printOp(const ir::Graph& graph, ir::OpId id, std::ostream& out) {
    const ir::Op& op = graph.op(id);
    auto semantics = ops::semanticsOf(graph, id);
    if (!semantics.ok())
        return;
    out << "  " << std::setw(5) << id << "  " << printable(op.name) << "  " << op.type << " ("
        << ops::categoryName(semantics->category) << ")";
    if (semantics->cost.macs > 0)
        out << "  MACs " << formatCount(semantics->cost.macs);
    out << "\n";
    for (size_t k = 0; k < semantics->nests.size(); ++k) {
        const ops::LoopNest& nest = semantics->nests[k];
        out << "         -> " << tensorLine(graph.tensor(op.outputs[k])) << "  loops"
            << loopsText(nest) << "\n";
        for (const ops::AccessMap& map : nest.inputs)
            out << "            reads " << accessText(graph, op, map, nest) << "\n";
    }
}

Json opJson(const ir::Graph& graph, ir::OpId id) {
    const ir::Op& op = graph.op(id);
    auto semantics = ops::semanticsOf(graph, id);
    Json entry{{"id", id.value()}, {"name", op.name}, {"type", op.type}};
    if (!semantics.ok())
        return entry;
    entry["category"] = ops::categoryName(semantics->category);
    entry["macs"] = semantics->cost.macs;
    entry["flops"] = semantics->cost.flops;
    Json outputs = Json::array();
    for (size_t k = 0; k < semantics->nests.size(); ++k) {
        const ops::LoopNest& nest = semantics->nests[k];
        const ir::Tensor& t = graph.tensor(op.outputs[k]);
        Json loops = Json::array();
        for (const ops::LoopDim& loop : nest.loops)
            loops.push_back(
                {{"name", loop.name},
                 {"extent", loop.extent},
                 {"kind", loop.kind == ops::IterKind::Parallel ? "parallel" : "reduction"},
                 {"bindable", loop.bindable}});
        Json reads = Json::array();
        for (const ops::AccessMap& map : nest.inputs) {
            Json index = Json::array();
            for (const ops::IndexExpr& expr : map.dims)
                index.push_back(ops::formatIndex(expr, nest.loops));
            reads.push_back(
                {{"tensor", graph.tensor(op.inputs[static_cast<size_t>(map.operand)]).name},
                 {"index", index}});
        }
        outputs.push_back({{"tensor", t.name},
                           {"dtype", ir::dtypeName(t.dtype)},
                           {"shape", t.shape},
                           {"loops", loops},
                           {"reads", reads}});
    }
    entry["outputs"] = outputs;
    return entry;
}

Json tensorsJson(const ir::Graph& graph, const std::vector<ir::TensorId>& ids) {
    Json list = Json::array();
    for (ir::TensorId id : ids) {
        const ir::Tensor& t = graph.tensor(id);
        list.push_back({{"name", t.name}, {"dtype", ir::dtypeName(t.dtype)}, {"shape", t.shape}});
    }
    return list;
}

std::string opaqueText(const InspectData& d) {
    if (d.stats.opaqueOps.empty())
        return "none";
    std::vector<std::string> names;
    for (ir::OpId id : d.stats.opaqueOps)
        names.push_back(d.graph->op(id).name + " (" + d.graph->op(id).type + ")");
    return join(names, ", ");
}

} // namespace

Placement placeOps(const ir::Graph& graph, const arch::Arch& arch) {
    Placement placement;
    std::set<std::string> notOnUnits;
    for (ir::OpId id : graph.opIds()) {
        const ir::Op& op = graph.op(id);
        ops::Category category = ops::categoryOf(op.kind);
        // The dtype whose rate the simulator runs it at (an integer
        // contraction with u8 outputs or f32 ones runs at the i8 rate).
        ir::DType dtype = ops::computeTypeOf(graph, id);
        if (!arch::unitsFor(arch, category, dtype).empty()) {
            ++placement.onUnits;
            continue;
        }
        ++(arch.fallbackCpu ? placement.onFallback : placement.unsupported);
        notOnUnits.insert(op.type + " (" + std::string(ops::categoryName(category)) + ", " +
                          std::string(ir::dtypeName(dtype)) + ")");
    }
    placement.notOnUnits.assign(notOnUnits.begin(), notOnUnits.end());
    return placement;
}

void printInspectText(const InspectData& d, std::ostream& out) {
    const ir::Graph& g = *d.graph;
    const ops::ModelStats& s = d.stats;
    out << "model        " << d.modelPath << "\n";
    out << "graph        " << (g.info.name.empty() ? "(unnamed)" : g.info.name) << " (producer "
        << (g.info.producer.empty() ? "unknown" : g.info.producer) << ", IR " << g.info.irVersion
        << ", opset " << g.info.opsetVersion << ")\n";
    out << "ops          " << s.ops << "\n";
    out << "tensors      " << s.tensors << "\n";
    out << "params       " << formatCount(s.params) << " (" << s.params << ", "
        << formatBytes(s.paramBytes) << ")\n";
    out << "MACs         " << formatCount(s.macs) << " (" << s.macs << ")\n";
    out << "FLOPs        " << formatCount(s.flops) << " (" << s.flops << ")\n";
    out << "activations  " << formatBytes(s.activationBytes) << "\n";
    for (ir::TensorId id : g.inputs())
        out << "input        " << tensorLine(g.tensor(id)) << "\n";
    for (ir::TensorId id : g.outputs())
        out << "output       " << tensorLine(g.tensor(id)) << "\n";
    out << "opaque ops   " << opaqueText(d) << "\n";
    if (d.arch != nullptr) {
        Placement p = placeOps(g, *d.arch);
        out << "arch         " << d.arch->name << ": " << p.onUnits << " ops on compute units";
        if (p.onFallback > 0)
            out << ", " << p.onFallback << " on the fallback CPU";
        if (p.unsupported > 0)
            out << ", " << p.unsupported << " with no unit and no fallback CPU";
        if (!p.notOnUnits.empty())
            out << " (" << join(p.notOnUnits, ", ") << ")";
        out << "\n";
    }
    out << "op types\n";
    for (const ops::OpTypeCount& t : s.opTypes)
        out << "  " << std::left << std::setw(24) << t.type << " " << std::right << std::setw(5)
            << t.count << "  " << ops::categoryName(t.category) << "\n";
    if (d.listOps) {
        out << "ops (id  name  type (category); output, loops: parallel | reduction, * = parallel "
               "but not bindable; reads)\n";
        for (ir::OpId op : g.opIds())
            printOp(g, op, out);
    }
}

void printInspectJson(const InspectData& d, std::ostream& out) {
    const ir::Graph& g = *d.graph;
    const ops::ModelStats& s = d.stats;
    Json opTypes = Json::object();
    for (const ops::OpTypeCount& t : s.opTypes)
        opTypes[t.type] = t.count;
    Json opaque = Json::array();
    for (ir::OpId id : s.opaqueOps)
        opaque.push_back({{"name", g.op(id).name}, {"type", g.op(id).type}});
    Json doc{{"model", d.modelPath},
             {"graph", g.info.name},
             {"opset", g.info.opsetVersion},
             {"ops", s.ops},
             {"tensors", s.tensors},
             {"params", s.params},
             {"param_bytes", s.paramBytes},
             {"macs", s.macs},
             {"flops", s.flops},
             {"activation_bytes", s.activationBytes},
             {"op_types", opTypes},
             {"opaque", opaque},
             {"inputs", tensorsJson(g, g.inputs())},
             {"outputs", tensorsJson(g, g.outputs())}};
    if (d.arch != nullptr) {
        Placement p = placeOps(g, *d.arch);
        doc["arch"] = {{"name", d.arch->name},
                       {"on_units", p.onUnits},
                       {"on_fallback_cpu", p.onFallback},
                       {"unsupported", p.unsupported},
                       {"not_on_units", p.notOnUnits}};
    }
    doc["warnings"] = d.warnings;
    if (d.listOps) {
        Json list = Json::array();
        for (ir::OpId op : g.opIds())
            list.push_back(opJson(g, op));
        doc["op_list"] = list;
    }
    out << doc.dump(2) << "\n";
}

} // namespace stagecraft::cli
