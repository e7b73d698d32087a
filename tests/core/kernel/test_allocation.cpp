// Memory allocation and reuse (GraphTurbo §4.3): every spec file of
// tests/data/alloc (format in docs/allocation.md), validateAllocation on
// hand-built and deliberately corrupted allocations, and seeded random
// request sets that must validate and come out the same twice.

#include "coretestsupport.h"
#include "kernel/allocation.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>

using namespace stagecraft;
using namespace stagecraft::kernel;
using Json = nlohmann::json;

namespace {

/// The pools of the hand-built two-pool cases: an LB spilling to a DDR.
constexpr PoolId kLb{0};
constexpr PoolId kDdrAbove{1};
/// The root pool of the random cases.
constexpr PoolId kDdr{0};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// --- spec files --------------------------------------------------------------

struct Spec {
    Pools pools;
    Requests requests;
    Json expect;
};

/// A pool named in a spec, or a raw index (to write malformed requests).
PoolId poolRef(const Json& ref, const Pools& pools) {
    if (ref.is_number_integer())
        return PoolId(ref.get<PoolId::Rep>());
    for (PoolId p : pools.ids())
        if (pools[p].name == ref.get<std::string>())
            return p;
    throw std::runtime_error("unknown pool " + ref.dump());
}

/// Reads a spec; a malformed spec throws (nlohmann or std::runtime_error).
Spec readSpec(const std::filesystem::path& path) {
    std::ifstream in(path);
    Json doc = Json::parse(in);
    Spec spec;
    for (const Json& p : doc.at("pools"))
        spec.pools.push_back({p.at("name").get<std::string>(), p.at("capacity").get<int64_t>()});
    for (PoolId p : spec.pools.ids())
        if (const Json& pool = doc.at("pools")[p.index()]; pool.contains("parent"))
            spec.pools[p].parent = poolRef(pool["parent"], spec.pools);
    for (const Json& r : doc.at("requests"))
        spec.requests.push_back({r.at("name").get<std::string>(), r.at("bytes").get<int64_t>(),
                                 r.at("tasks").at(0).get<int32_t>(),
                                 r.at("tasks").at(1).get<int32_t>(),
                                 poolRef(r.at("pool"), spec.pools)});
    spec.expect = doc.at("expect");
    return spec;
}

std::string poolName(const Pools& pools, PoolId p) {
    return pools[p].name;
}

/// "out1 from LB to GB at 4" for each change of pool, the requested one first.
std::vector<std::string> spillsOf(const Spec& spec, const Allocation& a) {
    std::vector<std::string> spills;
    for (RequestId r : spec.requests.ids()) {
        PoolId from = spec.requests[r].pool;
        for (const Placement& pl : a.tensors[r].placements) {
            if (pl.pool != from)
                spills.push_back(spec.requests[r].name + " from " + poolName(a.pools, from) +
                                 " to " + poolName(a.pools, pl.pool) + " at " +
                                 std::to_string(pl.fromTask));
            from = pl.pool;
        }
    }
    return spills;
}

/// "from 1 in LB at 100" for each placement of one request.
std::vector<std::string> placementsOf(const Allocation& a, RequestId r) {
    std::vector<std::string> out;
    for (const Placement& pl : a.tensors[r].placements)
        out.push_back("from " + std::to_string(pl.fromTask) + " in " + poolName(a.pools, pl.pool) +
                      " at " + std::to_string(pl.offset));
    return out;
}

/// "LB 300" for each pool listed in \p listed, with the count it lists.
std::vector<std::string> expectedPerPool(const Pools& pools, const Json& listed) {
    std::vector<std::string> out;
    for (const Pool& pool : pools)
        if (listed.contains(pool.name))
            out.push_back(pool.name + " " + std::to_string(listed[pool.name].get<int64_t>()));
    return out;
}

/// "LB 300" for each pool listed in \p listed, with its count in \p values.
template <class T>
std::vector<std::string> actualPerPool(const Pools& pools, const Json& listed,
                                       const IdVector<PoolId, T>& values) {
    std::vector<std::string> out;
    for (PoolId p : pools.ids())
        if (listed.contains(pools[p].name))
            out.push_back(pools[p].name + " " + std::to_string(values[p]));
    return out;
}

std::vector<std::string> strings(const Json& array) {
    std::vector<std::string> out;
    for (const Json& s : array)
        out.push_back(s.get<std::string>());
    return out;
}

std::vector<std::filesystem::path> specFiles() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(STAGECRAFT_ALLOC_SPECS))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

