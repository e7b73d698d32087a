// The DOT export of a grouped graph, parsed back with Graphviz's cgraph: the
// text must be valid DOT, each op must sit once in the cluster of its group,
// the edges must be the graph's tensor uses (collapsed: the partition's group
// edges), names must survive escaping, and the text must not change between
// runs. Graphs: a hand-built one with hostile names, and the paper's figure
// models grouped by the GraphTurbo pipeline.

#include "arch/presets.h"
#include "coretestsupport.h"
#include "io/dot_export.h"
#include "onnx/importer.h"
#include "schedule/pipeline.h"
#include "support/strings.h"
#include "zoo/zoo.h"

#include <graphviz/cgraph.h>

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace stagecraft;

namespace {

using partition::GroupId;
using partition::Partition;

// --- reading DOT back with cgraph ---------------------------------------

struct DotEdge {
    std::string tail, head, label;
    auto operator<=>(const DotEdge&) const = default;
};

/// What cgraph read: node attributes, the clusters holding each node, edges.
struct ParsedDot {
    bool ok = false;
    /// cgraph's messages when it refused the text.
    std::string error;
    std::string graphLabel;
    std::map<std::string, std::string> labels;
    std::map<std::string, std::string> shapes;
    std::map<std::string, std::vector<std::string>> clustersOf;
    std::vector<DotEdge> edges;
};

std::string attr(void* object, const char* name) {
    const char* value = agget(object, const_cast<char*>(name));
    return value ? value : "";
}

void readClusters(Agraph_t* graph, ParsedDot& parsed) {
    for (Agraph_t* sub = agfstsubg(graph); sub; sub = agnxtsubg(sub))
        for (Agnode_t* node = agfstnode(sub); node; node = agnxtnode(sub, node))
            parsed.clustersOf[agnameof(node)].push_back(agnameof(sub));
}

std::string cgraphErrors;

int collectError(char* message) {
    cgraphErrors += message;
    return 0;
}

ParsedDot parseDot(const std::string& text) {
    cgraphErrors.clear();
    agusererrf previous = agseterrf(collectError);
    std::unique_ptr<Agraph_t, decltype(&agclose)> graph(agmemread(text.c_str()), &agclose);
    agseterrf(previous);
    ParsedDot parsed;
    parsed.error = cgraphErrors;
    if (!graph)
        return parsed;
    parsed.ok = true;
    parsed.graphLabel = attr(graph.get(), "label");
    for (Agnode_t* node = agfstnode(graph.get()); node; node = agnxtnode(graph.get(), node)) {
        parsed.labels[agnameof(node)] = attr(node, "label");
        parsed.shapes[agnameof(node)] = attr(node, "shape");
        for (Agedge_t* edge = agfstout(graph.get(), node); edge; edge = agnxtout(graph.get(), edge))
            parsed.edges.push_back(
                {agnameof(agtail(edge)), agnameof(aghead(edge)), attr(edge, "label")});
    }
    readClusters(graph.get(), parsed);
    std::sort(parsed.edges.begin(), parsed.edges.end());
    return parsed;
}

/// A label as cgraph returns it: only `\"` is unescaped, line breaks stay `\n`.
std::string cgraphLabel(const std::vector<std::string>& lines) {
    std::string quoted = io::dotQuoted(join(lines, "\n"));
    std::string out;
    for (size_t i = 1; i + 1 < quoted.size(); ++i) {
        if (quoted[i] == '\\' && quoted[i + 1] == '"')
            continue;
        out += quoted[i];
    }
    return out;
}

std::vector<std::string> show(const std::vector<DotEdge>& edges) {
    std::vector<std::string> out;
    for (const DotEdge& e : edges)
        out.push_back(e.tail + " -> " + e.head + " [" + e.label + "]");
    return out;
}

std::vector<std::string> show(const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (const std::string& name : names)
        out.push_back(name);
    return out;
}

// --- what the graph says the drawing must hold --------------------------

std::string shapeOf(const ir::Graph& graph, ir::TensorId t) {
    return ir::formatShape(graph.tensor(t).shape);
}

std::set<ir::TensorId> activations(const ir::Graph& graph, const std::vector<ir::TensorId>& ts) {
    std::set<ir::TensorId> out;
    for (ir::TensorId t : ts)
        if (!graph.tensor(t).isConstant())
            out.insert(t);
    return out;
}

std::string opNode(ir::OpId op) {
    return "op" + std::to_string(op.value());
}

std::string inNode(ir::TensorId t) {
    return "in" + std::to_string(t.value());
}

std::string outNode(ir::TensorId t) {
    return "out" + std::to_string(t.value());
}

/// One edge per use of a non-constant tensor, one per graph output.
std::vector<DotEdge> expectedOpEdges(const ir::Graph& graph) {
    std::vector<DotEdge> edges;
    for (ir::TensorId t : graph.tensorIds()) {
        const ir::Tensor& tensor = graph.tensor(t);
        if (tensor.isConstant())
            continue;
        std::string from = tensor.producer == ir::kNoOp ? inNode(t) : opNode(tensor.producer);
        for (const ir::Use& use : tensor.uses)
            edges.push_back({from, opNode(use.op), shapeOf(graph, t)});
        if (graph.isGraphOutput(t))
            edges.push_back({from, outNode(t), shapeOf(graph, t)});
    }
    std::sort(edges.begin(), edges.end());
    return edges;
}

std::string groupNode(GroupId g) {
    return "group_" + Partition::label(g);
}

/// The label of the edge from group \p g to group \p c: the outputs of \p g
/// that an op of \p c reads.
std::string crossingLabel(const ir::Graph& graph, const Partition& p, GroupId g, GroupId c) {
    std::vector<ir::TensorId> crossing;
    for (ir::TensorId t : p.outputs(g))
        for (const ir::Use& use : graph.tensor(t).uses)
            if (p.groupOf(use.op) == c) {
                crossing.push_back(t);
                break;
            }
    int64_t bytes = 0;
    for (ir::TensorId t : crossing)
        bytes += graph.tensor(t).byteSize();
    std::string what = crossing.size() == 1 ? shapeOf(graph, crossing[0])
                                            : std::to_string(crossing.size()) + " tensors";
    return cgraphLabel({what, formatBytes(bytes)});
}

/// Group edges from the partition's quotient graph, input and output edges.
std::vector<DotEdge> expectedGroupEdges(const ir::Graph& graph, const Partition& p) {
    std::vector<DotEdge> edges;
    for (GroupId g : p.groupIds())
        for (GroupId c : p.consumers(g))
            edges.push_back({groupNode(g), groupNode(c), crossingLabel(graph, p, g, c)});
    for (ir::TensorId t : activations(graph, graph.inputs())) {
        std::set<GroupId> readers;
        for (const ir::Use& use : graph.tensor(t).uses)
            readers.insert(p.groupOf(use.op));
        for (GroupId c : readers)
            edges.push_back(
                {inNode(t), groupNode(c),
                 cgraphLabel({shapeOf(graph, t), formatBytes(graph.tensor(t).byteSize())})});
    }
    for (ir::TensorId t : activations(graph, graph.outputs()))
        edges.push_back(
            {groupNode(p.groupOf(graph.tensor(t).producer)), outNode(t),
             cgraphLabel({shapeOf(graph, t), formatBytes(graph.tensor(t).byteSize())})});
    std::sort(edges.begin(), edges.end());
    return edges;
}

// --- graphs ---------------------------------------------------------------

/// Names that are no DOT identifiers: quotes, backslashes, slashes, colons,
/// dots, spaces, a line break. The weight must not be drawn.
struct HostileModel {
    ir::Graph graph;
    Partition partition;
};

HostileModel hostileModel() {
    HostileModel m;
    ir::Graph& g = m.graph;
    const ir::DType f32 = ir::DType::Float32;
    ir::TensorId x = g.addTensor("in/put:0", f32, {1, 4});
    std::string zeros(64, '\0');
    ir::TensorId w = g.addTensor("w\"eight.secret", f32, {4, 4}, ir::makeInlineWeight(zeros));
    ir::TensorId t1 = g.addTensor("t/1", f32, {1, 4});
    ir::TensorId t2 = g.addTensor("t\\2", f32, {1, 4});
    ir::TensorId t3 = g.addTensor("out:put\"3\"", f32, {1, 4});
    ir::TensorId t4 = g.addTensor("sq\nuare", f32, {1, 4});
    g.addOp({"/block/mat\"mul:0", "MatMul", "", {}, {x, w}, {t1}});
    g.addOp({"relu\\back", "Relu", "", {}, {t1}, {t2}});
    g.addOp({"add.x \"quoted\"", "Add", "", {}, {t1, t2}, {t3}});
    g.addOp({"sq/line\nbreak", "Mul", "", {}, {t3, t3}, {t4}});
    g.setInputs({x});
    g.setOutputs({t3, t4});
    SC_ASSERT(ir::validateGraph(g).ok(), "hostile graph valid");
    auto p = Partition::fromAssignment(g, {GroupId(5), GroupId(7), GroupId(7), GroupId(9)});
    SC_ASSERT(p.ok(), "hostile partition built");
    m.partition = std::move(p).value();
    return m;
}

ir::Graph zooGraph(const std::string& name) {
    test::TempDir dir;
    std::filesystem::path file = dir.filePath(std::string("model.onnx"));
    auto written = zoo::writeZooModel(name, {}, file);
    SC_ASSERT(written.ok(), "zoo model written");
    auto imported = onnxio::importModel(file);
    SC_ASSERT(imported.ok(), "zoo model imported");
    return std::move(imported->graph);
}

/// \p graph grouped by the GraphTurbo pipeline on the architecture preset
/// \p grouping, or "singletons": every op its own group.
Partition grouped(const ir::Graph& graph, const std::string& grouping) {
    if (grouping == "singletons")
        return Partition::singletons(graph);
    auto target = arch::loadPreset(grouping);
    SC_ASSERT(target.ok(), "architecture preset");
    auto built = schedule::buildSchedule(graph, *target, {});
    SC_ASSERT(built.ok(), "zoo model scheduled");
    return built->partition;
}

// --- checks -----------------------------------------------------------------

void checkExpanded(const ir::Graph& graph, const Partition& p, const std::string& text) {
    ParsedDot dot = parseDot(text);
    ASSERT_TRUE(dot.ok) << dot.error.c_str();
    std::set<ir::TensorId> ins = activations(graph, graph.inputs());
    std::set<ir::TensorId> outs = activations(graph, graph.outputs());
    ASSERT_EQ(dot.labels.size(), graph.opCount() + ins.size() + outs.size());
    for (ir::OpId op : graph.opIds()) {
        std::string id = opNode(op);
        ASSERT_TRUE(dot.labels.count(id)) << id.c_str();
        const ir::Op& o = graph.op(op);
        ASSERT_EQ((dot.labels[id].substr(0, dot.labels[id].rfind("\\n"))),
                  (cgraphLabel({o.name, o.type})));
        ASSERT_EQ(show(dot.clustersOf[id]),
                  std::vector<std::string>{("cluster_" + Partition::label(p.groupOf(op)))});
    }
    for (ir::TensorId t : ins) {
        ASSERT_EQ((dot.shapes[inNode(t)]), std::string("invhouse"));
        ASSERT_TRUE(dot.clustersOf[inNode(t)].empty());
    }
    for (ir::TensorId t : outs)
        ASSERT_EQ((dot.shapes[outNode(t)]), std::string("house"));
    ASSERT_EQ(show(dot.edges), show(expectedOpEdges(graph)));
}

void checkCollapsed(const ir::Graph& graph, const Partition& p, const std::string& text) {
    ParsedDot dot = parseDot(text);
    ASSERT_TRUE(dot.ok) << dot.error.c_str();
    std::set<ir::TensorId> ins = activations(graph, graph.inputs());
    std::set<ir::TensorId> outs = activations(graph, graph.outputs());
    ASSERT_EQ(dot.labels.size(), p.groupCount() + ins.size() + outs.size());
    for (GroupId g : p.groupIds()) {
        size_t n = p.ops(g).size();
        std::string count = std::to_string(n) + (n == 1 ? " op" : " ops");
        ASSERT_EQ((dot.labels[groupNode(g)]), (cgraphLabel({Partition::label(g), count})));
    }
    for (ir::OpId op : graph.opIds())
        ASSERT_TRUE(!dot.labels.count(opNode(op)));
    ASSERT_TRUE(dot.clustersOf.empty());
    ASSERT_EQ(show(dot.edges), show(expectedGroupEdges(graph, p)));
}

} // namespace

