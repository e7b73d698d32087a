// Threads held on CPUs (core/codegen/cpu_pinning.h): while a program runs,
// the caller holds one CPU and gets its own affinity back afterwards, and
// the runner's helper threads each hold a CPU of their own (a program of
// zoo:fig2-blocks planned for stcp920, whose kernels take several cores).

#include "codegen/cpu_pinning.h"
#include "codegen/tensors.h"
#include "host_fixture.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <sched.h>
#include <set>
#include <string>
#include <unistd.h>

using namespace stagecraft;
using codegen::allowedCpus;

namespace {

cpu_set_t affinityOf(pid_t thread) {
    cpu_set_t set;
    CPU_ZERO(&set);
    EXPECT_EQ(sched_getaffinity(thread, sizeof set, &set), 0);
    return set;
}

/// The CPU each other thread of this process is held on, for those held on
/// one.
std::multiset<int> cpusOfOtherPinnedThreads() {
    std::multiset<int> cpus;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
        pid_t tid = std::stoi(entry.path().filename().string());
        if (tid == gettid())
            continue;
        cpu_set_t set = affinityOf(tid);
        if (CPU_COUNT(&set) == 1)
            for (int cpu : allowedCpus())
                if (CPU_ISSET(cpu, &set))
                    cpus.insert(cpu);
    }
    return cpus;
}

} // namespace

TEST(HostThreads, theCallerHoldsOneCpuForTheRunAndGetsItsOwnBack) {
    if (allowedCpus().size() < 2)
        GTEST_SKIP() << "one CPU: nothing to pin";
    const cpu_set_t before = affinityOf(0);
    const int first = allowedCpus().front();
    {
        codegen::PinnedCaller pinned;
        const cpu_set_t during = affinityOf(0);
        EXPECT_EQ(CPU_COUNT(&during), 1);
        EXPECT_TRUE(CPU_ISSET(first, &during));
    }
    const cpu_set_t after = affinityOf(0);
    EXPECT_TRUE(CPU_EQUAL(&before, &after)) << "the caller's affinity is not given back";
}

TEST(HostThreads, aThreadHeldToOneCpuIsLeftAlone) {
    const cpu_set_t before = affinityOf(0);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(allowedCpus().front(), &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    {
        codegen::PinnedCaller pinned;
        const cpu_set_t during = affinityOf(0);
        EXPECT_TRUE(CPU_EQUAL(&one, &during));
    }
    ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
}

TEST(HostThreads, aProgramsHelperHoldsTheNextCpu) {
    const std::vector<int> cpus = allowedCpus();
    if (cpus.size() < 2)
        GTEST_SKIP() << "one CPU: the program runs on one thread";
    test::TempDir dir;
    ASSERT_TRUE(dir.isValid());
    auto planned = test::plan(test::writeZoo(dir.path(), "fig2-blocks"), "stcp920", "tvm");
    ASSERT_TRUE(planned.ok()) << planned.error().message();
    const std::multiset<int> already = cpusOfOtherPinnedThreads();
    auto inputs = codegen::seededInputs((*planned)->graph);
    ASSERT_TRUE(inputs.ok());
    auto program = codegen::emitProgram(
        (*planned)->graph, *(*planned)->evaluation.schedule.semantics, (*planned)->plan,
        {codegen::Target::Host, 2, 0, false, test::processObjectCache()});
    ASSERT_TRUE(program.ok()) << program.error().message();
    auto host = codegen::HostProgram::load((*planned)->graph, (*planned)->plan, *program);
    ASSERT_TRUE(host.ok()) << host.error().message();
    const cpu_set_t before = affinityOf(0);
    ASSERT_TRUE((*host)->run(*inputs).ok());
    const std::multiset<int> now = cpusOfOtherPinnedThreads();
    EXPECT_EQ(now.count(cpus[1]), already.count(cpus[1]) + 1)
        << "no helper thread of the program holds CPU " << cpus[1];
    const cpu_set_t after = affinityOf(0);
    EXPECT_TRUE(CPU_EQUAL(&before, &after)) << "the run leaves the caller pinned";
}
