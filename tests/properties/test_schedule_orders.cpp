// Instance orders that break the rules (GraphTurbo §3.3): validateOrder
// refuses a reversed order naming a violated dependency, and a user order
// override that is not a permutation of the instances or not topological
// makes buildSchedule fail with a message naming the instances. A valid user
// order is taken as given. Graphs: the paper's Fig. 3 chain (zoo fig3-chain,
// Fig. 6's instances on the teaching preset) and random graphs whose
// schedules have dependencies between instances.

#include "arch/presets.h"
#include "coretestsupport.h"
#include "onnx/importer.h"
#include "random_graphs.h"
#include "schedule/validate.h"
#include "schedule_checks.h"
#include "suite_fixture.h"
#include "zoo/zoo.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace stagecraft;

namespace {

/// "a7", "ab12": letters then digits.
bool isLabel(const std::string& text) {
    size_t letters = 0;
    while (letters < text.size() && text[letters] >= 'a' && text[letters] <= 'z')
        ++letters;
    return letters > 0 && letters < text.size() &&
           std::all_of(text.begin() + static_cast<std::ptrdiff_t>(letters), text.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
}

/// The instance labels quoted in \p message ('a7'), in order.
std::vector<std::string> quotedLabels(const std::string& message) {
    std::vector<std::string> labels;
    for (size_t open = message.find('\''); open != std::string::npos;) {
        size_t close = message.find('\'', open + 1);
        if (close == std::string::npos)
            break;
        std::string text = message.substr(open + 1, close - open - 1);
        if (isLabel(text)) {
            labels.push_back(text);
            open = message.find('\'', close + 1);
        } else {
            open = close;
        }
    }
    return labels;
}

std::vector<std::string> labelsOf(const schedule::Schedule& s,
                                  const std::vector<schedule::InstanceId>& order) {
    std::vector<std::string> labels;
    for (schedule::InstanceId i : order)
        labels.push_back(s.instances[i].label);
    return labels;
}

/// The message names two instances with a needed edge between them, the
/// consumer placed before the producer in \p order.
bool namesViolatedDependency(const schedule::Schedule& s, const std::vector<std::string>& order,
                             const std::string& message) {
    std::vector<std::string> labels = quotedLabels(message);
    if (labels.size() != 2)
        return false;
    auto position = [&](const std::string& label) {
        return std::find(order.begin(), order.end(), label) - order.begin();
    };
    for (const schedule::InstanceEdge& e : s.edges) {
        const std::string& from = s.instances[e.from].label;
        const std::string& to = s.instances[e.to].label;
        bool named =
            (labels[0] == from && labels[1] == to) || (labels[0] == to && labels[1] == from);
        if (!e.redundant && named && position(to) < position(from))
            return true;
    }
    return false;
}

/// The teaching preset and the graphs of the rows: the Fig. 3 chain, then
/// random graphs whose schedules have dependencies between instances. Built
/// once, when the rows are made (they are named after the graphs), and
/// checked by the suite's setup (the Qt suite's initTestCase).
struct OrderGraphs {
    arch::Arch teaching;
    std::vector<ir::Graph> graphs;
    /// Why building them failed; "" when they were built.
    std::string failure;
};

OrderGraphs buildOrderGraphs() {
    OrderGraphs built;
    auto loaded = arch::loadPreset("teaching");
    if (!loaded.ok()) {
        built.failure = loaded.error().message();
        return built;
    }
    built.teaching = std::move(*loaded);
    test::TempDir dir;
    if (!dir.isValid()) {
        built.failure = "cannot make a temporary directory";
        return built;
    }
    std::filesystem::path path = dir.filePath("fig3.onnx");
    auto written = zoo::writeZooModel("fig3-chain", {}, path);
    if (!written.ok()) {
        built.failure = written.error().message();
        return built;
    }
    auto imported = onnxio::importModel(path);
    if (!imported.ok()) {
        built.failure = imported.error().message();
        return built;
    }
    built.graphs.push_back(std::move(imported->graph));
    // Random graphs whose schedules have dependencies between instances.
    for (uint64_t seed = 1; seed <= 200 && built.graphs.size() < 13; ++seed) {
        auto kind = test::graphKinds()[seed % test::graphKinds().size()];
        ir::Graph g = test::randomGraph(seed, {kind, 12});
        auto s = schedule::buildSchedule(g, built.teaching, {});
        if (!s.ok()) {
            built.failure = s.error().message();
            return built;
        }
        if (s->edges.size() >= 2)
            built.graphs.push_back(std::move(g));
    }
    return built;
}

const OrderGraphs& orderGraphs() {
    static const OrderGraphs built = buildOrderGraphs();
    return built;
}

const arch::Arch& teaching() {
    return orderGraphs().teaching;
}

const ir::Graph& graphAt(int graph) {
    return orderGraphs().graphs[static_cast<size_t>(graph)];
}

schedule::Schedule scheduleOf(int graph, schedule::OrderChoice order) {
    schedule::ScheduleOptions options;
    options.order = order;
    auto s = schedule::buildSchedule(graphAt(graph), teaching(), options);
    SC_ASSERT(s.ok(), "the base schedule of an order test failed");
    return std::move(*s);
}

Expected<schedule::Schedule> withOrder(int graph, std::vector<std::string> labels) {
    schedule::ScheduleOptions options;
    options.overrides.order = std::move(labels);
    return schedule::buildSchedule(graphAt(graph), teaching(), options);
}

/// A row of one graph: its index in OrderGraphs::graphs.
struct GraphRow {
    std::string rowLabel;
    int graph;
};

/// One row per graph (the Fig. 3 chain's even when the graphs could not be
/// built: the suite's setup then fails it).
std::vector<GraphRow> graphRows() {
    std::vector<GraphRow> rows = {{"fig3-chain", 0}};
    const std::vector<ir::Graph>& graphs = orderGraphs().graphs;
    for (int i = 1; i < static_cast<int>(graphs.size()); ++i)
        rows.push_back(
            {test::rowName("random-%s", graphs[static_cast<size_t>(i)].info.name.c_str()), i});
    return rows;
}

/// A row of a user order that is not a permutation of the instances.
struct ChangeRow {
    std::string rowLabel;
    int graph;
    std::string change;
};

std::vector<ChangeRow> changeRows() {
    std::vector<ChangeRow> rows;
    for (const char* change : {"drop", "repeat", "unknown"}) {
        rows.push_back({test::rowName("fig3-chain-%s", change), 0, change});
        rows.push_back({test::rowName("random-%s", change), 1, change});
    }
    return rows;
}

} // namespace

/// Checks that the graphs of the rows were built (the Qt suite's
/// initTestCase).
class TestScheduleOrders : public test::OnceSuite<TestScheduleOrders, test::SuiteDir::None> {
public:
    /// Checks the rows' graphs (OnceSuite's setup).
    static void prepare() {
        const OrderGraphs& built = orderGraphs();
        ASSERT_TRUE(built.failure.empty()) << built.failure;
        ASSERT_EQ(built.graphs.size(), size_t(13));
    }
};

class GraphRows : public TestScheduleOrders, public ::testing::WithParamInterface<GraphRow> {};

TEST_P(GraphRows, reversedOrderIsRefused) {
    int graph = GetParam().graph;
    schedule::Schedule s = scheduleOf(graph, schedule::OrderChoice::DFS);
    ASSERT_TRUE(!s.edges.empty());
    std::vector<schedule::InstanceId> reversed(s.order.rbegin(), s.order.rend());
    Status refused = schedule::validateOrder(s, reversed);
    ASSERT_TRUE(!refused.ok());
    ASSERT_TRUE(namesViolatedDependency(s, labelsOf(s, reversed), refused.error().message()))
        << refused.error().message();
    ASSERT_TRUE(schedule::validateOrder(s, s.order).ok());
}

TEST_P(GraphRows, nonPermutationIsRefused) {
    int graph = GetParam().graph;
    schedule::Schedule s = scheduleOf(graph, schedule::OrderChoice::BFS);
    std::vector<schedule::InstanceId> missing(s.order.begin(), s.order.end() - 1);
    Status refused = schedule::validateOrder(s, missing);
    ASSERT_TRUE(!refused.ok());
    std::string dropped = s.instances[s.order.back()].label;
    ASSERT_EQ(quotedLabels(refused.error().message()), std::vector<std::string>{dropped});

    std::vector<schedule::InstanceId> twice = s.order;
    twice.back() = twice.front();
    refused = schedule::validateOrder(s, twice);
    ASSERT_TRUE(!refused.ok());
    std::vector<std::string> named = quotedLabels(refused.error().message());
    ASSERT_TRUE(!named.empty() && (named[0] == dropped || named[0] == s.instances[twice[0]].label))
        << refused.error().message();
}

TEST_P(GraphRows, userOrderIsTakenAsGiven) {
    int graph = GetParam().graph;
    schedule::Schedule bfs = scheduleOf(graph, schedule::OrderChoice::BFS);
    auto s = withOrder(graph, labelsOf(bfs, bfs.order));
    ASSERT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message());
    ASSERT_EQ(s->orderKind, schedule::OrderKind::User);
    ASSERT_EQ(s->order, bfs.order);
    std::string problem = test::scheduleProblem(graphAt(graph), teaching(), *s);
    ASSERT_TRUE(problem.empty()) << problem;
}

