// Typed ids and the vectors indexed by them (support/id.h), and the divisors
// helper: what the schedule, the allocator and the views rely on.

#include "support/divisors.h"
#include "support/id.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

using namespace stagecraft;

namespace {

using AppleId = Id<struct AppleTag>;
using PearId = Id<struct PearTag>;

TEST(TestIds, KindsDoNotMixAndIntegersNeedSpelling) {
    static_assert(!std::is_convertible_v<int32_t, AppleId>);
    static_assert(!std::is_convertible_v<AppleId, int32_t>);
    static_assert(!std::is_convertible_v<AppleId, PearId>);
    static_assert(!std::is_constructible_v<PearId, AppleId>);
    static_assert(sizeof(AppleId) == sizeof(int32_t));
    EXPECT_EQ(AppleId().value(), 0);
    EXPECT_EQ(AppleId(7).index(), size_t{7});
    EXPECT_EQ(AppleId::at(5), AppleId(5));
    EXPECT_LT(AppleId(-1), AppleId(0));
    std::ostringstream out;
    out << AppleId(42);
    EXPECT_EQ(out.str(), "42");
    std::unordered_set<AppleId> seen{AppleId(1), AppleId(2), AppleId(1)};
    EXPECT_EQ(seen.size(), size_t{2});
}

TEST(TestIds, VectorIsReachedByItsKindOfId) {
    IdVector<AppleId, std::string> names{"a1", "a2"};
    EXPECT_EQ(names.nextId(), AppleId(2));
    names.push_back("a3");
    EXPECT_EQ(names[AppleId(2)], "a3");
    names[AppleId(0)] = "first";
    EXPECT_EQ(names.values(), (std::vector<std::string>{"first", "a2", "a3"}));
    EXPECT_TRUE(names.contains(AppleId(2)));
    EXPECT_FALSE(names.contains(AppleId(3)));
    EXPECT_FALSE(names.contains(AppleId(-1)));
    std::vector<AppleId> ids(names.ids().begin(), names.ids().end());
    EXPECT_EQ(ids, (std::vector<AppleId>{AppleId(0), AppleId(1), AppleId(2)}));
    IdVector<AppleId, bool> flags(3, false);
    flags[AppleId(1)] = true;
    EXPECT_EQ(flags.values(), (std::vector<bool>{false, true, false}));
    const IdVector<PearId, int> none;
    EXPECT_EQ(none.ids().size(), size_t{0});
}

TEST(TestIds, DivisorsAscending) {
    EXPECT_EQ(divisors(12), (std::vector<int64_t>{1, 2, 3, 4, 6, 12}));
    EXPECT_EQ(divisors(49), (std::vector<int64_t>{1, 7, 49}));
    EXPECT_EQ(divisors(1), (std::vector<int64_t>{1}));
    EXPECT_TRUE(divisors(0).empty());
    EXPECT_TRUE(divisors(-4).empty());
    EXPECT_EQ(divisors(int64_t{1} << 40).size(), size_t{41});
}

} // namespace
