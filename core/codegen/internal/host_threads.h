#pragma once
// Internal to core/codegen: the host runner's threads (host_threads.cpp), the
// barrier a kernel's cores meet at and the pool of threads that runs them,
// shared by loading (host_load.cpp) and running (host_run.cpp).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <semaphore>
#include <thread>
#include <vector>

namespace stagecraft::codegen::detail {

/// A reusable barrier for the cores of one kernel: the last core to arrive
/// starts the next generation and wakes the others, who spin, then wait on
/// the generation's word (a futex), with no lock to contend for afterwards.
class Barrier {
public:
    explicit Barrier(int64_t count)
        : count_(count) {}
    void wait();

private:
    std::atomic<int64_t> arrived_{0};
    std::atomic<uint32_t> generation_{0};
    int64_t count_;
};

/// Threads that stand for the cores of the widest binding but the first:
/// run() runs core 0 of a job on the calling thread and wakes just the
/// helpers the job needs (one semaphore each), then waits for them.
class CorePool {
public:
    explicit CorePool(int64_t helpers);
    ~CorePool();

    /// Runs job(0) .. job(count - 1) at once; count - 1 <= helpers.
    void run(const std::function<void(int64_t)>& job, int64_t count);

private:
    struct Helper {
        std::thread thread;
        std::binary_semaphore wake{0};
    };

    void serve(size_t index);

    std::vector<Helper> helpers_;
    /// The CPUs allowed when the pool was made; helper i holds the
    /// (i + 1)-th while the pool lives (none where there is one,
    /// cpu_pinning.h).
    std::vector<int> cpus_;
    const std::function<void(int64_t)>* job_ = nullptr;
    /// Helpers still running the job (a futex word).
    std::atomic<int32_t> running_{0};
    std::atomic<bool> stop_{false};
};

} // namespace stagecraft::codegen::detail