/// Everything in an allocation, for comparing two runs.
std::string describe(const Allocation& a) {
    std::string out;
    for (PoolId p : a.pools.ids())
        out += a.pools[p].name + " peak " + std::to_string(a.peakBytes[p]) + " spills " +
               std::to_string(a.spillsFrom[p]) + "\n";
    for (const TensorAllocation& t : a.tensors) {
        for (const Placement& pl : t.placements)
            out += std::to_string(pl.fromTask) + ":" + std::to_string(pl.pool.value()) + "+" +
                   std::to_string(pl.offset) + " ";
        out += "\n";
    }
    return out;
}

// --- random request sets -----------------------------------------------------

struct Case {
    Pools pools;
    Requests requests;
};

/// DDR <- GB(s) <- LBs with small capacities, so that spills are common: up
/// to \p maxRequests requests over \p tasks tasks. With \p roomyDdr the DDR
/// holds everything at once and allocation cannot fail.
Case randomCase(uint32_t seed, int64_t minRequests, int64_t maxRequests, int32_t tasks,
                bool roomyDdr) {
    std::mt19937 rng(seed);
    auto uniform = [&](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    Case c;
    c.pools.push_back({"DDR", 0, kNoPool});
    int clusters = static_cast<int>(uniform(1, 2));
    for (int g = 0; g < clusters; ++g) {
        PoolId gb = c.pools.nextId();
        c.pools.push_back({"GB" + std::to_string(g), uniform(200, 800), kDdr});
        for (int64_t l = uniform(1, 3); l > 0; --l)
            c.pools.push_back({"LB" + std::to_string(c.pools.size()), uniform(50, 300), gb});
    }
    int64_t total = 0, n = uniform(minRequests, maxRequests);
    for (int64_t i = 0; i < n; ++i) {
        int32_t first = static_cast<int32_t>(uniform(0, tasks - 1));
        int32_t length =
            static_cast<int32_t>(uniform(0, 9) == 0 ? uniform(0, tasks) : uniform(0, 4));
        int64_t bytes = uniform(0, 12) == 0 ? 0 : uniform(1, 120);
        c.requests.push_back({"t" + std::to_string(i), bytes, first, first + length,
                              PoolId::at(static_cast<size_t>(
                                  uniform(0, static_cast<int64_t>(c.pools.size()) - 1)))});
        total += bytes;
    }
    c.pools[kDdr].capacityBytes = roomyDdr ? total : uniform(100, 1000);
    return c;
}

/// Live tasks [from, until] of placement \p i of request \p r.
std::pair<int32_t, int32_t> liveTasks(const Case& c, const Allocation& a, RequestId r, size_t i) {
    const std::vector<Placement>& ps = a.tensors[r].placements;
    return {ps[i].fromTask, i + 1 < ps.size() ? ps[i + 1].fromTask - 1 : c.requests[r].lastTask};
}

/// Moves one placement onto another that is live at the same time in the same
/// pool; false when the allocation has no such pair.
bool corruptWithOverlap(const Case& c, Allocation& a, std::string& first, std::string& second) {
    for (RequestId r : a.tensors.ids())
        for (RequestId s : a.tensors.ids()) {
            if (s <= r)
                continue;
            Placement& x = a.tensors[r].placements.front();
            Placement& y = a.tensors[s].placements.front();
            auto [xFrom, xUntil] = liveTasks(c, a, r, 0);
            auto [yFrom, yUntil] = liveTasks(c, a, s, 0);
            int64_t capacity = c.pools[x.pool].capacityBytes;
            if (x.pool != y.pool || c.requests[r].bytes == 0 || c.requests[s].bytes == 0 ||
                xUntil < yFrom || yUntil < xFrom || x.offset + c.requests[s].bytes > capacity)
                continue;
            y.offset = x.offset;
            first = c.requests[r].name;
            second = c.requests[s].name;
            return true;
        }
    return false;
}

} // namespace

