// Instance orders that break the rules (GraphTurbo §3.3): validateOrder
// refuses a reversed order naming a violated dependency, and a user order
// override that is not a permutation of the instances or not topological
// makes buildSchedule fail with a message naming the instances. A valid user
// order is taken as given. Graphs: the paper's Fig. 3 chain (zoo fig3-chain,
// Fig. 6's instances on the teaching preset) and random graphs whose
// schedules have dependencies between instances.

#include "arch/presets.h"
#include "onnx/importer.h"
#include "random_graphs.h"
#include "schedule/validate.h"
#include "schedule_checks.h"
#include "zoo/zoo.h"

#include <QtTest>

#include <algorithm>

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

} // namespace

class TestScheduleOrders : public QObject {
    Q_OBJECT
    arch::Arch teaching_;
    std::vector<ir::Graph> graphs_;
    QTemporaryDir dir_;

    schedule::Schedule scheduleOf(size_t graph, schedule::OrderChoice order) {
        schedule::ScheduleOptions options;
        options.order = order;
        auto s = schedule::buildSchedule(graphs_[graph], teaching_, options);
        SC_ASSERT(s.ok(), "the base schedule of an order test failed");
        return std::move(*s);
    }

    Expected<schedule::Schedule> withOrder(size_t graph, std::vector<std::string> labels) {
        schedule::ScheduleOptions options;
        options.overrides.order = std::move(labels);
        return schedule::buildSchedule(graphs_[graph], teaching_, options);
    }

    /// One row per graph.
    void addGraphRows() {
        QTest::addColumn<int>("graph");
        QTest::addRow("fig3-chain") << 0;
        for (int i = 1; i < static_cast<int>(graphs_.size()); ++i)
            QTest::addRow("random-%s", graphs_[static_cast<size_t>(i)].info.name.c_str()) << i;
    }

private slots:
    void initTestCase() {
        auto loaded = arch::loadPreset("teaching");
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message().c_str());
        teaching_ = std::move(*loaded);
        QVERIFY(dir_.isValid());
        std::filesystem::path path = dir_.filePath(QStringLiteral("fig3.onnx")).toStdString();
        auto written = zoo::writeZooModel("fig3-chain", {}, path);
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message().c_str());
        auto imported = onnxio::importModel(path);
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message().c_str());
        graphs_.push_back(std::move(imported->graph));
        // Random graphs whose schedules have dependencies between instances.
        for (uint64_t seed = 1; seed <= 200 && graphs_.size() < 13; ++seed) {
            auto kind = test::graphKinds()[seed % test::graphKinds().size()];
            ir::Graph g = test::randomGraph(seed, {kind, 12});
            auto s = schedule::buildSchedule(g, teaching_, {});
            QVERIFY2(s.ok(), s.ok() ? "" : s.error().message().c_str());
            if (s->edges.size() >= 2)
                graphs_.push_back(std::move(g));
        }
        QCOMPARE(graphs_.size(), size_t(13));
    }

    void reversedOrderIsRefused_data() { addGraphRows(); }
    void reversedOrderIsRefused() {
        QFETCH(int, graph);
        schedule::Schedule s = scheduleOf(static_cast<size_t>(graph), schedule::OrderChoice::DFS);
        QVERIFY(!s.edges.empty());
        std::vector<schedule::InstanceId> reversed(s.order.rbegin(), s.order.rend());
        Status refused = schedule::validateOrder(s, reversed);
        QVERIFY(!refused.ok());
        QVERIFY2(namesViolatedDependency(s, labelsOf(s, reversed), refused.error().message()),
                 refused.error().message().c_str());
        QVERIFY(schedule::validateOrder(s, s.order).ok());
    }

    void nonPermutationIsRefused_data() { addGraphRows(); }
    void nonPermutationIsRefused() {
        QFETCH(int, graph);
        schedule::Schedule s = scheduleOf(static_cast<size_t>(graph), schedule::OrderChoice::BFS);
        std::vector<schedule::InstanceId> missing(s.order.begin(), s.order.end() - 1);
        Status refused = schedule::validateOrder(s, missing);
        QVERIFY(!refused.ok());
        std::string dropped = s.instances[s.order.back()].label;
        QCOMPARE(quotedLabels(refused.error().message()), std::vector<std::string>{dropped});

        std::vector<schedule::InstanceId> twice = s.order;
        twice.back() = twice.front();
        refused = schedule::validateOrder(s, twice);
        QVERIFY(!refused.ok());
        std::vector<std::string> named = quotedLabels(refused.error().message());
        QVERIFY2(!named.empty() && (named[0] == dropped || named[0] == s.instances[twice[0]].label),
                 refused.error().message().c_str());
    }

    void userOrderIsTakenAsGiven_data() { addGraphRows(); }
    void userOrderIsTakenAsGiven() {
        QFETCH(int, graph);
        schedule::Schedule bfs = scheduleOf(static_cast<size_t>(graph), schedule::OrderChoice::BFS);
        auto s = withOrder(static_cast<size_t>(graph), labelsOf(bfs, bfs.order));
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message().c_str());
        QCOMPARE(s->orderKind, schedule::OrderKind::User);
        QCOMPARE(s->order, bfs.order);
        std::string problem =
            test::scheduleProblem(graphs_[static_cast<size_t>(graph)], teaching_, *s);
        QVERIFY2(problem.empty(), problem.c_str());
    }

    void overrideThatIsNotTopologicalFails_data() { addGraphRows(); }
    void overrideThatIsNotTopologicalFails() {
        QFETCH(int, graph);
        schedule::Schedule s = scheduleOf(static_cast<size_t>(graph), schedule::OrderChoice::DFS);
        std::vector<std::string> reversed = labelsOf(s, s.order);
        std::reverse(reversed.begin(), reversed.end());
        auto refused = withOrder(static_cast<size_t>(graph), reversed);
        QVERIFY(!refused.ok());
        QVERIFY2(namesViolatedDependency(s, reversed, refused.error().message()),
                 refused.error().message().c_str());
    }

    void overrideThatIsNotAPermutationFails_data() {
        QTest::addColumn<int>("graph");
        QTest::addColumn<QString>("change");
        for (const char* change : {"drop", "repeat", "unknown"}) {
            QTest::addRow("fig3-chain-%s", change) << 0 << QString::fromLatin1(change);
            QTest::addRow("random-%s", change) << 1 << QString::fromLatin1(change);
        }
    }
    void overrideThatIsNotAPermutationFails() {
        QFETCH(int, graph);
        QFETCH(QString, change);
        schedule::Schedule s = scheduleOf(static_cast<size_t>(graph), schedule::OrderChoice::BFS);
        std::vector<std::string> labels = labelsOf(s, s.order);
        std::string named;
        if (change == QStringLiteral("drop")) {
            named = labels.back();
            labels.pop_back();
        } else if (change == QStringLiteral("repeat")) {
            named = labels.front();
            labels.push_back(labels.front());
        } else {
            named = "zz99";
            labels.insert(labels.begin() + 1, named);
        }
        auto refused = withOrder(static_cast<size_t>(graph), labels);
        QVERIFY(!refused.ok());
        std::vector<std::string> quoted = quotedLabels(refused.error().message());
        QVERIFY2(std::find(quoted.begin(), quoted.end(), named) != quoted.end(),
                 refused.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestScheduleOrders)
#include "test_schedule_orders.moc"