TEST_P(GraphRows, overrideThatIsNotTopologicalFails) {
    int graph = GetParam().graph;
    schedule::Schedule s = scheduleOf(graph, schedule::OrderChoice::DFS);
    std::vector<std::string> reversed = labelsOf(s, s.order);
    std::reverse(reversed.begin(), reversed.end());
    auto refused = withOrder(graph, reversed);
    ASSERT_TRUE(!refused.ok());
    ASSERT_TRUE(namesViolatedDependency(s, reversed, refused.error().message()))
        << refused.error().message();
}

INSTANTIATE_TEST_SUITE_P(TestScheduleOrders, GraphRows, ::testing::ValuesIn(graphRows()),
                         test::RowName{});

class ChangeRows : public TestScheduleOrders, public ::testing::WithParamInterface<ChangeRow> {};

TEST_P(ChangeRows, overrideThatIsNotAPermutationFails) {
    int graph = GetParam().graph;
    const std::string& change = GetParam().change;
    schedule::Schedule s = scheduleOf(graph, schedule::OrderChoice::BFS);
    std::vector<std::string> labels = labelsOf(s, s.order);
    std::string named;
    if (change == "drop") {
        named = labels.back();
        labels.pop_back();
    } else if (change == "repeat") {
        named = labels.front();
        labels.push_back(labels.front());
    } else {
        named = "zz99";
        labels.insert(labels.begin() + 1, named);
    }
    auto refused = withOrder(graph, labels);
    ASSERT_TRUE(!refused.ok());
    std::vector<std::string> quoted = quotedLabels(refused.error().message());
    ASSERT_TRUE(std::find(quoted.begin(), quoted.end(), named) != quoted.end())
        << refused.error().message();
}

INSTANTIATE_TEST_SUITE_P(TestScheduleOrders, ChangeRows, ::testing::ValuesIn(changeRows()),
                         test::RowName{});
