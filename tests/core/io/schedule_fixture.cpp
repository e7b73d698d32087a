#include "schedule_fixture.h"

#include <algorithm>

namespace stagecraft::test {

namespace {

using namespace stagecraft::schedule;

void addOp(ir::Graph& graph, const char* name, const char* type, ir::TensorId in,
           ir::TensorId out) {
    ir::Op op;
    op.name = name;
    op.type = type;
    op.inputs = {in};
    op.outputs = {out};
    graph.addOp(std::move(op));
}

ir::Graph makeGraph() {
    ir::Graph graph;
    graph.info.name = "fixture";
    ir::TensorId x = graph.addTensor("x", ir::DType::Float32, {8, 4, 8, 8});
    ir::TensorId t1 = graph.addTensor("t1", ir::DType::Float32, {8, 8, 4, 4});
    ir::TensorId t2 = graph.addTensor("t2", ir::DType::Float32, {8, 8, 4, 4});
    ir::TensorId t3 = graph.addTensor("t3", ir::DType::Float32, {8, 16, 2, 2});
    ir::TensorId t4 = graph.addTensor("t4", ir::DType::Float32, {8, 16, 2, 2});
    graph.setInputs({x});
    addOp(graph, "conv1", "Conv", x, t1);
    addOp(graph, "relu1", "Relu", t1, t2);
    addOp(graph, "conv2", "Conv", t2, t3);
    addOp(graph, "relu2", "Relu", t3, t4);
    graph.setOutputs({t4});
    return graph;
}

Group makeGroup(ir::TensorId output, int64_t peak, int64_t factor, double recompute) {
    partition::SplitCandidate best{0, factor, 2, peak / factor, recompute};
    partition::SplitCandidate other{1, 2, 1, peak / 2, 1.0 / 3.0};
    Group group;
    group.splitInfo.output = output;
    group.splitInfo.peakBytes = peak;
    group.splitInfo.candidates = {best, other};
    group.splitInfo.best = best;
    group.split = best;
    return group;
}

void addInstances(Schedule& s, GroupId group, const char* label, int count,
                  const ir::Shape& shape) {
    for (int i = 1; i <= count; ++i) {
        Instance instance;
        instance.group = group;
        instance.index = i;
        instance.label = label + std::to_string(i);
        instance.shape = shape;
        instance.footprintBytes = 1000 * i + 24;
        instance.fitsLocalBuffer = i != 3;
        instance.bind = {2, 2, 1, 1};
        instance.scope = i == 4 ? Scope::GB : Scope::LB;
        s.groups[group].instances.push_back(InstanceId::at(s.instances.size()));
        s.instances.push_back(std::move(instance));
    }
}

partition::Trace makeTrace() {
    partition::Trace trace;
    partition::MergeStep merge;
    merge.round = 1;
    merge.pattern = "straight";
    merge.parts = {ir::OpId(0), ir::OpId(1)};
    merge.partSizes = {1, 1};
    merge.factors = {4, 0};
    merge.mergedFactor = 4;
    merge.rule = "rule (i)";
    merge.merged = true;
    merge.explanation = "§3.2 Algorithm 2, round 1: straight pattern conv1 + relu1 merges";
    trace.merges.push_back(merge);
    trace.order.push_back({{"a1", "a2"}, {"a2"}, {"a1"}, "§3.3 Algorithm 3: a1 is ready"});
    trace.binding.push_back({"b2", "plain", {2}, "DDR", "§3.4 Algorithm 4: plain binding"});
    return trace;
}

} // namespace

ScheduleFixture makeScheduleFixture() {
    ScheduleFixture f;
    f.graph = makeGraph();
    Schedule& s = f.schedule;
    auto partition = partition::Partition::fromAssignment(
        f.graph, {GroupId(0), GroupId(0), GroupId(1), GroupId(1)});
    SC_ASSERT(partition.ok(), "fixture partition");
    s.partition = std::move(partition).value();
    const ir::TensorId t2(2), t4(4); // makeGraph's tensors
    s.groups = {makeGroup(t2, 16384, 4, 0.125), makeGroup(t4, 2048, 2, 0)};
    addInstances(s, GroupId(0), "a", 4, {2, 8, 4, 4});
    addInstances(s, GroupId(1), "b", 2, {4, 16, 2, 2});
    // a1 a2 feed b1, a3 a4 feed b2; a3 -> b1 is inherited but not needed.
    const InstanceId a1(0), a2(1), a3(2), a4(3), b1(4), b2(5);
    s.edges = {{a1, b1, false}, {a2, b1, false}, {a3, b2, false}, {a4, b2, false}, {a3, b1, true}};
    s.order = {a1, a2, b1, a3, a4, b2};
    s.orderKind = OrderKind::DFS;
    s.bfsUtilization = 0.1;
    s.dfsUtilization = 2.0 / 3.0;
    s.moves = {
        {DataMove::Kind::Concat,
         b1,
         {a1, a2},
         t2,
         {4, 8, 4, 4},
         Scope::LB,
         {2, 2, 1, 1},
         Scope::LB},
        {DataMove::Kind::Copy, b2, {a4}, t2, {2, 8, 4, 4}, Scope::LB, {2, 1, 1, 1}, Scope::GB}};
    s.clusters = {2, 8, 32, 2, "given"};
    s.trace = makeTrace();
    s.capacityBytes = 12288;
    f.info.modelPath = "models/fixture.onnx";
    f.info.archName = "teaching";
    f.info.orderChoice = OrderChoice::Best;
    f.info.overrides.splits = {{"conv1", 0, 4}};
    f.info.overrides.scopes = {{"t2", Scope::GB}};
    return f;
}

bool sameOverrides(const schedule::Overrides& a, const schedule::Overrides& b) {
    auto sameMerge = [](const Overrides::Merge& x, const Overrides::Merge& y) {
        return x.op1 == y.op1 && x.op2 == y.op2;
    };
    auto sameUngroup = [](const Overrides::Ungroup& x, const Overrides::Ungroup& y) {
        return x.op == y.op;
    };
    auto sameSplit = [](const Overrides::Split& x, const Overrides::Split& y) {
        return x.op == y.op && x.dim == y.dim && x.factor == y.factor;
    };
    auto samePin = [](const Overrides::ScopePin& x, const Overrides::ScopePin& y) {
        return x.tensor == y.tensor && x.scope == y.scope;
    };
    return std::ranges::equal(a.merges, b.merges, sameMerge) &&
           std::ranges::equal(a.ungroups, b.ungroups, sameUngroup) &&
           std::ranges::equal(a.splits, b.splits, sameSplit) && a.order == b.order &&
           std::ranges::equal(a.scopes, b.scopes, samePin);
}

bool sameDocInfo(const io::ScheduleDocInfo& a, const io::ScheduleDocInfo& b) {
    return a.modelPath == b.modelPath && a.archName == b.archName &&
           a.orderChoice == b.orderChoice && a.includeTrace == b.includeTrace &&
           sameOverrides(a.overrides, b.overrides);
}

} // namespace stagecraft::test
