// Golden tests from the GraphTurbo paper on the zoo's figure models and the
// `teaching` architecture: Fig. 3/6/7 (fig3-chain), Fig. 5 (fig2-blocks),
// Fig. 9 (data movement), and ResNet-50 with Table 2's 16 images per cluster.

#include "schedule/data_movement.h"
#include "schedule_fixture.h"

using namespace stagecraft;
using namespace stagecraft::schedule;
using test::words;

namespace {

struct Lists {
    const char* visit;
    const char* ready;
    const char* order;
};

} // namespace

class TestPaperFigures : public QObject {
    Q_OBJECT
    test::ZooGraphs zoo;

    Schedule scheduleOf(const std::string& model, const std::string& arch, OrderChoice order,
                        Level level = Level::LB, int64_t batch = 0) {
        const ir::Graph& graph = zoo.graph(model, batch);
        ScheduleOptions options;
        options.order = order;
        options.level = level;
        auto s = buildSchedule(graph, test::preset(arch), options);
        if (!s.ok())
            qFatal("%s", s.error().message().c_str());
        auto valid = validateSchedule(graph, test::preset(arch), *s);
        if (!valid.ok())
            qFatal("%s", valid.error().message().c_str());
        return std::move(s).value();
    }

private slots:
    /// Fig. 3b / Fig. 6: four stage sub-graphs split 8, 4, 2, 1 along the batch.
    void fig3ChainGroupsAndInstances() {
        Schedule s = scheduleOf("fig3-chain", "teaching", OrderChoice::Best);
        QCOMPARE(s.groups.size(), size_t(4));
        QCOMPARE(test::instanceCounts(s), (std::vector<int64_t>{8, 4, 2, 1}));
        for (size_t g = 0; g < 4; ++g) {
            QCOMPARE(s.partition.ops(static_cast<GroupId>(g)).size(),
                     size_t(4)); // conv, relu, conv, relu
            QVERIFY(s.groups[g].split);
            QCOMPARE(s.groups[g].split->dim, 0); // the batch dimension
        }
        // Fig. 6: b1 reads a1 and a2 only; the other inherited edges are redundant.
        QCOMPARE(s.edges.size(), size_t(8 + 4 + 2));
        QCOMPARE(redundantEdges(s).size(), size_t(8 * 4 + 4 * 2 + 2 * 1 - 14));
    }

    /// Fig. 7a.
    void fig3ChainBfsOrder() {
        Schedule s = scheduleOf("fig3-chain", "teaching", OrderChoice::BFS);
        QCOMPARE(test::orderLabels(s), words("a1 a2 a3 a4 a5 a6 a7 a8 b1 b2 b3 b4 c1 c2 d1"));
        QCOMPARE(s.orderKind, OrderKind::BFS);
    }

    /// Fig. 7f, and Fig. 7b-e as the first four recorded steps of Algorithm 3.
    void fig3ChainDfsOrderAndTrace() {
        Schedule s = scheduleOf("fig3-chain", "teaching", OrderChoice::DFS);
        QCOMPARE(test::orderLabels(s), words("a8 a7 b4 a6 a5 b3 c2 a4 a3 b2 a2 a1 b1 c1 d1"));
        // The lists after each step. Fig. 7 draws the order list of (d) and (e)
        // growing to the left; §3.3 reads it left to right, as listed here.
        const Lists figure[] = {
            {"b1 b2 b3 b4 c1 c2 d1", "a1 a2 a3 a4 a5 a6 a7 a8", ""}, // Fig. 7b
            {"b1 b2 b3 c1 c2 d1", "a1 a2 a3 a4 a5 a6 a7 b4", "a8"},  // Fig. 7c
            {"b1 b2 b3 c1 c2 d1", "a1 a2 a3 a4 a5 a6 b4", "a8 a7"},  // Fig. 7d
            {"b1 b2 b3 c1 d1", "a1 a2 a3 a4 a5 a6 c2", "a8 a7 b4"},  // Fig. 7e
        };
        QVERIFY(s.trace.order.size() >= 4);
        for (size_t i = 0; i < 4; ++i) {
            const partition::OrderStep& step = s.trace.order[i];
            QCOMPARE(step.visit, words(figure[i].visit));
            QCOMPARE(step.ready, words(figure[i].ready));
            QCOMPARE(step.order, words(figure[i].order));
            QVERIFY(step.explanation.find("§3.3 Algorithm 3") == 0);
        }
        QCOMPARE(s.trace.order.back().order, words("a8 a7 b4 a6 a5 b3 c2 a4 a3 b2 a2 a1 b1 c1 d1"));
    }

