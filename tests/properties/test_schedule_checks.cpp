// The property checks themselves can fail: a valid schedule, broken in one
// place at a time, is reported by scheduleProblem, and a copy changed in one
// field is reported by scheduleDifference.

#include "arch/presets.h"
#include "coretestsupport.h"
#include "random_graphs.h"
#include "schedule_checks.h"
#include "suite_fixture.h"

#include <functional>
#include <gtest/gtest.h>

using namespace stagecraft;

namespace {

using Mutation = std::function<bool(const ir::Graph&, schedule::Schedule&)>;

/// Every needed edge from one producer group into one consumer instance: the
/// producer's tiles cover its output, so the consumer reads one of them.
bool dropNeededEdges(const ir::Graph&, schedule::Schedule& s) {
    if (s.edges.empty())
        return false;
    schedule::InstanceId consumer = s.edges.front().to;
    partition::GroupId producer = s.instances[s.edges.front().from].group;
    std::erase_if(s.edges, [&](const schedule::InstanceEdge& e) {
        return e.to == consumer && s.instances[e.from].group == producer;
    });
    return true;
}

bool removeConcat(const ir::Graph&, schedule::Schedule& s) {
    for (size_t m = 0; m < s.moves.size(); ++m)
        if (s.moves[m].kind == schedule::DataMove::Kind::Concat) {
            s.moves.erase(s.moves.begin() + static_cast<std::ptrdiff_t>(m));
            return true;
        }
    return false;
}

/// A move reading an instance its consumer does not depend on.
bool moveFromStranger(const ir::Graph&, schedule::Schedule& s) {
    for (schedule::DataMove& move : s.moves)
        for (size_t i = 0; i < s.instances.size(); ++i) {
            auto id = schedule::InstanceId::at(i);
            bool edge = std::any_of(s.edges.begin(), s.edges.end(), [&](const auto& e) {
                return e.from == id && e.to == move.consumer;
            });
            if (!edge && id != move.consumer) {
                move.sources.back() = id;
                return true;
            }
        }
    return false;
}

const std::vector<std::pair<const char*, Mutation>>& mutations() {
    static const std::vector<std::pair<const char*, Mutation>> list = {
        {"order-reversed",
         [](const ir::Graph&, schedule::Schedule& s) {
             std::reverse(s.order.begin(), s.order.end());
             return true;
         }},
        {"order-missing-instance",
         [](const ir::Graph&, schedule::Schedule& s) {
             s.order.pop_back();
             return true;
         }},
        {"group-missing",
         [](const ir::Graph&, schedule::Schedule& s) {
             s.groups.pop_back();
             return true;
         }},
        {"instance-misnumbered",
         [](const ir::Graph&, schedule::Schedule& s) {
             s.instances.back().index += 1;
             return true;
         }},
        {"needed-edges-dropped", dropNeededEdges},
        {"edge-duplicated",
         [](const ir::Graph&, schedule::Schedule& s) {
             s.edges.push_back(s.edges.front());
             return true;
         }},
        {"fits-flag-flipped",
         [](const ir::Graph&, schedule::Schedule& s) {
             s.instances.front().fitsLocalBuffer = !s.instances.front().fitsLocalBuffer;
             return true;
         }},
        {"capacity-changed",
         [](const ir::Graph&, schedule::Schedule& s) {
             s.capacityBytes += 1;
             return true;
         }},
        {"binding-uses-every-element",
         [](const ir::Graph&, schedule::Schedule& s) {
             s.instances.front().bind = s.instances.front().shape;
             return true;
         }},
        {"binding-does-not-divide",
         [](const ir::Graph&, schedule::Schedule& s) {
             for (schedule::Instance& inst : s.instances)
                 for (size_t d = 0; d < inst.shape.size(); ++d)
                     if (inst.shape[d] % 3 != 0) {
                         inst.bind.assign(inst.shape.size(), 1);
                         inst.bind[d] = 3;
                         return true;
                     }
             return false;
         }},
        {"graph-output-in-lb",
         [](const ir::Graph& g, schedule::Schedule& s) {
             for (schedule::Instance& inst : s.instances)
                 if (g.isGraphOutput(s.groups[inst.group].splitInfo.output)) {
                     inst.scope = schedule::Scope::LB;
                     return true;
                 }
             return false;
         }},
        {"concat-removed", removeConcat},
        {"move-from-stranger", moveFromStranger},
    };
    return list;
}

/// A mutation's row: its index in mutations().
struct MutationRow {
    std::string rowLabel;
    int mutation;
};

std::vector<MutationRow> mutationRows() {
    std::vector<MutationRow> rows;
    for (size_t i = 0; i < mutations().size(); ++i)
        rows.push_back({test::rowName("%s", mutations()[i].first), static_cast<int>(i)});
    return rows;
}

} // namespace