struct QuotingRow {
    std::string rowLabel;
    std::string name;
    std::string quoted;
};

std::vector<QuotingRow> quotingRows() {
    std::vector<QuotingRow> rows;
    rows.push_back({"plain", std::string("conv1"), std::string("\"conv1\"")});
    rows.push_back({"onnx path", std::string("/layer1/0/conv1/Conv:0.weight"),
                    std::string("\"/layer1/0/conv1/Conv:0.weight\"")});
    rows.push_back({"quote", std::string("a\"b"), std::string("\"a\\\"b\"")});
    rows.push_back({"backslash", std::string("a\\b"), std::string("\"a\\\\b\"")});
    rows.push_back({"trailing backslash", std::string("a\\"), std::string("\"a\\\\\"")});
    rows.push_back({"line break", std::string("a\nb"), std::string("\"a\\nb\"")});
    rows.push_back({"tab", std::string("a\tb"), std::string("\"a b\"")});
    rows.push_back({"empty", std::string(), std::string("\"\"")});
    return rows;
}

class QuotingRows : public ::testing::TestWithParam<QuotingRow> {};

TEST_P(QuotingRows, quoting) {
    std::string name = GetParam().name;
    std::string quoted = GetParam().quoted;
    ASSERT_EQ((io::dotQuoted(name)), (quoted));
    // Valid as a DOT label whatever the name.
    ASSERT_TRUE(parseDot("digraph { n [label=" + io::dotQuoted(name) + "]; }").ok);
}

