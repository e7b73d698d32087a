// The graph view's model builder, without Graphviz: node, edge and cluster
// counts of the figure chain expanded, collapsed and mixed, and of ResNet-50
// collapsed, checked against counts derived from the graph and partition; the
// labels of collapsed groups; the same input always gives the same model and
// key; malformed layout requests are refused with a reason.

#include "common/byte_text.h"
#include "graph/graph_labels.h"
#include "graph/graph_model.h"
#include "graph_fixture.h"

#include <QSet>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

using namespace stagecraft;
using namespace stagecraft::views;
using namespace stagecraft::views::graphview;
using namespace Qt::StringLiterals;

namespace {

using partition::GroupId;

size_t activationCount(const ir::Graph& graph, const std::vector<ir::TensorId>& tensors) {
    std::set<ir::TensorId> unique;
    for (ir::TensorId t : tensors)
        if (!graph.tensor(t).isConstant())
            unique.insert(t);
    return unique.size();
}

size_t terminalCount(const ir::Graph& graph) {
    return activationCount(graph, graph.inputs()) + activationCount(graph, graph.outputs());
}

/// Distinct (writer, reader op) pairs of activations plus one edge per graph
/// output, with writers and readers mapped by \p nodeOf (op -> drawn thing).
template <typename NodeOf>
size_t expectedEdges(const ir::Graph& graph, NodeOf nodeOf) {
    std::set<std::pair<int64_t, int64_t>> pairs;
    for (ir::TensorId t : graph.tensorIds()) {
        const ir::Tensor& tensor = graph.tensor(t);
        if (tensor.isConstant())
            continue;
        int64_t from = tensor.producer != ir::kNoOp ? nodeOf(tensor.producer) : -1 - t.value();
        for (const ir::Use& use : tensor.uses)
            if (nodeOf(use.op) != from)
                pairs.insert({from, nodeOf(use.op)});
    }
    return pairs.size() + activationCount(graph, graph.outputs());
}

size_t countKind(const GraphModel& model, NodeRef::Kind kind) {
    size_t count = 0;
    for (const ModelNode& node : model.nodes)
        count += node.ref.kind == kind ? 1 : 0;
    return count;
}

void checkAligned(const GraphModel& model) {
    QCOMPARE(model.nodes.size(), model.layout.nodes.size());
    QCOMPARE(model.edges.size(), model.layout.edges.size());
    QCOMPARE(model.clusters.size(), model.layout.clusters.size());
    QVERIFY(validateLayoutInput(model.layout).ok());
}

bool sameModel(const GraphModel& a, const GraphModel& b) {
    if (a.nodes.size() != b.nodes.size() || a.edges.size() != b.edges.size() ||
        a.clusters.size() != b.clusters.size())
        return false;
    for (size_t n = 0; n < a.nodes.size(); ++n)
        if (!(a.nodes[n].ref == b.nodes[n].ref) || a.nodes[n].lines != b.nodes[n].lines ||
            a.layout.nodes[n].size != b.layout.nodes[n].size ||
            a.layout.nodes[n].shape != b.layout.nodes[n].shape)
            return false;
    for (size_t e = 0; e < a.edges.size(); ++e)
        if (a.edges[e].tensors != b.edges[e].tensors ||
            a.layout.edges[e].from != b.layout.edges[e].from ||
            a.layout.edges[e].to != b.layout.edges[e].to)
            return false;
    for (size_t c = 0; c < a.clusters.size(); ++c)
        if (a.clusters[c].lines != b.clusters[c].lines ||
            a.layout.clusters[c].nodes != b.layout.clusters[c].nodes)
            return false;
    return true;
}

} // namespace

