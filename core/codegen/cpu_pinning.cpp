// Threads held on CPUs (cpu_pinning.h), with sched_setaffinity.

#include "codegen/cpu_pinning.h"

#include <pthread.h>
#include <sched.h>

namespace stagecraft::codegen {

std::vector<int> allowedCpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &set))
                cpus.push_back(cpu);
    return cpus;
}

bool pinThisThread(const std::vector<int>& cpus, size_t index) {
    if (cpus.size() < 2)
        return false;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus[index % cpus.size()], &one);
    return sched_setaffinity(0, sizeof one, &one) == 0;
}

bool pinThread(std::thread& thread, const std::vector<int>& cpus, size_t index) {
    if (cpus.size() < 2)
        return false;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus[index % cpus.size()], &one);
    return pthread_setaffinity_np(thread.native_handle(), sizeof one, &one) == 0;
}

PinnedCaller::PinnedCaller() {
    static_assert(sizeof(cpu_set_t) <= sizeof saved_);
    auto* saved = reinterpret_cast<cpu_set_t*>(saved_);
    if (sched_getaffinity(0, sizeof(cpu_set_t), saved) == 0)
        pinned_ = pinThisThread(allowedCpus(), 0);
}

PinnedCaller::~PinnedCaller() {
    if (pinned_)
        sched_setaffinity(0, sizeof(cpu_set_t), reinterpret_cast<const cpu_set_t*>(saved_));
}

} // namespace stagecraft::codegen