INSTANTIATE_TEST_SUITE_P(TestDotExport, QuotingRows, ::testing::ValuesIn(quotingRows()),
                         test::RowName{});

TEST(TestDotExport, parserRefusesBadDot) {
    // The checks below rely on cgraph refusing what is not DOT.
    ASSERT_TRUE(parseDot("digraph { a [label=\"x\"]; }").ok);
    ASSERT_TRUE(!parseDot("digraph { a [label=\"x\"y\"]; }").ok);
    ASSERT_TRUE(!parseDot("digraph { a -> ; }").ok);
    ASSERT_TRUE(!parseDot("digraph { a -> ; }").error.empty());
}

TEST(TestDotExport, hostileNames) {
    HostileModel m = hostileModel();
    io::DotOptions options;
    options.title = "model \"x\" \\ y";
    std::string text = io::groupedGraphDot(m.graph, m.partition, options);
    checkExpanded(m.graph, m.partition, text);
    ParsedDot dot = parseDot(text);
    ASSERT_EQ((dot.graphLabel), (cgraphLabel({options.title})));
    ASSERT_EQ((dot.labels["op1"]), std::string("relu\\\\back\\nRelu\\n1x4"));
    ASSERT_EQ((dot.labels["op0"]), std::string("/block/mat\"mul:0\\nMatMul\\n1x4"));
    ASSERT_TRUE(text.find("label=\"/block/mat\\\"mul:0\\nMatMul\\n1x4\"") != std::string::npos);
    // Both reads of t3 by the Mul are drawn.
    ASSERT_EQ(std::count(dot.edges.begin(), dot.edges.end(), DotEdge{"op2", "op3", "1x4"}), 2);
    // The weight is not drawn at all.
    ASSERT_TRUE(text.find("secret") == std::string::npos);
    ASSERT_TRUE(!dot.labels.count("in1"));
    ASSERT_EQ(m.partition.groupCount(), size_t(3));
    ASSERT_EQ(show(dot.clustersOf["op1"]), std::vector<std::string>{std::string("cluster_b")});
    ASSERT_EQ(show(dot.clustersOf["op2"]), std::vector<std::string>{std::string("cluster_b")});
}

