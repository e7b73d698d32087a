// The edit queries (core/schedule/edits.h) against the pipeline: every edit
// a query offers is accepted by buildSchedule as an override, every edit it
// refuses is refused. Merges over every pair of groups, ungroups at every op,
// splits of every candidate dim by every divisor (factor 1 is "unsplit"),
// scope pins of every produced tensor; on seeded random graphs and the
// paper's figures, at the LB and GB levels, and once more after an edit, as
// the inspector offers the next edit on an edited result.

#include "arch/presets.h"
#include "coretestsupport.h"
#include "onnx/importer.h"
#include "random_graphs.h"
#include "schedule/edits.h"
#include "schedule/pipeline.h"
#include "test_rows.h"
#include "zoo/zoo.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using schedule::GroupId;

namespace {

constexpr uint64_t kSeeds = 24;
constexpr int kMaxDivisors = 16;

struct Case {
    const ir::Graph& graph;
    const arch::Arch& arch;
    schedule::ScheduleOptions options; // the edits so far
    const schedule::Schedule& shown;   // their result
};

const std::string& firstOp(const Case& c, GroupId group) {
    return schedule::firstOpName(c.graph, c.shown, group);
}

/// The pipeline's verdict on the edits so far plus \p edit.
struct Verdict {
    bool accepted = true;
    std::string why; // the refusal
    bool operator==(bool offered) const { return accepted == offered; }
};

Verdict accepts(const Case& c, const std::function<void(schedule::Overrides&)>& edit) {
    schedule::ScheduleOptions options = c.options;
    edit(options.overrides);
    auto s = schedule::buildSchedule(c.graph, c.arch, options);
    return s.ok() ? Verdict{} : Verdict{false, s.error().message()};
}

std::string where(const Case& c, const std::string& edit) {
    return edit + " (level " + std::string(schedule::levelName(c.options.level)) + ", " +
           std::to_string(c.options.overrides.merges.size() + c.options.overrides.ungroups.size() +
                          c.options.overrides.splits.size()) +
           " edits before)";
}

/// The query's \p offered against the pipeline's \p verdict on the edit \p text.
#define AGREE(offered, verdict, text)                                                              \
    do {                                                                                           \
        const Verdict v = (verdict);                                                               \
        ASSERT_TRUE(v == (offered))                                                                \
            << where(c, text + std::string(v.accepted ? ": refused, accepted"                      \
                                                      : ": offered, refused: " + v.why));          \
    } while (false)

void checkMerges(const Case& c) {
    const partition::Partition& p = c.shown.partition;
    for (GroupId group : p.groupIds()) {
        auto offered = schedule::mergeableGroups(c.graph, c.shown, c.options.overrides, group);
        auto producers = p.producers(group);
        auto consumers = p.consumers(group);
        std::vector<GroupId> adjacent(producers.begin(), producers.end());
        adjacent.insert(adjacent.end(), consumers.begin(), consumers.end());
        for (GroupId other : adjacent) {
            Verdict accepted = accepts(c, [&](auto& o) {
                o.merges.push_back({firstOp(c, group), firstOp(c, other)});
            });
            AGREE(std::find(offered.begin(), offered.end(), other) != offered.end(), accepted,
                  "merge of " + firstOp(c, group) + " and " + firstOp(c, other));
        }
    }
}

void checkUngroups(const Case& c) {
    for (ir::OpId op : c.graph.opIds()) {
        const std::string& name = c.graph.op(op).name;
        bool offered = schedule::canUngroupAt(c.graph, c.shown, c.options.overrides, op);
        Verdict accepted = accepts(c, [&](auto& o) { o.ungroups.push_back({name}); });
        AGREE(offered, accepted, "ungroup at " + name);
    }
}

/// The split overrides of the edits so far without those naming \p group:
/// a new split of a group replaces its old one, as the inspector's does.
void dropSplitsOf(const Case& c, GroupId group, schedule::Overrides& o) {
    std::erase_if(o.splits, [&](const schedule::Overrides::Split& split) {
        return c.shown.partition.groupOf(*c.graph.findOp(split.op)) == group;
    });
}

void checkSplitsOf(const Case& c, GroupId group) {
    const schedule::Group& g = c.shown.groups[group];
    const ir::Shape& shape = c.graph.tensor(g.splitInfo.output).shape;
    auto split = [&](int dim, int64_t factor) {
        return accepts(c, [&](auto& o) {
            dropSplitsOf(c, group, o);
            o.splits.push_back({firstOp(c, group), dim, factor});
        });
    };
    AGREE(schedule::unsplitFits(c.graph, c.shown, group), split(0, 1),
          "unsplit of " + firstOp(c, group));
    for (const partition::SplitCandidate& candidate : g.splitInfo.candidates) {
        int64_t extent = shape[static_cast<size_t>(candidate.dim)];
        int tried = 0;
        for (int64_t factor = 1; factor <= extent && tried < kMaxDivisors; ++factor) {
            if (extent % factor != 0)
                continue;
            ++tried;
            bool offered = schedule::forcedSplit(c.graph, *c.shown.semantics, c.shown, group,
                                                 candidate.dim, factor)
                               .ok();
            AGREE(offered, split(candidate.dim, factor),
                  "split of " + firstOp(c, group) + " dim " + std::to_string(candidate.dim) + " x" +
                      std::to_string(factor));
        }
    }
    for (const partition::SplitCandidate& choice : schedule::splitChoices(c.graph, c.shown, group))
        AGREE(true, split(choice.dim, choice.factor),
              "offered split of " + firstOp(c, group) + " x" + std::to_string(choice.factor));
}

void checkScopePins(const Case& c) {
    for (ir::TensorId tensor : c.graph.tensorIds()) {
        if (c.graph.tensor(tensor).producer == ir::kNoOp)
            continue;
        bool offered = schedule::groupWithOutput(c.graph, c.shown, tensor).has_value();
        const std::string& name = c.graph.tensor(tensor).name;
        Verdict accepted = accepts(c, [&](auto& o) {
            o.scopes.push_back({name, schedule::Scope::DDR});
        });
        AGREE(offered, accepted, "scope pin of " + name);
    }
}

void checkAll(const Case& c) {
    checkMerges(c);
    checkUngroups(c);
    for (GroupId g : c.shown.groups.ids())
        checkSplitsOf(c, g);
    checkScopePins(c);
}

/// The first merge and the first ungroup the queries offer on \p shown.
std::vector<schedule::Overrides> firstOffers(const ir::Graph& graph,
                                             const schedule::Schedule& shown) {
    std::vector<schedule::Overrides> offers;
    for (GroupId g : shown.groups.ids()) {
        if (!offers.empty())
            break;
        for (GroupId other : schedule::mergeableGroups(graph, shown, {}, g)) {
            schedule::Overrides o;
            o.merges.push_back({schedule::firstOpName(graph, shown, g),
                                schedule::firstOpName(graph, shown, other)});
            offers.push_back(o);
            break;
        }
    }
    for (ir::OpId op : graph.opIds())
        if (schedule::canUngroupAt(graph, shown, {}, op)) {
            schedule::Overrides o;
            o.ungroups.push_back({graph.op(op).name});
            offers.push_back(o);
            break;
        }
    return offers;
}

const arch::Arch& teaching() {
    static const arch::Arch loaded = *arch::loadPreset("teaching");
    return loaded;
}

/// Every query on \p graph at both levels, before and after the first offered
/// edits.
void checkGraph(const ir::Graph& graph) {
    for (schedule::Level level : {schedule::Level::LB, schedule::Level::GB}) {
        schedule::ScheduleOptions options;
        options.level = level;
        auto shown = schedule::buildSchedule(graph, teaching(), options);
        ASSERT_TRUE(shown.ok()) << (shown.ok() ? "" : shown.error().message());
        checkAll({graph, teaching(), options, *shown});
        for (const schedule::Overrides& edit : firstOffers(graph, *shown)) {
            if (::testing::Test::HasFailure())
                return;
            options.overrides = edit;
            auto edited = schedule::buildSchedule(graph, teaching(), options);
            ASSERT_TRUE(edited.ok()) << (edited.ok() ? "" : edited.error().message());
            checkAll({graph, teaching(), options, *edited});
        }
    }
}

/// A paper figure of the zoo by name.
struct FigureRow {
    std::string rowLabel;
    std::string name;
};

} // namespace

class RandomGraphRows : public ::testing::TestWithParam<test::RandomGraphRow> {};

TEST_P(RandomGraphRows, randomGraphs) {
    checkGraph(test::randomGraph(GetParam().seed, {GetParam().kind, GetParam().ops}));
}

INSTANTIATE_TEST_SUITE_P(TestEditQueries, RandomGraphRows,
                         ::testing::ValuesIn(test::randomGraphRows(kSeeds, 16)), test::RowName{});

class FigureRows : public ::testing::TestWithParam<FigureRow> {};

TEST_P(FigureRows, paperFigures) {
    const std::string& name = GetParam().name;
    test::TempDir dir;
    auto path = dir.path() / (name + ".onnx");
    ASSERT_TRUE(zoo::writeZooModel(name, {}, path).ok());
    auto imported = onnxio::importModel(path);
    ASSERT_TRUE(imported.ok()) << (imported.ok() ? "" : imported.error().message());
    checkGraph(imported->graph);
}

INSTANTIATE_TEST_SUITE_P(TestEditQueries, FigureRows,
                         ::testing::Values(FigureRow{"fig2-blocks", "fig2-blocks"},
                                           FigureRow{"fig3-chain", "fig3-chain"}),
                         test::RowName{});
