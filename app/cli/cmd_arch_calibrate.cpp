// stagecraft arch calibrate: measures this machine and writes the host-cpu
// description the simulator then uses (core/calibrate, docs/simulator.md,
// "Fidelity").

#include "arch/arch_json.h"
#include "arch/host_cpu.h"
#include "calibrate/calibrate.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/output_paths.h"
#include "support/file.h"
#include "support/private_dir.h"
#include "support/strings.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <ostream>

namespace stagecraft::cli {

namespace {

constexpr const char* kName = "stagecraft arch calibrate: ";

ArgParser makeParser() {
    ArgParser parser(
        "stagecraft arch calibrate [--out FILE]",
        "Measures this machine for the host-cpu architecture: logical CPUs and caches\n"
        "(sysfs), streaming bandwidth of the last-level cache and of DRAM, vector\n"
        "multiply-add throughput per dtype, the host runner's launch and barrier costs,\n"
        "and the efficiency of generated kernels per op family, fitted over a training\n"
        "set of eleven single-op kernels. Writes a valid architecture file: by default the\n"
        "calibration host-cpu then uses (" +
            arch::calibrationPath().string() + ").");
    parser.addOption("out", "FILE", "write the description here instead");
    parser.addOption("repeat", "N", "timed runs of each training kernel (default 5)");
    return parser;
}

} // namespace

int runArchCalibrate(const Args& args, std::ostream& out, std::ostream& err) {
    ArgParser parser = makeParser();
    if (!parser.parse(args)) {
        err << kName << parser.error() << " (see 'stagecraft arch calibrate --help')\n";
        return kExitBadUsage;
    }
    if (parser.helpRequested()) {
        out << parser.helpText();
        return kExitOk;
    }
    calibrate::CalibrateOptions options;
    if (auto repeat = parser.value("repeat")) {
        std::optional<int64_t> n = parseInt(*repeat);
        if (!n || *n < 1 || *n > 1000) {
            err << kName << "--repeat needs a whole number from 1 to 1000\n";
            return kExitBadUsage;
        }
        options.repetitions = static_cast<int>(*n);
    }
    std::optional<std::filesystem::path> outPath;
    if (auto given = parser.value("out"))
        outPath = *given;
    // Before the measuring: a bad --out, or no private data directory, fails
    // now; so does another calibration running (it would disturb this one's
    // figures, and the last to finish would win).
    Status writable = Status::success();
    std::shared_ptr<const void> lock;
    Expected<PrivateDir> dataDir = PrivateDir::open(StateKind::Data);
    if (outPath)
        writable = checkOutputPath(*outPath);
    else if (!dataDir.ok())
        writable = dataDir.error();
    if (writable.ok() && dataDir.ok()) {
        Expected<std::shared_ptr<const void>> held =
            dataDir->lock("calibrate.lock", "another 'stagecraft arch calibrate'");
        if (held.ok())
            lock = std::move(held).value();
        else
            writable = held.error();
    }
    if (!writable.ok()) {
        err << kName << writable.error().message() << "\n";
        return kExitBadInput;
    }
    auto start = std::chrono::steady_clock::now();
    auto calibration = calibrate::calibrateHost(options, [&](const std::string& step) {
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        char at[32];
        std::snprintf(at, sizeof at, "[%5.1f s] ", seconds);
        err << kName << at << step << "\n";
    });
    if (!calibration.ok()) {
        err << kName << calibration.error().message() << "\n";
        return kExitBadInput;
    }
    for (const std::string& finding : calibration->findings)
        out << finding << "\n";
    Expected<std::filesystem::path> target = outPath ? Expected<std::filesystem::path>(*outPath)
                                                     : arch::saveCalibration(calibration->arch);
    if (target.ok() && outPath)
        if (Status written = writeFileAtomic(*outPath, arch::toJson(calibration->arch));
            !written.ok())
            target = written.error();
    if (!target.ok()) {
        err << kName << target.error().message() << "\n";
        return kExitBadInput;
    }
    out << "wrote " << target->string()
        << (parser.has("out") ? "" : " (the host-cpu preset uses it from now on)") << "\n";
    return kExitOk;
}

} // namespace stagecraft::cli