TEST(TestDotExport, hostileNamesCollapsed) {
    HostileModel m = hostileModel();
    io::DotOptions options;
    options.collapsed = true;
    std::string text = io::groupedGraphDot(m.graph, m.partition, options);
    checkCollapsed(m.graph, m.partition, text);
    ParsedDot dot = parseDot(text);
    // a -> b carries t1 once, though two ops of b read it.
    ASSERT_EQ(
        std::count_if(dot.edges.begin(), dot.edges.end(),
                      [](const DotEdge& e) { return e.tail == "group_a" && e.head == "group_b"; }),
        1);
    ASSERT_TRUE(text.find("group_a -> group_b [label=\"1x4\\n16 B\"];") != std::string::npos);
}

struct GoldenRow {
    std::string rowLabel;
    bool collapsed;
    std::string file;
};

std::vector<GoldenRow> goldenRows() {
    std::vector<GoldenRow> rows;
    rows.push_back({"expanded", false, std::string("hostile.dot.expected")});
    rows.push_back({"collapsed", true, std::string("hostile-collapsed.dot.expected")});
    return rows;
}

class GoldenRows : public ::testing::TestWithParam<GoldenRow> {};

TEST_P(GoldenRows, golden) {
    // The whole text, readable in tests/data/dot/: a change of the format
    // shows as a diff.
    bool collapsed = GetParam().collapsed;
    std::string file = GetParam().file;
    HostileModel m = hostileModel();
    std::string text = io::groupedGraphDot(m.graph, m.partition, {"hostile \"names\"", collapsed});
    ASSERT_TRUE(test::matchesGolden(test::sourceDir() / "tests/data/dot" / file, (text)));
}