TEST(TestAllocation, specDirectoryHoldsTheCases) {
    ASSERT_TRUE(specFiles().size() >= 12) << STAGECRAFT_ALLOC_SPECS;
}

struct SpecsRow {
    std::string rowLabel;
    std::string path;
};

std::vector<SpecsRow> specsRows() {
    std::vector<SpecsRow> rows;
    for (const std::filesystem::path& file : specFiles())
        rows.push_back({file.stem().string().c_str(), file.string()});
    return rows;
}

class SpecsRows : public ::testing::TestWithParam<SpecsRow> {};

TEST_P(SpecsRows, specs) {
    std::string path = GetParam().path;
    Spec spec;
    try {
        spec = readSpec(path);
    } catch (const std::exception& e) {
        FAIL() << ("bad spec: " + std::string(e.what())).c_str();
    }
    Expected<Allocation> a = allocate(spec.pools, spec.requests);
    if (spec.expect.contains("error")) {
        ASSERT_TRUE(!a.ok()) << "allocation succeeded";
        ASSERT_TRUE(contains(a.error().message(), spec.expect["error"].get<std::string>()))
            << (a.error().message().c_str());
        return;
    }
    ASSERT_TRUE(a.ok()) << (a.ok() ? "" : a.error().message().c_str());
    Status valid = validateAllocation(spec.requests, *a);
    ASSERT_TRUE(valid.ok()) << (valid.error().message().c_str());
    const Json& peak = spec.expect.at("peak");
    ASSERT_EQ(peak.size(), spec.pools.size()); // every pool is listed
    ASSERT_EQ(actualPerPool(spec.pools, peak, a->peakBytes), expectedPerPool(spec.pools, peak));
    ASSERT_EQ(spillsOf(spec, *a), strings(spec.expect.at("spills")));
    Json spillsFrom = spec.expect.value("spillsFrom", Json::object());
    ASSERT_EQ(actualPerPool(spec.pools, spillsFrom, a->spillsFrom),
              expectedPerPool(spec.pools, spillsFrom));
    Json placements = spec.expect.value("placements", Json::object());
    for (const auto& [name, expected] : placements.items()) {
        auto it = std::find_if(spec.requests.begin(), spec.requests.end(),
                               [&](const AllocRequest& r) { return r.name == name; });
        ASSERT_TRUE(it != spec.requests.end()) << name.c_str();
        ASSERT_EQ(placementsOf(*a, RequestId::at(static_cast<size_t>(it - spec.requests.begin()))),
                  strings(expected));
    }
}

INSTANTIATE_TEST_SUITE_P(TestAllocation, SpecsRows, ::testing::ValuesIn(specsRows()),
                         test::RowName{});

TEST(TestAllocation, validatorNamesTaskPoolAndBothTensors) {
    Pools pools = {{"LB", 100, kDdrAbove}, {"DDR", 1000, kNoPool}};
    Requests requests = {{"a", 60, 0, 2, kLb}, {"b", 50, 1, 2, kLb}};
    Allocation a{pools, {{{{0, kLb, 0}}}, {{{1, kLb, 50}}}}, {110, 0}, {0, 0}};
    Status status = validateAllocation(requests, a);
    ASSERT_TRUE(!status.ok());
    ASSERT_EQ(status.error().message(),
              std::string("task 1, pool 'LB': tensors 'a' [0, 60) and 'b' [50, 100) overlap"));
    // The same space used one after the other is fine.
    requests[RequestId(0)].lastTask = 0;
    a.peakBytes = {100, 0};
    ASSERT_TRUE(validateAllocation(requests, a).ok());
}

