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

test::ZooGraphs zooGraphs; // one cache for every test, as the Qt suite had one object

Schedule scheduleOf(const std::string& model, const std::string& arch, OrderChoice order,
                    Level level = Level::LB, int64_t batch = 0) {
    const ir::Graph& graph = zooGraphs.graph(model, batch);
    ScheduleOptions options;
    options.order = order;
    options.level = level;
    auto s = buildSchedule(graph, test::preset(arch), options);
    if (!s.ok())
        test::fatal("%s", s.error().message().c_str());
    auto valid = validateSchedule(graph, test::preset(arch), *s);
    if (!valid.ok())
        test::fatal("%s", valid.error().message().c_str());
    return std::move(s).value();
}

/// Fig. 3b / Fig. 6: four stage sub-graphs split 8, 4, 2, 1 along the batch.
TEST(TestPaperFigures, fig3ChainGroupsAndInstances) {
    Schedule s = scheduleOf("fig3-chain", "teaching", OrderChoice::Best);
    ASSERT_EQ(s.groups.size(), size_t(4));
    ASSERT_EQ(test::instanceCounts(s), (std::vector<int64_t>{8, 4, 2, 1}));
    for (GroupId g : IdRange<GroupId>(4)) {
        ASSERT_EQ(s.partition.ops(g).size(),
                  size_t(4)); // conv, relu, conv, relu
        ASSERT_TRUE(s.groups[g].split);
        ASSERT_EQ(s.groups[g].split->dim, 0); // the batch dimension
    }
    // Fig. 6: b1 reads a1 and a2 only; the other inherited edges are redundant.
    ASSERT_EQ(s.edges.size(), size_t(8 + 4 + 2));
    ASSERT_EQ(redundantEdges(s).size(), size_t(8 * 4 + 4 * 2 + 2 * 1 - 14));
}

/// Fig. 7a.
TEST(TestPaperFigures, fig3ChainBfsOrder) {
    Schedule s = scheduleOf("fig3-chain", "teaching", OrderChoice::BFS);
    ASSERT_EQ(test::orderLabels(s), words("a1 a2 a3 a4 a5 a6 a7 a8 b1 b2 b3 b4 c1 c2 d1"));
    ASSERT_EQ(s.orderKind, OrderKind::BFS);
}

/// Fig. 7f, and Fig. 7b-e as the first four recorded steps of Algorithm 3.
TEST(TestPaperFigures, fig3ChainDfsOrderAndTrace) {
    Schedule s = scheduleOf("fig3-chain", "teaching", OrderChoice::DFS);
    ASSERT_EQ(test::orderLabels(s), words("a8 a7 b4 a6 a5 b3 c2 a4 a3 b2 a2 a1 b1 c1 d1"));
    // The lists after each step. Fig. 7 draws the order list of (d) and (e)
    // growing to the left; §3.3 reads it left to right, as listed here.
    const Lists figure[] = {
        {"b1 b2 b3 b4 c1 c2 d1", "a1 a2 a3 a4 a5 a6 a7 a8", ""}, // Fig. 7b
        {"b1 b2 b3 c1 c2 d1", "a1 a2 a3 a4 a5 a6 a7 b4", "a8"},  // Fig. 7c
        {"b1 b2 b3 c1 c2 d1", "a1 a2 a3 a4 a5 a6 b4", "a8 a7"},  // Fig. 7d
        {"b1 b2 b3 c1 d1", "a1 a2 a3 a4 a5 a6 c2", "a8 a7 b4"},  // Fig. 7e
    };
    ASSERT_TRUE(s.trace.order.size() >= 4);
    for (size_t i = 0; i < 4; ++i) {
        const partition::OrderStep& step = s.trace.order[i];
        ASSERT_EQ(step.visit, words(figure[i].visit));
        ASSERT_EQ(step.ready, words(figure[i].ready));
        ASSERT_EQ(step.order, words(figure[i].order));
        ASSERT_TRUE(step.explanation.find("§3.3 Algorithm 3") == 0);
    }
    ASSERT_EQ(s.trace.order.back().order, words("a8 a7 b4 a6 a5 b3 c2 a4 a3 b2 a2 a1 b1 c1 d1"));
}

/// "Best" picks the DFS order here: BFS keeps all of stage 1's outputs
/// alive and overflows LB (Fig. 3a vs 3b).
TEST(TestPaperFigures, fig3ChainBestIsDfs) {
    Schedule s = scheduleOf("fig3-chain", "teaching", OrderChoice::Best);
    ASSERT_EQ(s.orderKind, OrderKind::DFS);
}

/// Fig. 5: straight patterns form sub-graphs 1-5, branch patterns merge 2
/// into 3 and 4 into 5, straight patterns then merge everything.
TEST(TestPaperFigures, fig2BlocksMergeSequence) {
    Schedule s = scheduleOf("fig2-blocks", "teaching", OrderChoice::Best);
    ASSERT_EQ(s.groups.size(), size_t(1));
    ASSERT_EQ(s.partition.ops(GroupId(0)).size(), size_t(15));
    std::vector<std::string> accepted;
    for (const partition::MergeStep& m : s.trace.merges)
        if (m.merged)
            accepted.push_back(m.pattern);
    // Collapse runs: the pattern sequence of Fig. 5.
    std::vector<std::string> phases;
    for (const std::string& p : accepted)
        if (phases.empty() || phases.back() != p)
            phases.push_back(p);
    ASSERT_EQ(phases, (std::vector<std::string>{"straight", "branch", "straight"}));
    const ir::Graph& g = zooGraphs.graph("fig2-blocks");
    std::vector<std::string> branchExits;
    for (const partition::MergeStep& m : s.trace.merges)
        if (m.merged && m.pattern == "branch") {
            ASSERT_EQ(m.parts.size(), size_t(2));
            branchExits.push_back(g.op(m.parts[0]).name + " -> " + g.op(m.parts[1]).name);
        }
    // Fig. 5a -> 5b: the shortcut conv (2) into Add+Relu (3); the identity
    // block's three layers (4) into its Add+Relu (5).
    ASSERT_EQ(branchExits,
              (std::vector<std::string>{"conv_block.shortcut_conv -> conv_block.add",
                                        "identity_block.conv1 -> identity_block.add"}));
    for (const partition::MergeStep& m : s.trace.merges)
        ASSERT_TRUE(m.explanation.find("§3.2 Algorithm 2") == 0) << m.explanation.c_str();
}

