#include "sim/compare.h"
#include "arch/presets.h"
#include "onnx/importer.h"
#include "zoo/zoo.h"
#include <iostream>
#include <map>
using namespace stagecraft;
int main(int argc, char** argv) {
    std::string model = argv[1]; std::string archName = argv[2]; int64_t k = std::stoll(argv[3]); std::string strat = argv[4];
    zoo::ZooOptions zo; zo.batch = k;
    auto w = zoo::writeZooModel(model, zo, "/tmp/dbg_model.onnx");
    if (!w.ok()) { std::cerr << w.error().message() << "\n"; return 1; }
    auto g = onnxio::importModel("/tmp/dbg_model.onnx");
    if (!g.ok()) { std::cerr << g.error().message() << "\n"; return 1; }
    auto a = arch::resolveArch(archName);
    schedule::ClusterPlan plan; plan.clusters = a->clusters; plan.perCluster = k; plan.totalBatch = k * a->clusters;
    auto ev = sim::evaluate(g->graph, *a, *sim::findStrategy(strat), plan);
    if (!ev.ok()) { std::cerr << ev.error().message() << "\n"; return 1; }
    const auto& p = ev->program;
    std::map<std::string, double> by;
    for (auto& t : ev->tasks.tasks) if (t.isTransfer()) by[std::string(kernel::taskKindName(t.kind)) + " " + std::string(arch::memoryName(t.from)) + "->" + std::string(arch::memoryName(t.to))] += t.bytes;
    for (auto& [k, v] : by) std::cout << k << " " << v / 1e6 << " MB\n";
    std::cout << "weight cache " << p.weightCacheBytes << " gb peak " << p.gb.allocation.peakBytes[0] << " spills lb " << p.lb.allocation.spillsFrom[0] << " gb " << p.gb.allocation.spillsFrom[0] << "\n";
    if (getenv("QUIET")) return 0;
    for (auto& kern : p.kernels) {
        std::cout << "kernel " << kern.label << " cores " << kern.cores << "\n";
        for (auto& l : kern.layers) {
            std::cout << "  layer task " << l.task << " anchor " << g->graph.op(l.anchor).name << " tiles " << l.tileCount << " wbytes " << l.weightBytes << " ops";
            for (auto& o : l.ops) std::cout << " " << g->graph.op(o.op).type << "(u" << o.unit << "," << o.unitNs << "ns)";
            std::cout << "\n    in:"; for (auto& in : l.inputs) std::cout << " " << g->graph.tensor(in.tensor).name << ":" << in.bytes << "@b" << in.buffer << (in.redistributed?"*":"");
            std::cout << "\n    out:"; for (int32_t b : l.outputs) { auto& B = p.buffers[b]; std::cout << " b" << b << " " << B.name << " " << B.bytes << "B/" << B.cores << " scope " << schedule::scopeName(B.scope) << " [" << B.firstTask << "," << B.lastTask << "] pl"; for (auto& pl : B.placements) std::cout << " (" << pl.fromTask << ":" << pl.pool << "@" << pl.offset << ")"; }
            std::cout << "\n";
        }
    }
    auto st = sim::validateTimeline(ev->tasks, ev->sim);
    std::cout << "tasks " << ev->tasks.tasks.size() << " makespan " << ev->sim.makespanNs << " validate " << (st.ok() ? "ok" : st.error().message()) << "\n";
}
// (appended) traffic breakdown