    /// "Best" picks the DFS order here: BFS keeps all of stage 1's outputs
    /// alive and overflows LB (Fig. 3a vs 3b).
    void fig3ChainBestIsDfs() {
        Schedule s = scheduleOf("fig3-chain", "teaching", OrderChoice::Best);
        QCOMPARE(s.orderKind, OrderKind::DFS);
    }

    /// Fig. 5: straight patterns form sub-graphs 1-5, branch patterns merge 2
    /// into 3 and 4 into 5, straight patterns then merge everything.
    void fig2BlocksMergeSequence() {
        Schedule s = scheduleOf("fig2-blocks", "teaching", OrderChoice::Best);
        QCOMPARE(s.groups.size(), size_t(1));
        QCOMPARE(s.partition.ops(0).size(), size_t(15));
        std::vector<std::string> accepted;
        for (const partition::MergeStep& m : s.trace.merges)
            if (m.merged)
                accepted.push_back(m.pattern);
        // Collapse runs: the pattern sequence of Fig. 5.
        std::vector<std::string> phases;
        for (const std::string& p : accepted)
            if (phases.empty() || phases.back() != p)
                phases.push_back(p);
        QCOMPARE(phases, (std::vector<std::string>{"straight", "branch", "straight"}));
        const ir::Graph& g = zoo.graph("fig2-blocks");
        std::vector<std::string> branchExits;
        for (const partition::MergeStep& m : s.trace.merges)
            if (m.merged && m.pattern == "branch") {
                QCOMPARE(m.parts.size(), size_t(2));
                branchExits.push_back(g.op(m.parts[0]).name + " -> " + g.op(m.parts[1]).name);
            }
        // Fig. 5a -> 5b: the shortcut conv (2) into Add+Relu (3); the identity
        // block's three layers (4) into its Add+Relu (5).
        QCOMPARE(branchExits,
                 (std::vector<std::string>{"conv_block.shortcut_conv -> conv_block.add",
                                           "identity_block.conv1 -> identity_block.add"}));
        for (const partition::MergeStep& m : s.trace.merges)
            QVERIFY2(m.explanation.find("§3.2 Algorithm 2") == 0, m.explanation.c_str());
    }

    /// Fig. 9: a GB piece is copied into LB, an LB piece bound [2,4] is
    /// redistributed to [2,2], and the concat gives [4,28,28,512] in LB bound [4,2].
    void fig9DataMovement() {
        Piece gbPiece{0, {2, 28, 28, 512}, Scope::GB, {2, 2, 1, 1}};
        Piece lbPiece{1, {2, 28, 28, 512}, Scope::LB, {2, 4, 1, 1}};
        std::vector<Piece> pieces{gbPiece, lbPiece};
        std::vector<DataMove> moves = movesForPieces(7, 3, pieces, {4, 28, 28, 512}, {4, 2, 1, 1});
        QCOMPARE(moves.size(), size_t(3));
        QCOMPARE(moves[0].kind, DataMove::Kind::Copy);
        QCOMPARE(moves[0].fromScope, Scope::GB);
        QCOMPARE(moves[0].scope, Scope::LB);
        QCOMPARE(moves[0].shape, (ir::Shape{2, 28, 28, 512}));
        QCOMPARE(trimmed(moves[0].bind), (Binding{2, 2}));
        QCOMPARE(moves[1].kind, DataMove::Kind::Redistribute);
        QCOMPARE(moves[1].sources, (std::vector<InstanceId>{1}));
        QCOMPARE(trimmed(moves[1].bind), (Binding{2, 2}));
        QCOMPARE(moves[1].scope, Scope::LB);
        QCOMPARE(moves[2].kind, DataMove::Kind::Concat);
        QCOMPARE(moves[2].shape, (ir::Shape{4, 28, 28, 512}));
        QCOMPARE(moves[2].scope, Scope::LB);
        QCOMPARE(trimmed(moves[2].bind), (Binding{4, 2}));
        QCOMPARE(moves[2].consumer, InstanceId(7));
    }