class TestGraphModel : public QObject {
    Q_OBJECT

private slots:
    void fig3ChainExpanded() {
        auto result = test::resultOf("fig3-chain");
        const ir::Graph& graph = *result->graph;
        const auto& partition = result->eval.schedule.partition;
        GraphModel model = buildGraphModel(*result, allGroups(*result));
        checkAligned(model);
        QCOMPARE(graph.opCount(), size_t(16));
        QCOMPARE(partition.groupCount(), size_t(4));
        QCOMPARE(model.nodes.size(), size_t(18));
        QCOMPARE(countKind(model, NodeRef::Kind::Op), size_t(16));
        QCOMPARE(countKind(model, NodeRef::Kind::Input), size_t(1));
        QCOMPARE(countKind(model, NodeRef::Kind::Output), size_t(1));
        QCOMPARE(model.layout.clusters.size(), size_t(4));
        QCOMPARE(model.edges.size(), size_t(17));
        QCOMPARE(model.edges.size(), expectedEdges(graph, [](ir::OpId op) { return op.value(); }));
        for (size_t c = 0; c < model.clusters.size(); ++c) {
            GroupId g = model.clusters[c].group;
            QCOMPARE(model.layout.clusters[c].nodes.size(), partition.ops(g).size());
            for (int node : model.layout.clusters[c].nodes)
                QCOMPARE(partition.groupOf(ir::OpId(model.nodes[static_cast<size_t>(node)].ref.id)),
                         g);
            QVERIFY(model.clusters[c].lines.front().startsWith(groupName(g)));
        }
        const ModelNode& first = model.nodes[1];
        QCOMPARE(first.ref.kind, NodeRef::Kind::Op);
        QCOMPARE(first.lines.at(0), QString::fromStdString(graph.op(ir::OpId(first.ref.id)).name));
        QCOMPARE(first.lines.at(1), QString::fromStdString(graph.op(ir::OpId(first.ref.id)).type));
        QCOMPARE(model.layout.nodes.front().shape, NodeShape::InvHouse);
        QCOMPARE(model.layout.nodes.back().shape, NodeShape::House);
    }

    void fig3ChainCollapsed() {
        auto result = test::resultOf("fig3-chain");
        const auto& schedule = result->eval.schedule;
        GraphModel model = buildGraphModel(*result, {});
        checkAligned(model);
        QCOMPARE(model.nodes.size(), size_t(6));
        QCOMPARE(countKind(model, NodeRef::Kind::Group), size_t(4));
        QCOMPARE(model.edges.size(), size_t(5));
        QCOMPARE(model.clusters.size(), size_t(0));
        QCOMPARE(model.edges.size(), expectedEdges(*result->graph, [&](ir::OpId op) {
                     return schedule.partition.groupOf(op).value();
                 }));
        // Group a splits 8 ways along dim 0 (docs/zoo.md, Fig. 3); d is unsplit.
        const ModelNode& a = model.nodes[1];
        QCOMPARE(a.ref, (NodeRef{NodeRef::Kind::Group, 0}));
        QCOMPARE(a.lines.at(0), u"a"_s);
        QCOMPARE(a.lines.at(1), u"4 ops"_s);
        QCOMPARE(a.lines.at(2), u"dim 0 × 8"_s);
        QCOMPARE(a.lines.at(3), footprintText(schedule, GroupId(0)));
        // Its largest instance's footprint, in binary units as everywhere else.
        int64_t largest = 0;
        for (auto id : schedule.groups[GroupId(0)].instances)
            largest = std::max(largest, schedule.instances[id].footprintBytes);
        QCOMPARE(a.lines.at(3), formatBufferBytes(largest));
        QVERIFY2(a.lines.at(3).endsWith(u"iB"_s), qPrintable(a.lines.at(3)));
        QCOMPARE(model.nodes[4].lines.at(2), u"unsplit"_s);
    }

    // tvm does not size its groups for a buffer: no "0 B" footprint line.
    void aGroupWithoutAFootprintSaysNone() {
        test::ResultSpec spec;
        spec.strategy = "tvm";
        auto result = test::resultFor(spec);
        GraphModel model = buildGraphModel(*result, {});
        for (const ModelNode& node : model.nodes) {
            if (node.ref.kind != NodeRef::Kind::Group)
                continue;
            QCOMPARE(node.lines.size(), 3);
            QVERIFY(!node.lines.join(u' ').contains(u" 0 B"_s));
        }
        QVERIFY(!clusterLines(*result, GroupId(0)).join(u' ').contains(u"0 B"_s));
    }

    void fig3ChainMixed() {
        auto result = test::resultOf("fig3-chain");
        GraphModel model = buildGraphModel(*result, {GroupId(1)});
        checkAligned(model);
        QCOMPARE(countKind(model, NodeRef::Kind::Group), size_t(3));
        QCOMPARE(countKind(model, NodeRef::Kind::Op), size_t(4));
        QCOMPARE(model.clusters.size(), size_t(1));
        QCOMPARE(model.clusters[0].group, GroupId(1));
        // input -> a -> b's four ops in a chain -> c -> d -> output
        QCOMPARE(model.edges.size(), size_t(8));
    }

