// The drawing of a grouped graph, in id order throughout: inputs, then each
// group (its ops, or its one node), then outputs; edges by (tail, head) node
// index, each carrying the tensors between the two nodes. A tensor read only
// inside a collapsed group draws no edge. The same result and expanded set
// always give the same model.

#include "graph/graph_model.h"

#include "graph/graph_labels.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

namespace stagecraft::views::graphview {

namespace {

using partition::GroupId;

/// Room for the roof of a house shape.
constexpr double kHouseRoof = 14;

/// Graph inputs or outputs that carry activations, ascending by tensor id.
std::vector<ir::TensorId> activations(const ir::Graph& graph, std::vector<ir::TensorId> tensors) {
    std::erase_if(tensors, [&](ir::TensorId t) { return graph.tensor(t).isConstant(); });
    std::sort(tensors.begin(), tensors.end());
    tensors.erase(std::unique(tensors.begin(), tensors.end()), tensors.end());
    return tensors;
}

class ModelBuilder {
public:
    ModelBuilder(const PipelineResult& result, const ExpandedGroups& expanded,
                 const NameFolding* names)
        : result_(result)
        , graph_(*result.graph)
        , partition_(result.eval.schedule.partition)
        , expanded_(expanded)
        , names_(names) {}

    GraphModel build() {
        opNode_.assign(graph_.opCount(), -1);
        groupNode_.assign(partition_.groupCount(), -1);
        for (ir::TensorId t : activations(graph_, graph_.inputs()))
            inputNode_[t] = addTerminal(t, NodeRef::Kind::Input, NodeShape::InvHouse);
        if (names_)
            addByName();
        else
            for (GroupId g : partition_.groupIds())
                addGroup(g);
        for (ir::TensorId t : activations(graph_, graph_.outputs()))
            outputNode_[t] = addTerminal(t, NodeRef::Kind::Output, NodeShape::House);
        addEdges();
        model_.opNodes.assign(graph_.opCount(), -1);
        for (ir::OpId op : graph_.opIds())
            model_.opNodes[op] = nodeOfOp(op);
        return std::move(model_);
    }

private:
    int addNode(ModelNode node, QSizeF size, NodeShape shape) {
        model_.nodes.push_back(std::move(node));
        model_.layout.nodes.push_back({size, shape});
        return static_cast<int>(model_.nodes.size()) - 1;
    }

    int addTerminal(ir::TensorId tensor, NodeRef::Kind kind, NodeShape shape) {
        QStringList lines = terminalLines(graph_, tensor);
        QSizeF size = textBlockSize(lines) + QSizeF(0, kHouseRoof);
        return addNode({{kind, tensor.value()}, partition::kNoGroup, lines}, size, shape);
    }

    void addGroup(GroupId g) {
        if (!expanded_.contains(g)) {
            groupNode_[g] =
                addNode({{NodeRef::Kind::Group, g.value()}, g, groupNodeLines(result_, g)},
                        groupNodeSize(result_, g), NodeShape::Box);
            return;
        }
        std::vector<ir::OpId> ops(partition_.ops(g).begin(), partition_.ops(g).end());
        std::sort(ops.begin(), ops.end());
        LayoutCluster cluster{{}, clusterLabelSize(result_, g)};
        for (ir::OpId op : ops) {
            QStringList lines = opLines(graph_, op);
            int node = addNode({{NodeRef::Kind::Op, op.value()}, g, lines}, textBlockSize(lines),
                               NodeShape::Box);
            opNode_[op] = node;
            cluster.nodes.push_back(node);
        }
        model_.layout.clusters.push_back(std::move(cluster));
        model_.clusters.push_back({g, clusterLines(result_, g)});
    }

    /// Ops in id order; a folded scope's node where its first op is.
    void addByName() {
        std::map<int, int> scopeNode;
        for (ir::OpId op : graph_.opIds()) {
            const int scope = foldedScopeOf(*names_->scopes, names_->folded, op);
            if (scope < 0) {
                QStringList lines = opLines(graph_, op);
                opNode_[op] =
                    addNode({{NodeRef::Kind::Op, op.value()}, partition_.groupOf(op), lines},
                            textBlockSize(lines), NodeShape::Box);
                continue;
            }
            auto [it, added] = scopeNode.try_emplace(scope, -1);
            if (added)
                it->second = addScope(scope);
            opNode_[op] = it->second;
        }
    }

    int addScope(int scope) {
        const std::vector<ir::OpId> ops = names_->scopes->opsUnder(scope);
        std::set<GroupId> groups;
        for (ir::OpId op : ops)
            groups.insert(partition_.groupOf(op));
        const GroupId group = groups.size() == 1 ? *groups.begin() : partition::kNoGroup;
        QStringList lines = scopeLines(names_->scopes->scopes[scope], groups);
        return addNode({{NodeRef::Kind::Scope, scope}, group, lines}, textBlockSize(lines),
                       NodeShape::Box);
    }

    int nodeOfOp(ir::OpId op) const {
        int node = opNode_[op];
        return node >= 0 ? node : groupNode_[partition_.groupOf(op)];
    }

    /// The node writing \p tensor; -1 for constants and unwritten tensors.
    int sourceNode(ir::TensorId tensor) const {
        const ir::Tensor& t = graph_.tensor(tensor);
        if (t.isConstant())
            return -1;
        if (t.producer != ir::kNoOp)
            return nodeOfOp(t.producer);
        auto input = inputNode_.find(tensor);
        return input == inputNode_.end() ? -1 : input->second;
    }

