// DOT text of a grouped graph. Node ids are made of indices (op12, in3, out7,
// group_a), never of names, so they are plain DOT identifiers whatever the
// model calls its ops; names only appear in quoted, escaped labels. Every loop
// runs over ids in ascending order and the one map (collapsed edges) is keyed
// by ids, so the text depends on nothing but the graph and the partition.

#include "io/dot_export.h"

#include "support/strings.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace stagecraft::io {

namespace {

using partition::GroupId;
using partition::Partition;

std::string opNodeId(ir::OpId op) {
    return "op" + std::to_string(op.value());
}
std::string inputNodeId(ir::TensorId tensor) {
    return "in" + std::to_string(tensor.value());
}
std::string outputNodeId(ir::TensorId tensor) {
    return "out" + std::to_string(tensor.value());
}
std::string groupNodeId(GroupId group) {
    return "group_" + Partition::label(group);
}

/// What writes a tensor into the drawing; ordered by kind, then id (of
/// the tensor, the op or the group, by kind).
struct Source {
    enum Kind { Input, Op, Group } kind;
    int32_t id;
    auto operator<=>(const Source&) const = default;

    std::string nodeId() const {
        switch (kind) {
        case Input:
            return inputNodeId(ir::TensorId(id));
        case Op:
            return opNodeId(ir::OpId(id));
        case Group:
            return groupNodeId(GroupId(id));
        }
        return {};
    }
};

std::string plural(size_t count, const char* noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// Graph inputs or outputs that carry activations, ascending by tensor id.
std::vector<ir::TensorId> activations(const ir::Graph& graph, std::vector<ir::TensorId> tensors) {
    std::erase_if(tensors, [&](ir::TensorId t) { return graph.tensor(t).isConstant(); });
    std::sort(tensors.begin(), tensors.end());
    tensors.erase(std::unique(tensors.begin(), tensors.end()), tensors.end());
    return tensors;
}

class DotWriter {
public:
    DotWriter(const ir::Graph& graph, const Partition& partition, const DotOptions& options)
        : graph_(graph)
        , partition_(partition)
        , options_(options) {}

    std::string write() {
        header();
        terminalNodes();
        if (options_.collapsed) {
            groupNodes();
            groupEdges();
        } else {
            clusters();
            opEdges();
        }
        outputEdges();
        out_ += "}\n";
        return std::move(out_);
    }

private:
    void header() {
        out_ += "digraph grouped {\n  graph [rankdir=TB";
        if (!options_.title.empty())
            out_ += ", labelloc=t, label=" + dotQuoted(options_.title);
        out_ += "];\n  node [shape=box, style=rounded, fontsize=10];\n  edge [fontsize=8];\n";
    }

    void node(const std::string& indent, const std::string& id, const std::string& label,
              const char* shape = nullptr) {
        out_ += indent + id + " [";
        if (shape)
            out_ += std::string("shape=") + shape + ", ";
        out_ += "label=" + dotQuoted(label) + "];\n";
    }

    void edge(const std::string& from, const std::string& to, const std::string& label) {
        out_ += "  " + from + " -> " + to + " [label=" + dotQuoted(label) + "];\n";
    }

    std::string shapeOf(ir::TensorId tensor) const {
        return ir::formatShape(graph_.tensor(tensor).shape);
    }

    void terminalNodes() {
        for (ir::TensorId t : activations(graph_, graph_.inputs()))
            node("  ", inputNodeId(t), graph_.tensor(t).name + "\n" + shapeOf(t), "invhouse");
        for (ir::TensorId t : activations(graph_, graph_.outputs()))
            node("  ", outputNodeId(t), graph_.tensor(t).name + "\n" + shapeOf(t), "house");
    }

    void clusters() {
        for (GroupId g : partition_.groupIds()) {
            std::vector<ir::OpId> ops(partition_.ops(g).begin(), partition_.ops(g).end());
            std::sort(ops.begin(), ops.end());
            out_ += "  subgraph cluster_" + Partition::label(g) + " {\n    label=" +
                    dotQuoted(Partition::label(g) + " (" + plural(ops.size(), "op") + ")") + ";\n";
            for (ir::OpId op : ops)
                node("    ", opNodeId(op), opLabel(op));
            out_ += "  }\n";
        }
    }

    std::string opLabel(ir::OpId id) const {
        const ir::Op& op = graph_.op(id);
        std::vector<std::string> shapes;
        for (ir::TensorId t : op.outputs)
            shapes.push_back(shapeOf(t));
        return op.name + "\n" + op.type + "\n" + join(shapes, ", ");
    }

    /// The node drawing the writer of \p tensor; none for constants.
    std::optional<Source> source(ir::TensorId tensor) const {
        const ir::Tensor& t = graph_.tensor(tensor);
        if (t.isConstant())
            return std::nullopt;
        if (t.producer != ir::kNoOp)
            return options_.collapsed
                       ? Source{Source::Group, partition_.groupOf(t.producer).value()}
                       : Source{Source::Op, t.producer.value()};
        if (graph_.isGraphInput(tensor))
            return Source{Source::Input, tensor.value()};
        return std::nullopt;
    }

    void opEdges() {
        for (ir::TensorId t : graph_.tensorIds()) {
            std::optional<Source> from = source(t);
            if (!from)
                continue;
            for (const ir::Use& use : graph_.tensor(t).uses)
                edge(from->nodeId(), opNodeId(use.op), shapeOf(t));
        }
    }

    void outputEdges() {
        for (ir::TensorId t : activations(graph_, graph_.outputs()))
            if (std::optional<Source> from = source(t))
                edge(from->nodeId(), outputNodeId(t),
                     options_.collapsed ? crossingLabel({t}) : shapeOf(t));
    }

    void groupNodes() {
        for (GroupId g : partition_.groupIds())
            node("  ", groupNodeId(g),
                 Partition::label(g) + "\n" + plural(partition_.ops(g).size(), "op"));
    }

    /// Groups reading \p tensor, ascending, without the group writing it.
    std::set<GroupId> readerGroups(ir::TensorId tensor) const {
        std::set<GroupId> groups;
        for (const ir::Use& use : graph_.tensor(tensor).uses)
            groups.insert(partition_.groupOf(use.op));
        if (ir::OpId producer = graph_.tensor(tensor).producer; producer != ir::kNoOp)
            groups.erase(partition_.groupOf(producer));
        return groups;
    }

    void groupEdges() {
        std::map<std::pair<Source, GroupId>, std::vector<ir::TensorId>> crossing;
        for (ir::TensorId t : graph_.tensorIds()) {
            std::optional<Source> from = source(t);
            if (!from)
                continue;
            for (GroupId reader : readerGroups(t))
                crossing[{*from, reader}].push_back(t);
        }
        for (const auto& [ends, tensors] : crossing)
            edge(ends.first.nodeId(), groupNodeId(ends.second), crossingLabel(tensors));
    }

    std::string crossingLabel(const std::vector<ir::TensorId>& tensors) const {
        int64_t bytes = 0;
        for (ir::TensorId t : tensors)
            bytes += graph_.tensor(t).byteSize();
        std::string what =
            tensors.size() == 1 ? shapeOf(tensors[0]) : plural(tensors.size(), "tensor");
        return what + "\n" + formatBytes(bytes);
    }

    const ir::Graph& graph_;
    const Partition& partition_;
    const DotOptions& options_;
    std::string out_;
};

} // namespace

std::string groupedGraphDot(const ir::Graph& graph, const partition::Partition& partition,
                            const DotOptions& options) {
    return DotWriter(graph, partition, options).write();
}

std::string dotQuoted(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n')
            out += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            out += ' ';
        else
            out += c;
    }
    out += '"';
    return out;
}

} // namespace stagecraft::io
