// The batch a run uses (driver/batch_plan.h), one implementation for the CLI
// and Studio: the plan divides the total over the clusters or says why not,
// a zoo model is loaded at the samples per cluster asked and a file's fixed
// batch refuses another, and `auto` tries the candidates largest first,
// keeping the first whose working set fits a cluster.

#include "coretestsupport.h"
#include "driver/batch_plan.h"
#include "sim_fixture.h"
#include "zoo/zoo.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace stagecraft;
using namespace stagecraft::test;

namespace {

driver::ModelSpec zooSpec(const std::string& name) {
    driver::ModelSpec spec;
    spec.text = "zoo:" + name;
    spec.zooName = name;
    return spec;
}

template <class T>
std::string errorOf(const Expected<T>& result) {
    return result.ok() ? std::string("(no error)") : result.error().message();
}

} // namespace

TEST(TestBatchPlan, thePlanDividesTheTotalOverTheClusters) {
    arch::Arch four = preset("stcp920");
    ASSERT_EQ(four.clusters, 4);
    auto plan = driver::clusterPlanFor({64, 16, false}, 16, four, driver::kChosenGiven);
    ASSERT_TRUE(plan.ok()) << errorOf(plan);
    ASSERT_EQ(plan->totalBatch, 64);
    ASSERT_EQ(plan->perCluster, 16);
    ASSERT_EQ(plan->iterations, 1);
    ASSERT_EQ(plan->chosenBy, "given");
    auto twice = driver::clusterPlanFor({64, 8, false}, 8, four, driver::kChosenGiven);
    ASSERT_TRUE(twice.ok() && twice->iterations == 2);
    auto byDefault = driver::clusterPlanFor({}, 3, four, driver::kChosenByModel);
    ASSERT_TRUE(byDefault.ok() && byDefault->totalBatch == 12);
    auto uneven = driver::clusterPlanFor({10, 2, false}, 2, four, driver::kChosenGiven);
    ASSERT_NE(errorOf(uneven).find("does not divide"), std::string::npos);
    auto tooMany = driver::clusterPlanFor({8, 4, false}, 4, four, driver::kChosenGiven);
    ASSERT_NE(errorOf(tooMany).find("a batch of 8 does not divide into 4 clusters x 4"),
              std::string::npos);
}

TEST(TestBatchPlan, aZooModelIsLoadedAtTheSamplesPerCluster) {
    const arch::Arch arch = preset("teaching");
    auto given = driver::loadAtBatch(zooSpec("fig3-chain"), {16, 4, false}, arch);
    ASSERT_TRUE(given.ok()) << errorOf(given);
    ASSERT_EQ(driver::perClusterBatch(given->model.graph), 4);
    ASSERT_EQ(given->clusters.perCluster, 4);
    ASSERT_EQ(given->clusters.iterations, 16 / (arch.clusters * 4));
    auto model = driver::loadAtBatch(zooSpec("fig3-chain"), {}, arch);
    ASSERT_TRUE(model.ok()) << errorOf(model);
    ASSERT_EQ(model->clusters.perCluster, zoo::findZooModel("fig3-chain")->defaultBatch);
    ASSERT_EQ(model->clusters.chosenBy, "model");
}

TEST(TestBatchPlan, aFilesFixedBatchRefusesAnother) {
    test::TempDir dir;
    std::string path = dir.filePath("f3.onnx");
    zoo::ZooOptions options;
    options.batch = 8;
    ASSERT_TRUE(zoo::writeZooModel("fig3-chain", options, path).ok());
    driver::ModelSpec spec;
    spec.text = path;
    auto refused = driver::loadAtBatch(spec, {std::nullopt, 2, false}, preset("teaching"));
    ASSERT_NE(errorOf(refused).find("the model's batch is fixed to 8"), std::string::npos)
        << errorOf(refused);
    auto own = driver::loadAtBatch(spec, {}, preset("teaching"));
    ASSERT_TRUE(own.ok() && own->clusters.perCluster == 8) << errorOf(own);
}

TEST(TestBatchPlan, autoKeepsTheLargestCandidateThatFits) {
    driver::Request run;
    run.arch = preset("teaching");
    run.recordTrace = false;
    std::vector<std::string> notes;
    auto note = [&](const std::string& line) {
        notes.push_back(line);
    };
    schedule::BatchChoice choice{64, std::nullopt, true};
    auto picked = driver::scheduleAtBatch(zooSpec("fig3-chain"), choice, run, note);
    ASSERT_TRUE(picked.ok()) << errorOf(picked);
    const int64_t k = picked->at.clusters.perCluster;
    ASSERT_EQ(driver::perClusterBatch(picked->at.model.graph), k);
    ASSERT_EQ(picked->at.clusters.chosenBy, "auto (footprint)");
    std::vector<int64_t> candidates = schedule::perClusterCandidates(64, run.arch.clusters);
    ASSERT_FALSE(notes.empty());
    // One line per candidate tried, largest first, up to the one kept.
    for (size_t i = 0; i < notes.size() && i < candidates.size(); ++i) {
        ASSERT_EQ(notes[i].rfind("per-cluster " + std::to_string(candidates[i]) + ":", 0), 0u)
            << notes[i];
    }
    const bool fits =
        schedule::fitsCluster(picked->at.model.graph, run.arch, picked->planned.schedule);
    if (fits) {
        ASSERT_NE(notes.back().find("fits a cluster"), std::string::npos) << notes.back();
    }
    for (size_t i = 0; i + 1 < notes.size(); ++i) {
        ASSERT_NE(notes[i].find("does not fit"), std::string::npos) << notes[i];
    }

    auto noTotal = driver::scheduleAtBatch(zooSpec("fig3-chain"),
                                           {std::nullopt, std::nullopt, true}, run, note);
    ASSERT_NE(errorOf(noTotal).find("needs a total batch"), std::string::npos);
}
