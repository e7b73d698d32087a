// Data parallelism across clusters (§2.1, §5.1): the per-cluster candidates
// `auto` tries and the cluster plan, including inputs whose product would
// overflow (UBSan in the asan preset would report an overflow).

#include "schedule/clusters.h"

#include <QtTest>

#include <limits>

using namespace stagecraft;
using namespace stagecraft::schedule;

class TestClusters : public QObject {
    Q_OBJECT
private slots:
    void candidatesAreTheDivisorsOfTheShareLargestFirst() {
        QCOMPARE(perClusterCandidates(64, 4), (std::vector<int64_t>{16, 8, 4, 2, 1}));
        QCOMPARE(perClusterCandidates(12, 2), (std::vector<int64_t>{6, 3, 2, 1}));
        QVERIFY(perClusterCandidates(10, 4).empty()); // 10 does not split over 4 clusters
        QVERIFY(perClusterCandidates(0, 4).empty());
    }

    void planCountsIterations() {
        auto plan = makeClusterPlan(128, 4, 16);
        QVERIFY(plan.ok());
        QCOMPARE(plan->iterations, int64_t{2});
        QCOMPARE(plan->clusters * plan->perCluster * plan->iterations, plan->totalBatch);
    }

    void planRefusesWhatDoesNotDivide() {
        auto plan = makeClusterPlan(100, 4, 8);
        QVERIFY(!plan.ok());
        QVERIFY2(plan.error().message().find("does not divide into 4 clusters x 8") !=
                     std::string::npos,
                 plan.error().message().c_str());
        QVERIFY(!makeClusterPlan(16, 0, 1).ok());
        QVERIFY(!makeClusterPlan(16, 4, 0).ok());
    }

    void planRefusesHugeFactorsWithoutOverflow() {
        constexpr int64_t huge = std::numeric_limits<int64_t>::max() / 2;
        QVERIFY(!makeClusterPlan(64, 4, huge).ok());
        QVERIFY(!makeClusterPlan(huge, huge, huge).ok());
    }
};

QTEST_GUILESS_MAIN(TestClusters)
#include "test_clusters.moc"
