// Data parallelism across clusters (§2.1, §5.1): the per-cluster candidates
// `auto` tries and the cluster plan, including inputs whose product would
// overflow (UBSan in the asan preset would report an overflow).

#include "coretestsupport.h"
#include "schedule/clusters.h"

#include <gtest/gtest.h>
#include <limits>

using namespace stagecraft;
using namespace stagecraft::schedule;

TEST(TestClusters, candidatesAreTheDivisorsOfTheShareLargestFirst) {
    ASSERT_EQ(perClusterCandidates(64, 4), (std::vector<int64_t>{16, 8, 4, 2, 1}));
    ASSERT_EQ(perClusterCandidates(12, 2), (std::vector<int64_t>{6, 3, 2, 1}));
    ASSERT_TRUE(perClusterCandidates(10, 4).empty()); // 10 does not split over 4 clusters
    ASSERT_TRUE(perClusterCandidates(0, 4).empty());
}

TEST(TestClusters, planCountsIterations) {
    auto plan = makeClusterPlan(128, 4, 16);
    ASSERT_TRUE(plan.ok());
    ASSERT_EQ(plan->iterations, int64_t{2});
    ASSERT_EQ(plan->clusters * plan->perCluster * plan->iterations, plan->totalBatch);
}

TEST(TestClusters, planRefusesWhatDoesNotDivide) {
    auto plan = makeClusterPlan(100, 4, 8);
    ASSERT_TRUE(!plan.ok());
    ASSERT_TRUE(plan.error().message().find("does not divide into 4 clusters x 8") !=
                std::string::npos)
        << (plan.error().message().c_str());
    ASSERT_TRUE(!makeClusterPlan(16, 0, 1).ok());
    ASSERT_TRUE(!makeClusterPlan(16, 4, 0).ok());
}

TEST(TestClusters, planRefusesHugeFactorsWithoutOverflow) {
    constexpr int64_t huge = std::numeric_limits<int64_t>::max() / 2;
    ASSERT_TRUE(!makeClusterPlan(64, 4, huge).ok());
    ASSERT_TRUE(!makeClusterPlan(huge, huge, huge).ok());
}