TEST(TestAllocation, validatorRefusesBrokenPlacements) {
    Pools pools = {{"LB", 100, kDdrAbove}, {"DDR", 1000, kNoPool}};
    Requests requests = {{"a", 60, 0, 4, kLb}};
    auto check = [&](std::vector<Placement> ps, const std::string& expected) {
        Allocation a{pools, {{ps}}, {0, 0}, {0, 0}};
        for (const Placement& pl : ps)
            a.peakBytes[pl.pool] = pl.offset + 60;
        a.spillsFrom[kLb] = !ps.empty() && ps.back().pool == kDdrAbove ? 1 : 0;
        Status status = validateAllocation(requests, a);
        ASSERT_TRUE(!status.ok()) << expected.c_str();
        ASSERT_TRUE(contains(status.error().message(), expected))
            << (status.error().message().c_str());
    };
    check({{0, kLb, 50}}, "task 0, pool 'LB': tensor 'a' at [50, 110) exceeds its 100 bytes");
    check({{1, kLb, 0}}, "first placement at task 1, not at its first task 0");
    check({{0, kLb, 0}, {0, kDdrAbove, 0}},
          "placement at task 0 does not follow the one at task 0");
    check({{0, kLb, 0}, {5, kDdrAbove, 0}}, "placement at task 5 after its last task 4");
    check({{0, kDdrAbove, 0}, {2, kLb, 0}}, "spills at task 2 from pool 'DDR' to pool 'LB'");
    check({}, "tensor 'a' has no placement");
    Allocation a{pools, {{{{0, kLb, 0}}}}, {59, 0}, {0, 0}};
    ASSERT_TRUE(contains(validateAllocation(requests, a).error().message(),
                         "pool 'LB': peak of 59 bytes, the placements reach 60"));
    a.peakBytes = {60, 0};
    a.spillsFrom = {1, 0};
    ASSERT_TRUE(contains(validateAllocation(requests, a).error().message(),
                         "pool 'LB': 1 spills counted, the placements show 0"));
}

// The GB weight cache's room at each task (docs/simulator.md): the highest
// end offset in use there. a [0, 60) over tasks 0-1 spills at task 2 to the
// parent; b [60, 90) over tasks 1-3; c [0, 40) at task 4 only; task 5 empty.
TEST(TestAllocation, highWaterFollowsPlacementsTaskByTask) {
    Pools pools = {{"LB", 100, kDdrAbove}, {"DDR", 1000, kNoPool}};
    Requests requests = {{"a", 60, 0, 3, kLb}, {"b", 30, 1, 3, kLb}, {"c", 40, 4, 4, kLb}};
    Allocation a{pools,
                 {{{{0, kLb, 0}, {2, kDdrAbove, 0}}}, {{{1, kLb, 60}}}, {{{4, kLb, 0}}}},
                 {90, 60},
                 {1, 0}};
    ASSERT_TRUE(validateAllocation(requests, a).ok());
    ASSERT_EQ(highWaterByTask(requests, a, kLb, 6), (std::vector<int64_t>{60, 90, 90, 90, 40, 0}));
    ASSERT_EQ(highWaterByTask(requests, a, kDdrAbove, 6),
              (std::vector<int64_t>{0, 0, 60, 60, 0, 0}));
}

