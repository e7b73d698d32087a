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