    /// Table 2: ResNet-50 with 16 images per cluster on STCP920. At the LB
    /// level (64 KB L1 per core) no stage fits: an image of stage 1 alone is
    /// 3.2 MB. With the GB level of §3.6 (the 8 MB LLB) the four stages become
    /// four sub-graphs that Algorithm 1 splits 8, 4, 2, 1 along the batch:
    /// Fig. 3b on a real model. An instance of stage 1 or 2 then holds more
    /// than the GB at once (a block's input beside its branch), so their
    /// final splits take one image each and keep the tensors in the GB
    /// (docs/scheduling.md), and the order runs each image through both.
    void resnet50StagesAtTheGbLevel() {
        Schedule s = scheduleOf("resnet50", "stcp920", OrderChoice::Best, Level::GB, 16);
        std::vector<int64_t> algorithm1;
        for (const Group& group : s.groups)
            algorithm1.push_back(group.splitInfo.best ? group.splitInfo.best->factor : 0);
        QCOMPARE(algorithm1, (std::vector<int64_t>{8, 4, 2, 1}));
        QCOMPARE(test::instanceCounts(s), (std::vector<int64_t>{16, 16, 2, 1}));
        const ir::Graph& g = zoo.graph("resnet50", 16);
        QCOMPARE(g.op(s.partition.ops(0).front()).name, std::string("conv1"));
        const char* stages[] = {"layer1.2.relu_2", "layer2.3.relu_2", "layer3.5.relu_2"};
        for (size_t i = 0; i < 3; ++i)
            QCOMPARE(g.op(s.partition.ops(static_cast<GroupId>(i)).back()).name,
                     std::string(stages[i]));
        QCOMPARE(test::orderLabels(s),
                 words("a16 b16 a15 b15 a14 b14 a13 b13 a12 b12 a11 b11 a10 b10 a9 b9 c2 a8 b8 "
                       "a7 b7 a6 b6 a5 b5 a4 b4 a3 b3 a2 b2 a1 b1 c1 d1"));
    }

    /// The same configuration at the paper's LB level: no stage-sized
    /// sub-graphs (see docs/decisions.md); every instance fits the LB, or its
    /// group has no split left at the LB and is sized for the GB instead (two
    /// levels), and both kinds occur.
    void resnet50AtTheLbLevel() {
        Schedule s = scheduleOf("resnet50", "stcp920", OrderChoice::Best, Level::LB, 16);
        QVERIFY(s.groups.size() > 4);
        const int64_t gb = 8 << 20;
        int64_t inLb = 0;
        for (const Instance& inst : s.instances) {
            const Group& group = s.groups[static_cast<size_t>(inst.group)];
            QVERIFY(inst.fitsLocalBuffer || (group.split && group.split->instanceBytes <= gb &&
                                             group.split->instanceBytes > s.capacityBytes));
            inLb += inst.fitsLocalBuffer ? 1 : 0;
        }
        QVERIFY(inLb > 0 && inLb < static_cast<int64_t>(s.instances.size()));
    }
};

QTEST_GUILESS_MAIN(TestPaperFigures)
#include "test_paper_figures.moc"