    void resnet50Collapsed() {
        auto result = test::resultOf("resnet50", 1, "stcp920");
        const ir::Graph& graph = *result->graph;
        const auto& partition = result->eval.schedule.partition;
        GraphModel model = buildGraphModel(*result, {});
        checkAligned(model);
        QCOMPARE(model.nodes.size(), partition.groupCount() + terminalCount(graph));
        QCOMPARE(model.clusters.size(), size_t(0));
        size_t groupEdges = 0;
        for (GroupId g : partition.groupIds())
            groupEdges += partition.producers(g).size();
        size_t inputEdges = 0;
        for (ir::TensorId t : graph.inputs()) {
            std::set<GroupId> readers;
            for (const ir::Use& use : graph.tensor(t).uses)
                readers.insert(partition.groupOf(use.op));
            inputEdges += graph.tensor(t).isConstant() ? 0 : readers.size();
        }
        QCOMPARE(model.edges.size(),
                 groupEdges + inputEdges + activationCount(graph, graph.outputs()));
        QCOMPARE(model.edges.size(),
                 expectedEdges(graph, [&](ir::OpId op) { return partition.groupOf(op).value(); }));
    }

    void weightsAreLeftOut() {
        auto result = test::resultOf("resnet50", 1, "stcp920");
        GraphModel model = buildGraphModel(*result, allGroups(*result));
        for (const ModelEdge& edge : model.edges)
            for (ir::TensorId t : edge.tensors)
                QVERIFY(!result->graph->tensor(t).isConstant());
        QCOMPARE(model.nodes.size(), result->graph->opCount() + terminalCount(*result->graph));
    }

    void sameInputSameModel() {
        auto result = test::resultOf("resnet50", 1, "stcp920");
        ExpandedGroups some{GroupId(0), GroupId(3), GroupId(7)};
        QVERIFY(sameModel(buildGraphModel(*result, some), buildGraphModel(*result, some)));
        QVERIFY(sameModel(buildGraphModel(*result, {}), buildGraphModel(*result, {})));
        QVERIFY(!sameModel(buildGraphModel(*result, {}), buildGraphModel(*result, some)));
        QCOMPARE(layoutKeyFor(*result, some), layoutKeyFor(*result, some));
        QVERIFY(layoutKeyFor(*result, some) != layoutKeyFor(*result, {}));
        auto fig3 = test::resultOf("fig3-chain");
        QVERIFY(layoutKeyFor(*result, {}).graph != layoutKeyFor(*fig3, {}).graph);
    }

    void namePartsKeepLayerIndices() {
        using Parts = std::vector<std::string>;
        QCOMPARE(nameParts("/encoder/layer.3/attention/self/query/MatMul"),
                 (Parts{"encoder", "layer.3", "attention", "self", "query", "MatMul"}));
        QCOMPARE(nameParts("encoder.layer.11.output/Add"),
                 (Parts{"encoder", "layer.11", "output", "Add"}));
        QCOMPARE(nameParts("layer2.0.conv1"), (Parts{"layer2.0", "conv1"}));
        QCOMPARE(nameParts("Conv_0"), (Parts{"Conv_0"}));
        QCOMPARE(nameParts("7//x"), (Parts{"7", "x"}));
        QVERIFY(nameParts("").empty());
    }

    void bertFoldsByLayer() {
        auto result = test::resultOf("bert-2layer");
        const ir::Graph& graph = *result->graph;
        const NameScopes scopes = nameScopes(graph);
        QCOMPARE(scopes.scopes.front().opCount, graph.opCount());
        const NameFolding names{&scopes, openingFolding(scopes, 60)};
        GraphModel model = buildGraphModel(*result, {}, &names);
        checkAligned(model);
        QCOMPARE(model.clusters.size(), size_t(0));
        QVERIFY(model.nodes.size() <= 60 + terminalCount(graph));
        QCOMPARE(model.nodes.size(), nodeCount(scopes, names.folded) + terminalCount(graph));
        // Every op is drawn by one node: its own, or its folded scope's.
        for (ir::OpId op : graph.opIds()) {
            const ModelNode& node = model.nodes[model.opNodes[op]];
            const int scope = foldedScopeOf(scopes, names.folded, op);
            QCOMPARE(node.ref.kind, scope < 0 ? NodeRef::Kind::Op : NodeRef::Kind::Scope);
            QCOMPARE(node.ref.id, scope < 0 ? op.value() : scope);
        }
        QCOMPARE(model.edges.size(),
                 expectedEdges(graph, [&](ir::OpId op) { return model.opNodes[op]; }));
        // Both layers fold alike: the same scopes with the same op counts.
        std::map<QString, size_t> layer0;
        std::map<QString, size_t> layer1;
        for (const ModelNode& node : model.nodes) {
            if (node.ref.kind != NodeRef::Kind::Scope)
                continue;
            const NameScope& scope = scopes.scopes[node.ref.id];
            QString name = QString::fromStdString(scope.name);
            QCOMPARE(node.lines.front(), elided(name));
            if (name.startsWith(u"encoder.layer.0."_s))
                layer0[name.mid(16)] = scope.opCount;
            else if (name.startsWith(u"encoder.layer.1."_s))
                layer1[name.mid(16)] = scope.opCount;
        }
        QVERIFY(!layer0.empty());
        QVERIFY(layer0 == layer1);
    }

