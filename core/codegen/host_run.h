#pragma once
/// \file
/// Host execution of emitted kernels (docs/codegen.md): the host objects are
/// linked in process by LLVM's ORC JIT, the model's real weights are read
/// from the graph (Tensor::data), and the kernels run in schedule order;
/// each kernel runs on as many threads as its instance has cores in its
/// binding, each thread with its core id, meeting at sc_barrier between
/// layers. Used to prove the kernels compute what ONNX Runtime computes.

#include "codegen/codegen.h"
#include "codegen/tensors.h"

#include <memory>

namespace stagecraft::codegen {

struct HostRunStats {
    /// Wall time of the last run, and per kernel (same order as the plan).
    double seconds = 0;
    std::vector<double> kernelSeconds;
};

/// An error when running \p plan would allocate more than the memory cap
/// (support/limits.h): the buffers of every slot that is not a weight, the
/// arena and scratch of the widest kernel, and weights computed at first read
/// (folded constants, twice: their inputs are copied). HostProgram::load
/// checks it; a front end may check it before compiling.
Status checkRunMemory(const ir::Graph& graph, const CodePlan& plan);

/// What the host runner's own machinery costs, in ns (medians): calling a
/// kernel on the calling thread, starting one bound to \p cores cores on the
/// threads the runner gives it (one per core up to this process's CPUs; the
/// pool's helpers woken and joined), and one barrier among them, where the
/// runner meets between layers. Calibration measures the launch and sync
/// overheads of the host with it.
struct RuntimeCosts {
    double callNs = 0;
    double startNs = 0;
    double barrierNs = 0;
};
RuntimeCosts measureRuntimeCosts(int64_t cores, int repetitions = 2000);

class HostProgram {
public:
    /// Links the host objects of \p program. \p graph and \p plan must
    /// outlive the HostProgram. Fails when \p program was not emitted for
    /// the host, an object does not link, or a weight cannot be read.
    static Expected<std::unique_ptr<HostProgram>> load(const ir::Graph& graph, const CodePlan& plan,
                                                       const EmittedProgram& program);
    ~HostProgram();
    HostProgram(const HostProgram&) = delete;
    HostProgram& operator=(const HostProgram&) = delete;

    /// Runs every kernel on \p inputs (matched to the graph's inputs by name)
    /// and returns the graph's outputs in graph order.
    Expected<TensorSet> run(const TensorSet& inputs, HostRunStats* stats = nullptr);

private:
    struct Impl;
    explicit HostProgram(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace stagecraft::codegen
