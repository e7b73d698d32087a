#pragma once
/// \file
/// The stagecraft subcommands. Each takes its arguments (after the subcommand
/// name), writes results to \p out and one-line errors to \p err, and returns
/// an ExitCode (0 ok, 1 bad input, 2 bad usage).

#include <iosfwd>
#include <string>
#include <vector>

namespace stagecraft::cli {

using Args = std::vector<std::string>;

int runInspect(const Args& args, std::ostream& out, std::ostream& err);
int runArch(const Args& args, std::ostream& out, std::ostream& err);
/// `stagecraft arch calibrate` (runArch hands over when its first argument is "calibrate").
int runArchCalibrate(const Args& args, std::ostream& out, std::ostream& err);
int runZoo(const Args& args, std::ostream& out, std::ostream& err);
int runSchedule(const Args& args, std::ostream& out, std::ostream& err);
int runCompare(const Args& args, std::ostream& out, std::ostream& err);
int runReport(const Args& args, std::ostream& out, std::ostream& err);
int runEmit(const Args& args, std::ostream& out, std::ostream& err);
int runRun(const Args& args, std::ostream& out, std::ostream& err);
int runFidelity(const Args& args, std::ostream& out, std::ostream& err);
int runSweep(const Args& args, std::ostream& out, std::ostream& err);
int runCache(const Args& args, std::ostream& out, std::ostream& err);

} // namespace stagecraft::cli
