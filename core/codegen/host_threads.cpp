// The host runner's threads: how a thread waits (a short spin, then a
// futex), the barrier a kernel's cores meet at (sc_barrier, and the runner
// between layers) and the pool of helper threads made once per program that
// runs a kernel's cores beside the calling thread. Which cores each thread
// takes is the runner's (host_run.cpp).

#include "codegen/internal/host_threads.h"

#include "codegen/cpu_pinning.h"

#include <algorithm>
#include <chrono>
#include <sched.h>

namespace stagecraft::codegen::detail {

namespace {

/// How a thread waits: a few rounds of `pause`, then yielding its CPU for up
/// to kSpinTime, then sleeping on a futex. The runner never has more threads
/// than CPUs, and waking a sleeping thread costs more (a virtual CPU halted,
/// then woken): PP-OCRv4 rec on two threads took 9.6 ms sleeping at once,
/// 6.0 ms spinning first. The yield matters where the guest's scheduler
/// packs runnable threads onto one virtual CPU (this VM's `sched_vcpu_pack`):
/// a thread that only paused held the CPU the thread it waited for needed,
/// for its whole spin (~0.4 ms per wait, docs/decisions.md "Host threads").
constexpr int kPauseRounds = 256;
constexpr auto kSpinTime = std::chrono::microseconds(200);

void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/// Spins until \p ready() or kSpinTime passes; whether it is ready.
template <class Ready>
bool spinUntil(const Ready& ready) {
    for (int i = 0; i < kPauseRounds; ++i) {
        if (ready())
            return true;
        pause();
    }
    const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
    while (std::chrono::steady_clock::now() < deadline) {
        if (ready())
            return true;
        sched_yield();
    }
    return ready();
}

} // namespace

void Barrier::wait() {
    const uint32_t generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
        arrived_.store(0, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_release);
        generation_.notify_all();
        return;
    }
    auto released = [&] {
        return generation_.load(std::memory_order_acquire) != generation;
    };
    if (spinUntil(released))
        return;
    while (!released())
        generation_.wait(generation, std::memory_order_acquire);
}

CorePool::CorePool(int64_t helpers)
    : helpers_(static_cast<size_t>(helpers))
    , cpus_(allowedCpus()) {
    // Each helper is held on its CPU as it is made: a helper pinning itself
    // when it first ran stayed unpinned on a busy machine until then.
    for (size_t i = 0; i < helpers_.size(); ++i) {
        helpers_[i].thread = std::thread([this, i] { serve(i); });
        pinThread(helpers_[i].thread, cpus_, i + 1);
    }
}

CorePool::~CorePool() {
    stop_ = true;
    for (Helper& h : helpers_)
        h.wake.release();
    for (Helper& h : helpers_)
        h.thread.join();
}

void CorePool::run(const std::function<void(int64_t)>& job, int64_t count) {
    job_ = &job;
    running_.store(static_cast<int32_t>(count - 1), std::memory_order_release);
    for (int64_t i = 1; i < count; ++i)
        helpers_[static_cast<size_t>(i - 1)].wake.release();
    job(0);
    if (spinUntil([&] { return running_.load(std::memory_order_acquire) == 0; }))
        return;
    for (int32_t left = running_.load(std::memory_order_acquire); left != 0;
         left = running_.load(std::memory_order_acquire))
        running_.wait(left, std::memory_order_acquire);
}

void CorePool::serve(size_t index) {
    while (true) {
        if (!spinUntil([&] { return helpers_[index].wake.try_acquire(); }))
            helpers_[index].wake.acquire();
        if (stop_)
            return;
        (*job_)(static_cast<int64_t>(index) + 1);
        if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1)
            running_.notify_one();
    }
}

} // namespace stagecraft::codegen::detail
