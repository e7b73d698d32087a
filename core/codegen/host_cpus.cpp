// The CPUs the in-process host runner may use, and the threads it gives
// each kernel from them (code_plan.h: hostUsableCpus, runOnThisHost).

#include "codegen/code_plan.h"

#include <algorithm>
#include <sched.h>
#include <thread>

namespace stagecraft::codegen {

int64_t hostUsableCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    return std::max<int64_t>(1, std::thread::hardware_concurrency());
}

void runOnThisHost(CodePlan& plan) {
    for (KernelCode& k : plan.kernels)
        k.hostThreads = std::min(k.cores, hostUsableCpus());
}

} // namespace stagecraft::codegen