TEST(TestAllocation, randomRequestSetsValidate) {
    int succeeded = 0, failed = 0, spills = 0;
    for (uint32_t seed = 1; seed <= 400; ++seed) {
        Case c = randomCase(seed, 1, 120, 40, seed % 4 != 0);
        Expected<Allocation> a = allocate(c.pools, c.requests);
        if (!a.ok()) {
            ASSERT_TRUE(seed % 4 == 0) << (a.error().message().c_str()); // a roomy DDR never fails
            ASSERT_TRUE(contains(a.error().message(), "does not fit pool 'DDR'"))
                << (a.error().message().c_str());
            ++failed;
            continue;
        }
        Status valid = validateAllocation(c.requests, *a);
        ASSERT_TRUE(valid.ok())
            << ((std::to_string(seed) + ": " + valid.error().message()).c_str());
        Expected<Allocation> again = allocate(c.pools, c.requests);
        ASSERT_TRUE(again.ok());
        ASSERT_EQ(describe(*again), describe(*a));
        for (int32_t n : a->spillsFrom)
            spills += n;
        ++succeeded;
    }
    ASSERT_TRUE(succeeded > 300);
    ASSERT_TRUE(failed > 0);
    ASSERT_TRUE(spills > 1000); // the request sets do exercise spilling
}

TEST(TestAllocation, validatorCatchesCorruptedAllocations) {
    int overlaps = 0, named = 0, parents = 0;
    for (uint32_t seed = 1; seed <= 200; ++seed) {
        Case c = randomCase(seed, 1, 60, 20, true);
        Expected<Allocation> a = allocate(c.pools, c.requests);
        ASSERT_TRUE(a.ok());
        Allocation bad = *a;
        std::string x, y;
        if (corruptWithOverlap(c, bad, x, y)) {
            std::string message = validateAllocation(c.requests, bad).error().message();
            // y is in every overlap; x unless y now also overlaps another.
            ASSERT_TRUE(contains(message, "overlap") && contains(message, "'" + y + "'"))
                << message.c_str();
            named += contains(message, "'" + x + "'");
            ++overlaps;
        }
        auto nonEmpty = std::find_if(c.requests.begin(), c.requests.end(),
                                     [](const AllocRequest& r) { return r.bytes > 0; });
        if (nonEmpty != c.requests.end()) {
            RequestId r = RequestId::at(static_cast<size_t>(nonEmpty - c.requests.begin()));
            bad = *a;
            Placement& last = bad.tensors[r].placements.back();
            last.offset = c.pools[last.pool].capacityBytes - c.requests[r].bytes + 1;
            ASSERT_TRUE(contains(validateAllocation(c.requests, bad).error().message(), "exceeds"));
        }
        auto spilled = std::find_if(a->tensors.begin(), a->tensors.end(),
                                    [](const TensorAllocation& t) { return t.spilled(); });
        if (spilled != a->tensors.end()) {
            bad = *a;
            std::vector<Placement>& ps =
                bad.tensors[RequestId::at(static_cast<size_t>(spilled - a->tensors.begin()))]
                    .placements;
            ps[1].pool = ps[0].pool; // a spill that stays in place
            ASSERT_TRUE(contains(validateAllocation(c.requests, bad).error().message(),
                                 "which is not above it"));
            ++parents;
        }
    }
    ASSERT_TRUE(overlaps > 150);
    ASSERT_TRUE(named > overlaps / 2);
    ASSERT_TRUE(parents > 20);
}

TEST(TestAllocation, largeModelSizeIsFast) {
    // ~100k requests over 50k tasks: a quadratic sweep would take minutes.
    Case c = randomCase(7, 100000, 100000, 50000, true);
    test::ElapsedTimer timer;
    timer.start();
    Expected<Allocation> a = allocate(c.pools, c.requests);
    ASSERT_TRUE(a.ok());
    long long allocateMs = timer.restart();
    Status valid = validateAllocation(c.requests, *a);
    ASSERT_TRUE(valid.ok()) << (valid.error().message().c_str());
    test::info("allocate %lld ms, validate %lld ms", allocateMs, timer.elapsed());
    ASSERT_TRUE(allocateMs + timer.elapsed() < 30000);
}
