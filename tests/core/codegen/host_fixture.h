#pragma once
// What the suites that run emitted kernels share (they link
// stagecraft_host_run): a planned model emitted for the host, loaded and run.

#include "codegen/host_run.h"
#include "codegen_fixture.h"
#include "coretestsupport.h"

namespace stagecraft::test {

/// The kernels of \p planned emitted for the host (two threads, O2, the
/// process's object cache; for CPU \p cpu, default this machine's), loaded
/// and run on \p inputs; the error says which step failed.
inline Expected<codegen::TensorSet>
runOnHost(const Planned& planned, const codegen::TensorSet& inputs, const std::string& cpu = "") {
    SC_ASSIGN_OR_RETURN(
        auto program,
        codegen::emitProgram(planned.graph, *planned.evaluation.schedule.semantics, planned.plan,
                             {codegen::Target::Host, 2, 0, false, processObjectCache(), cpu}));
    SC_ASSIGN_OR_RETURN(auto host,
                        codegen::HostProgram::load(planned.graph, planned.plan, program));
    return host->run(inputs);
}

} // namespace stagecraft::test