    void foldAndUnfoldAreInverse() {
        auto result = test::resultOf("bert-2layer");
        const NameScopes scopes = nameScopes(*result->graph);
        const FoldedScopes coarse = coarsestFolding(scopes);
        QVERIFY(!coarse.empty());
        // The coarsest drawing shows "encoder" or its layers, not one node.
        QVERIFY(nodeCount(scopes, coarse) > 1);
        for (int scope : coarse) {
            if (scopes.scopes[scope].children.empty())
                continue;
            FoldedScopes open = unfold(scopes, coarse, scope);
            QVERIFY(!open.contains(scope));
            QVERIFY(nodeCount(scopes, open) > nodeCount(scopes, coarse));
            QCOMPARE(fold(scopes, open, scope), coarse);
        }
        // Folding the root's first scope hides whatever was unfolded inside it.
        const FoldedScopes none;
        const int first = coarse.empty() ? 1 : *coarse.begin();
        const FoldedScopes one = fold(scopes, unfold(scopes, coarse, first), first);
        QCOMPARE(one, coarse);
        QCOMPARE(nodeCount(scopes, none), result->graph->opCount());
        // No graph, no scopes: nothing to fold (a view without a result).
        QVERIFY(openingFolding(NameScopes{}, 60).empty());
    }

    void elidesLongNames() {
        QString name = QString(40, u'x');
        QString shown = elided(name, 30);
        QCOMPARE(shown.size(), 30);
        QVERIFY(shown.contains(u"…"_s));
        QCOMPARE(elided(u"short"_s, 30), u"short"_s);
    }

    // Issue 20: the twelve BERT layers' ops looked alike once their middle
    // (the layer index) was elided.
    void elidedNamesKeepTheLayerIndex() {
        QSet<QString> shown;
        for (int layer = 0; layer < 12; ++layer) {
            QString name = u"encoder.layer.%1.attention.self.query/MatMul"_s.arg(layer);
            QString text = elided(name, 30);
            QVERIFY2(text.size() <= 30, qPrintable(text));
            QVERIFY2(text.contains(u"layer.%1…"_s.arg(layer)), qPrintable(text));
            QVERIFY2(text.endsWith(u"…self.query/MatMul"_s), qPrintable(text));
            shown.insert(text);
        }
        QCOMPARE(shown.size(), 12);
        QCOMPARE(elided(u"/encoder/layer.11/attention/self/query/MatMul"_s, 30),
                 u"…layer.11…self/query/MatMul"_s);
        QCOMPARE(elided(u"layer1.0.downsample.0.conv.weight.quantized/Conv"_s, 30),
                 u"layer1.0…weight.quantized/Conv"_s);
        // No numbered part: the end that fits, from a part boundary.
        QCOMPARE(elided(u"backbone.neck.feature_pyramid.lateral/Conv"_s, 30),
                 u"…feature_pyramid.lateral/Conv"_s);
    }

    void malformedRequestsAreRefused_data() {
        QTest::addColumn<int>("defect");
        QTest::addColumn<QString>("message");
        QTest::newRow("edge to a missing node") << 0 << u"edge 0 names node 5"_s;
        QTest::newRow("node in two clusters") << 1 << u"node 1 is in cluster 0 and in cluster 1"_s;
        QTest::newRow("empty cluster") << 2 << u"cluster 0 has no nodes"_s;
        QTest::newRow("zero size") << 3 << u"node 0 has an invalid size"_s;
    }

    void malformedRequestsAreRefused() {
        QFETCH(int, defect);
        QFETCH(QString, message);
        LayoutInput input;
        input.nodes = {{{50, 20}, NodeShape::Box}, {{50, 20}, NodeShape::Box}};
        input.edges = {{0, 1}};
        if (defect == 0)
            input.edges = {{0, 5}};
        if (defect == 1)
            input.clusters = {{{0, 1}, {}}, {{1}, {}}};
        if (defect == 2)
            input.clusters = {{{}, {}}};
        if (defect == 3)
            input.nodes[0].size = {0, 20};
        Status status = validateLayoutInput(input);
        QVERIFY(!status.ok());
        QVERIFY2(QString::fromStdString(status.error().message()).startsWith(message),
                 status.error().message().c_str());
    }
};

QTEST_MAIN(TestGraphModel)
#include "test_graph_model.moc"
