// The host runner's threads (core/codegen/internal/host_threads.h): while a
// program runs, its threads stay each on a CPU of their own, and the caller
// gets its own affinity back afterwards.

#include "codegen/internal/host_threads.h"

#include <gtest/gtest.h>
#include <sched.h>

using namespace stagecraft::codegen::detail;

namespace {

cpu_set_t affinityOfThisThread() {
    cpu_set_t set;
    CPU_ZERO(&set);
    EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
    return set;
}

} // namespace

TEST(HostThreads, eachThreadHoldsACpuOfItsOwnWhileTheProgramRuns) {
    if (allowedCpus().size() < 2)
        GTEST_SKIP() << "one CPU: nothing to pin";
    const cpu_set_t before = affinityOfThisThread();
    CorePool pool(1);
    cpu_set_t during[2];
    {
        PinnedCaller pinned;
        pool.run([&](int64_t thread) { during[thread] = affinityOfThisThread(); }, 2);
    }
    for (const cpu_set_t& set : during)
        EXPECT_EQ(CPU_COUNT(&set), 1);
    cpu_set_t both;
    CPU_OR(&both, &during[0], &during[1]);
    EXPECT_EQ(CPU_COUNT(&both), 2) << "the two threads share a CPU";
    const cpu_set_t after = affinityOfThisThread();
    EXPECT_TRUE(CPU_EQUAL(&before, &after)) << "the caller's affinity is not given back";
}

TEST(HostThreads, aProcessHeldToOneCpuIsLeftAlone) {
    const cpu_set_t before = affinityOfThisThread();
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(allowedCpus().front(), &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    {
        PinnedCaller pinned;
        const cpu_set_t during = affinityOfThisThread();
        EXPECT_TRUE(CPU_EQUAL(&one, &during));
    }
    ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
}