    std::set<int> targetNodes(ir::TensorId tensor) const {
        std::set<int> targets;
        for (const ir::Use& use : graph_.tensor(tensor).uses)
            targets.insert(nodeOfOp(use.op));
        if (auto output = outputNode_.find(tensor); output != outputNode_.end())
            targets.insert(output->second);
        return targets;
    }

    void addEdges() {
        std::map<std::pair<int, int>, std::vector<ir::TensorId>> crossing;
        for (ir::TensorId t : graph_.tensorIds()) {
            int source = sourceNode(t);
            if (source < 0)
                continue;
            for (int target : targetNodes(t))
                if (target != source)
                    crossing[{source, target}].push_back(t);
        }
        for (auto& [ends, tensors] : crossing) {
            model_.layout.edges.push_back({ends.first, ends.second});
            model_.edges.push_back({std::move(tensors)});
        }
    }

    const PipelineResult& result_;
    const ir::Graph& graph_;
    const partition::Partition& partition_;
    const ExpandedGroups& expanded_;
    const NameFolding* names_;
    GraphModel model_;
    IdVector<ir::OpId, int> opNode_;
    IdVector<GroupId, int> groupNode_;
    std::map<ir::TensorId, int> inputNode_;
    std::map<ir::TensorId, int> outputNode_;
};

/// FNV-1a, 64 bits.
class Fingerprint {
public:
    void add(uint64_t value) {
        for (int i = 0; i < 8; ++i)
            addByte(static_cast<uint8_t>(value >> (8 * i)));
    }
    void add(std::string_view text) {
        add(text.size());
        for (char c : text)
            addByte(static_cast<uint8_t>(c));
    }
    uint64_t value() const { return hash_; }

private:
    void addByte(uint8_t byte) {
        hash_ ^= byte;
        hash_ *= 1099511628211ull;
    }
    uint64_t hash_ = 14695981039346656037ull;
};

uint64_t graphFingerprint(const ir::Graph& graph) {
    Fingerprint fp;
    fp.add(graph.opCount());
    for (const ir::Op& op : graph.ops()) {
        fp.add(op.name);
        fp.add(op.type);
        for (ir::TensorId t : op.inputs)
            fp.add(static_cast<uint64_t>(t.value()));
        for (ir::TensorId t : op.outputs)
            fp.add(static_cast<uint64_t>(t.value()));
    }
    fp.add(graph.tensorCount());
    for (const ir::Tensor& tensor : graph.tensors()) {
        fp.add(tensor.name);
        fp.add(ir::formatShape(tensor.shape));
        fp.add(tensor.isConstant() ? 1 : 0);
    }
    for (ir::TensorId t : graph.inputs())
        fp.add(static_cast<uint64_t>(t.value()));
    for (ir::TensorId t : graph.outputs())
        fp.add(static_cast<uint64_t>(t.value()));
    return fp.value();
}

uint64_t groupingFingerprint(const ir::Graph& graph, const partition::Partition& partition) {
    Fingerprint fp;
    fp.add(partition.groupCount());
    for (ir::OpId op : graph.opIds())
        fp.add(static_cast<uint64_t>(partition.groupOf(op).value()));
    return fp.value();
}

} // namespace

GraphModel buildGraphModel(const PipelineResult& result, const ExpandedGroups& expanded,
                           const NameFolding* names) {
    return ModelBuilder(result, expanded, names).build();
}

ExpandedGroups allGroups(const PipelineResult& result) {
    ExpandedGroups groups;
    for (GroupId g : result.eval.schedule.partition.groupIds())
        groups.insert(groups.end(), g);
    return groups;
}

ExpandedGroups overviewGroups(const PipelineResult& result) {
    if (result.graph->opCount() <= kOverviewNodes) // the paper's figures: every op
        return allGroups(result);
    const partition::Partition& partition = result.eval.schedule.partition;
    std::vector<std::pair<size_t, GroupId>> small;
    for (GroupId g : partition.groupIds())
        if (partition.ops(g).size() <= kOverviewGroupOps)
            small.emplace_back(partition.ops(g).size(), g);
    std::sort(small.begin(), small.end());
    size_t nodes = partition.groupCount(); // every group one box
    ExpandedGroups expanded;
    for (const auto& [ops, g] : small) {
        if (nodes + ops - 1 > kOverviewNodes)
            break;
        nodes += ops - 1;
        expanded.insert(g);
    }
    return expanded;
}

LayoutKey layoutKeyFor(const PipelineResult& result, const ExpandedGroups& expanded,
                       const NameFolding* names) {
    Fingerprint groups;
    groups.add(expanded.size());
    for (GroupId g : expanded)
        groups.add(static_cast<uint64_t>(g.value()));
    if (names) {
        // Apart from every group folding, whatever the scopes.
        groups.add(std::string_view("names"));
        groups.add(names->folded.size());
        for (int scope : names->folded)
            groups.add(static_cast<uint64_t>(scope));
    }
    return {graphFingerprint(*result.graph),
            groupingFingerprint(*result.graph, result.eval.schedule.partition), groups.value()};
}

bool sameGrouping(const PipelineResult& a, const PipelineResult& b) {
    if (!a.graph || a.graph != b.graph)
        return false;
    const partition::Partition& pa = a.eval.schedule.partition;
    const partition::Partition& pb = b.eval.schedule.partition;
    if (pa.groupCount() != pb.groupCount())
        return false;
    for (ir::OpId op : a.graph->opIds())
        if (pa.groupOf(op) != pb.groupOf(op))
            return false;
    return true;
}

} // namespace stagecraft::views::graphview