INSTANTIATE_TEST_SUITE_P(TestDotExport, GoldenRows, ::testing::ValuesIn(goldenRows()),
                         test::RowName{});

struct ZooModelsRow {
    std::string rowLabel;
    std::string model;
    std::string grouping;
};

std::vector<ZooModelsRow> zooModelsRows() {
    std::vector<ZooModelsRow> rows;
    for (std::string model : {"fig3-chain", "fig2-blocks"}) {
        rows.push_back(
            {test::rowName("%s teaching", model.c_str()), model, std::string("teaching")});
        rows.push_back(
            {test::rowName("%s singletons", model.c_str()), model, std::string("singletons")});
    }
    // Hundreds of ops, ONNX-style names, groups of very different sizes.
    rows.push_back({"resnet50 stcp920", std::string("resnet50"), std::string("stcp920")});
    return rows;
}

class ZooModelsRows : public ::testing::TestWithParam<ZooModelsRow> {};

TEST_P(ZooModelsRows, zooModels) {
    std::string model = GetParam().model;
    std::string grouping = GetParam().grouping;
    ir::Graph graph = zooGraph(model);
    Partition partition = grouped(graph, grouping);
    ASSERT_TRUE(partition.groupCount() >= 1);
    checkExpanded(graph, partition, io::groupedGraphDot(graph, partition));
    checkCollapsed(graph, partition, io::groupedGraphDot(graph, partition, {"", true}));
}

INSTANTIATE_TEST_SUITE_P(TestDotExport, ZooModelsRows, ::testing::ValuesIn(zooModelsRows()),
                         test::RowName{});

TEST_P(ZooModelsRows, deterministic) {
    std::string model = GetParam().model;
    std::string grouping = GetParam().grouping;
    ir::Graph graph = zooGraph(model);
    Partition partition = grouped(graph, grouping);
    for (bool collapsed : {false, true}) {
        io::DotOptions options{"zoo:" + model, collapsed};
        std::string first = io::groupedGraphDot(graph, partition, options);
        ASSERT_EQ((io::groupedGraphDot(graph, partition, options)), (first));
        // A copy at other addresses, imported again, grouped again.
        ir::Graph again = zooGraph(model);
        ASSERT_EQ((io::groupedGraphDot(again, grouped(again, grouping), options)), (first));
        ASSERT_TRUE(first.ends_with("}\n"));
    }
}