/// The base schedule, found once for the whole program (the Qt suite's
/// initTestCase).
class TestScheduleChecks : public test::OnceSuite<TestScheduleChecks, test::SuiteDir::None> {
public:
    /// Finds the base schedule (OnceSuite's setup).
    static void prepare() {
        auto loaded = arch::loadPreset("teaching");
        ASSERT_TRUE(loaded.ok());
        arch_ = std::move(*loaded);
        // A chain with split groups, needed edges, concats and a graph output
        // written by the last instance.
        for (uint64_t seed = 1; seed <= 500; ++seed) {
            ir::Graph g = test::randomGraph(seed, {test::GraphKind::Chain, 10});
            auto s = schedule::buildSchedule(g, arch_, {});
            ASSERT_TRUE(s.ok());
            bool concat = std::any_of(s->moves.begin(), s->moves.end(), [](const auto& m) {
                return m.kind == schedule::DataMove::Kind::Concat;
            });
            if (concat && s->groups.size() >= 3 && test::scheduleProblem(g, arch_, *s).empty()) {
                graph_ = std::move(g);
                base_ = std::move(*s);
                return;
            }
        }
        FAIL() << "no suitable base schedule among seeds 1..500";
    }

protected:
    static inline arch::Arch arch_;
    static inline ir::Graph graph_;
    static inline schedule::Schedule base_;
};

class MutationRows : public TestScheduleChecks,
                     public ::testing::WithParamInterface<MutationRow> {};

TEST_P(MutationRows, brokenScheduleIsReported) {
    int mutation = GetParam().mutation;
    ASSERT_TRUE(test::scheduleProblem(graph_, arch_, base_).empty());
    schedule::Schedule broken = base_;
    ASSERT_TRUE(mutations()[static_cast<size_t>(mutation)].second(graph_, broken));
    std::string problem = test::scheduleProblem(graph_, arch_, broken);
    ASSERT_TRUE(!problem.empty());
    test::info("%s", problem.c_str());
}

INSTANTIATE_TEST_SUITE_P(TestScheduleChecks, MutationRows, ::testing::ValuesIn(mutationRows()),
                         test::RowName{});

TEST_F(TestScheduleChecks, changedFieldIsReported) {
    ASSERT_TRUE(test::scheduleDifference(base_, base_).empty());
    using Change = std::function<void(schedule::Schedule&)>;
    std::vector<std::pair<const char*, Change>> changes = {
        {"order",
         [](auto& s) {
             std::swap(s.order.front(), s.order.back());
         }},
        {"order kind",
         [](auto& s) {
             s.orderKind = schedule::OrderKind::User;
         }},
        {"binding",
         [](auto& s) {
             s.instances.front().bind.front() += 1;
         }},
        {"scope",
         [](auto& s) {
             schedule::Scope& scope = s.instances.front().scope;
             scope = scope == schedule::Scope::GB ? schedule::Scope::LB : schedule::Scope::GB;
         }},
        {"footprint",
         [](auto& s) {
             s.instances.front().footprintBytes += 4;
         }},
        {"edge",
         [](auto& s) {
             s.edges.front().redundant = true;
         }},
        {"move",
         [](auto& s) {
             auto& kind = s.moves.front().kind;
             kind = kind == schedule::DataMove::Kind::Copy ? schedule::DataMove::Kind::Concat
                                                           : schedule::DataMove::Kind::Copy;
         }},
        {"split",
         [](auto& s) {
             s.groups.front().split.reset();
         }},
        {"capacity",
         [](auto& s) {
             s.capacityBytes *= 2;
         }},
        {"trace",
         [](auto& s) {
             s.trace.binding.push_back({});
         }},
    };
    for (const auto& [name, change] : changes) {
        schedule::Schedule changed = base_;
        change(changed);
        ASSERT_TRUE(!test::scheduleDifference(base_, changed).empty()) << name;
    }
}