/// Fig. 9: a GB piece is copied into LB, an LB piece bound [2,4] is
/// redistributed to [2,2], and the concat gives [4,28,28,512] in LB bound [4,2].
TEST(TestPaperFigures, fig9DataMovement) {
    Piece gbPiece{InstanceId(0), {2, 28, 28, 512}, Scope::GB, {2, 2, 1, 1}};
    Piece lbPiece{InstanceId(1), {2, 28, 28, 512}, Scope::LB, {2, 4, 1, 1}};
    std::vector<Piece> pieces{gbPiece, lbPiece};
    std::vector<DataMove> moves =
        movesForPieces(InstanceId(7), ir::TensorId(3), pieces, {4, 28, 28, 512}, {4, 2, 1, 1});
    ASSERT_EQ(moves.size(), size_t(3));
    ASSERT_EQ(moves[0].kind, DataMove::Kind::Copy);
    ASSERT_EQ(moves[0].fromScope, Scope::GB);
    ASSERT_EQ(moves[0].scope, Scope::LB);
    ASSERT_EQ(moves[0].shape, (ir::Shape{2, 28, 28, 512}));
    ASSERT_EQ(trimmed(moves[0].bind), (Binding{2, 2}));
    ASSERT_EQ(moves[1].kind, DataMove::Kind::Redistribute);
    ASSERT_EQ(moves[1].sources, (std::vector<InstanceId>{InstanceId(1)}));
    ASSERT_EQ(trimmed(moves[1].bind), (Binding{2, 2}));
    ASSERT_EQ(moves[1].scope, Scope::LB);
    ASSERT_EQ(moves[2].kind, DataMove::Kind::Concat);
    ASSERT_EQ(moves[2].shape, (ir::Shape{4, 28, 28, 512}));
    ASSERT_EQ(moves[2].scope, Scope::LB);
    ASSERT_EQ(trimmed(moves[2].bind), (Binding{4, 2}));
    ASSERT_EQ(moves[2].consumer, InstanceId(7));
}

/// Table 2: ResNet-50 with 16 images per cluster on STCP920. At the LB
/// level (64 KB L1 per core) no stage fits: an image of stage 1 alone is
/// 3.2 MB. With the GB level of §3.6 (the 8 MB LLB) the four stages become
/// four sub-graphs that Algorithm 1 splits 8, 4, 2, 1 along the batch:
/// Fig. 3b on a real model. An instance of stage 1 or 2 then holds more
/// than the GB at once (a block's input beside its branch), so their
/// final splits take one image each and keep the tensors in the GB
/// (docs/scheduling.md), and the order runs each image through both.
TEST(TestPaperFigures, resnet50StagesAtTheGbLevel) {
    Schedule s = scheduleOf("resnet50", "stcp920", OrderChoice::Best, Level::GB, 16);
    std::vector<int64_t> algorithm1;
    for (const Group& group : s.groups)
        algorithm1.push_back(group.splitInfo.best ? group.splitInfo.best->factor : 0);
    ASSERT_EQ(algorithm1, (std::vector<int64_t>{8, 4, 2, 1}));
    ASSERT_EQ(test::instanceCounts(s), (std::vector<int64_t>{16, 16, 2, 1}));
    const ir::Graph& g = zooGraphs.graph("resnet50", 16);
    ASSERT_EQ(g.op(s.partition.ops(GroupId(0)).front()).name, std::string("conv1"));
    const char* stages[] = {"layer1.2.relu_2", "layer2.3.relu_2", "layer3.5.relu_2"};
    for (size_t i = 0; i < 3; ++i)
        ASSERT_EQ(g.op(s.partition.ops(GroupId::at(i)).back()).name, std::string(stages[i]));
    ASSERT_EQ(test::orderLabels(s),
              words("a16 b16 a15 b15 a14 b14 a13 b13 a12 b12 a11 b11 a10 b10 a9 b9 c2 a8 b8 "
                    "a7 b7 a6 b6 a5 b5 a4 b4 a3 b3 a2 b2 a1 b1 c1 d1"));
}

/// The same configuration at the paper's LB level: no stage-sized
/// sub-graphs (see docs/decisions.md); every instance fits the LB, or its
/// group has no split left at the LB and is sized for the GB instead (two
/// levels), and both kinds occur.
TEST(TestPaperFigures, resnet50AtTheLbLevel) {
    Schedule s = scheduleOf("resnet50", "stcp920", OrderChoice::Best, Level::LB, 16);
    ASSERT_TRUE(s.groups.size() > 4);
    const int64_t gb = 8 << 20;
    int64_t inLb = 0;
    for (const Instance& inst : s.instances) {
        const Group& group = s.groups[inst.group];
        ASSERT_TRUE(inst.fitsLocalBuffer || (group.split && group.split->instanceBytes <= gb &&
                                             group.split->instanceBytes > s.capacityBytes));
        inLb += inst.fitsLocalBuffer ? 1 : 0;
    }
    ASSERT_TRUE(inLb > 0 && inLb < static_cast<int64_t>(s.instances.size()));
}
