// stagecraft: the command-line front end over the Qt-free core.

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/terminal_text.h"
#include "support/limits.h"

#include <cstring>
#include <iostream>

namespace {

using namespace stagecraft::cli;

struct Command {
    const char* name;
    int (*run)(const Args&, std::ostream&, std::ostream&);
    const char* summary;
};

constexpr Command kCommands[] = {
    {"inspect", runInspect, "summarize an ONNX model: ops, tensors, params, MACs, shapes"},
    {"arch", runArch, "list or print accelerator (DSA) descriptions"},
    {"zoo", runZoo, "write the built-in models (ResNet-50, BERT, ... and the paper's figures)"},
    {"schedule", runSchedule, "schedule a model onto an accelerator (GraphTurbo §3)"},
    {"compare", runCompare, "simulate every strategy (tvm, astitch, GraphTurbo variants) (§5)"},
    {"report", runReport, "write one self-contained HTML report of every strategy on a model"},
    {"emit", runEmit, "emit the kernels through LLVM for the DSA's RISC-V cores or the host (§4)"},
    {"run", runRun, "run a model on this host with the emitted kernels"},
    {"fidelity", runFidelity, "compare simulated with measured kernel times on this host"},
    {"sweep", runSweep, "schedule and simulate every point of a design-space sweep"},
    {"cache", runCache, "show or clear what Stagecraft keeps in the user's cache directory"},
};

void printUsage(std::ostream& out) {
    out << "usage: stagecraft COMMAND [options]\n\n"
           "Stagecraft shows how a deep-learning model is scheduled onto a domain-specific\n"
           "accelerator (GraphTurbo and the systems it is measured against).\n\ncommands:\n";
    for (const Command& command : kCommands)
        out << "  " << command.name << std::string(10 - std::strlen(command.name), ' ')
            << command.summary << "\n";
    out << "\nRun 'stagecraft COMMAND --help' for the options of a command.\n"
           "Exit codes: 0 ok, 1 bad input, 2 bad usage.\n";
}

} // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    TerminalGuard terminal;
    if (argc < 2) {
        printUsage(std::cerr);
        return kExitBadUsage;
    }
    std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        printUsage(std::cout);
        return kExitOk;
    }
    if (name == "--version") {
        std::cout << "stagecraft " STAGECRAFT_VERSION "\n";
        return kExitOk;
    }
    if (stagecraft::Status cap = stagecraft::memoryCapSetting(); !cap.ok()) {
        std::cerr << "stagecraft: " << cap.error().message() << "\n";
        return kExitBadUsage;
    }
    Args args(argv + 2, argv + argc);
    for (const Command& command : kCommands)
        if (name == command.name) {
            int code = command.run(args, std::cout, std::cerr);
            std::cout.flush();
            return code;
        }
    std::cerr << "stagecraft: unknown command '" << name << "' (see 'stagecraft --help')\n";
    return kExitBadUsage;
}
