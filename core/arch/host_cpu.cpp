// detectHostCpu: the host-cpu preset. A multicore CPU mapped onto Fig. 1 of
// the GraphTurbo paper: one cluster (one shared last-level cache), a core per
// logical CPU, the per-CPU share of L2 as the core's LB (L1d when there is no
// L2), the last-level cache of level 3 or more as GB (none: no GB and a
// DDR->LB path), DRAM as DDR. Caches come from Linux sysfs (cpu0's
// cache/index*), sizes and bandwidths the kernel does not report are
// documented assumptions (docs/arch.md, "host-cpu"). Same probe, same Arch.

#include "arch/host_cpu.h"

#include "arch/arch_json.h"
#include "arch/internal/host_energy.h"
#include "support/private_dir.h"
#include "support/strings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace stagecraft::arch {

namespace {

namespace fs = std::filesystem;

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * kKiB;
constexpr int64_t kGiB = 1024 * kMiB;

struct Cache {
    int64_t level = 0;
    int64_t bytes = 0;
    int64_t sharers = 1; // logical CPUs sharing this cache
};

std::optional<std::string> readLine(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line))
        return std::nullopt;
    return std::string(trim(line));
}

/// sysfs cache sizes: "48K", "2048K", "32M", or plain bytes.
std::optional<int64_t> parseSize(std::string_view text) {
    int64_t scale = 1;
    if (!text.empty() && (text.back() == 'K' || text.back() == 'M' || text.back() == 'G')) {
        scale = text.back() == 'K' ? kKiB : text.back() == 'M' ? kMiB : kGiB;
        text.remove_suffix(1);
    }
    auto value = parseInt(text);
    if (!value || *value <= 0)
        return std::nullopt;
    return *value * scale;
}

/// Number of CPUs in a sysfs CPU list such as "0-3,8-11" or "5".
std::optional<int64_t> countCpus(std::string_view list) {
    int64_t count = 0;
    for (const std::string& range : split(list, ',')) {
        std::vector<std::string> ends = split(range, '-');
        auto first = parseInt(trim(ends.front()));
        auto last = parseInt(trim(ends.back()));
        if (ends.size() > 2 || !first || !last || *last < *first)
            return std::nullopt;
        count += *last - *first + 1;
    }
    return count;
}

/// cpu0's data and unified caches, in index order.
std::vector<Cache> readCaches(const fs::path& sysfs) {
    std::vector<Cache> caches;
    for (int index = 0; index < 32; ++index) {
        fs::path dir = sysfs / "cpu0" / "cache" / ("index" + std::to_string(index));
        auto level = readLine(dir / "level");
        auto type = readLine(dir / "type");
        auto size = readLine(dir / "size");
        if (!level || !type || !size)
            continue;
        if (*type != "Data" && *type != "Unified")
            continue;
        Cache cache;
        auto parsedLevel = parseInt(*level);
        auto bytes = parseSize(*size);
        if (!parsedLevel || !bytes)
            continue;
        cache.level = *parsedLevel;
        cache.bytes = *bytes;
        if (auto shared = readLine(dir / "shared_cpu_list"))
            cache.sharers = std::max<int64_t>(1, countCpus(*shared).value_or(1));
        caches.push_back(cache);
    }
    return caches;
}

const Cache* findLevel(const std::vector<Cache>& caches, int64_t level) {
    for (const Cache& cache : caches)
        if (cache.level == level)
            return &cache;
    return nullptr;
}

const Cache* lastLevel(const std::vector<Cache>& caches) {
    const Cache* best = nullptr;
    for (const Cache& cache : caches)
        if (cache.level >= 3 && (best == nullptr || cache.level > best->level))
            best = &cache;
    return best;
}

int64_t logicalCpus(const HostProbe& probe) {
    if (probe.logicalCpus > 0)
        return probe.logicalCpus;
    if (unsigned n = std::thread::hardware_concurrency(); n > 0)
        return n;
    if (auto online = readLine(probe.cpuSysfs / "online"))
        if (auto count = countCpus(*online); count && *count > 0)
            return *count;
    return 1;
}

int64_t physicalBytes(const HostProbe& probe) {
    if (probe.physicalBytes > 0)
        return probe.physicalBytes;
    long pages = sysconf(_SC_PHYS_PAGES);
    long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        return static_cast<int64_t>(pages) * pageSize;
    return 8 * kGiB;
}

int64_t vectorBits(const HostProbe& probe) {
    if (probe.vectorBits > 0)
        return std::max<int64_t>(probe.vectorBits, 64);
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("avx512f"))
        return 512;
    if (__builtin_cpu_supports("avx2"))
        return 256;
#endif
    return 128; // SSE2 / NEON / the common baseline
}

double clockGhz(const HostProbe& probe) {
    auto khz = readLine(probe.cpuSysfs / "cpu0" / "cpufreq" / "cpuinfo_max_freq");
    if (auto value = khz ? parseInt(*khz) : std::nullopt; value && *value > 0)
        return std::round(static_cast<double>(*value) / 1000.0) / 1000.0; // whole MHz
    return 2.0;
}

std::vector<ir::OpCategory> allCategories() {
    auto categories = ir::opCategories();
    return {categories.begin(), categories.end()};
}

/// Scalar pipes: one operation per cycle of every dtype.
ComputeUnit scalarUnit() {
    ComputeUnit unit{"scalar", UnitKind::Scalar, allCategories(), {}, {}};
    for (int i = 0; i <= static_cast<int>(ir::DType::String); ++i)
        if (auto dtype = static_cast<ir::DType>(i); isComputeDType(dtype))
            unit.opsPerCycle[dtype] = 1;
    return unit;
}

/// SIMD: two pipes of \p bits; f16/bf16 are computed as f32, bool as u8.
ComputeUnit vectorUnit(int64_t bits) {
    ComputeUnit unit{"simd", UnitKind::Vector, allCategories(), {}, {}};
    for (int i = 0; i <= static_cast<int>(ir::DType::String); ++i) {
        auto dtype = static_cast<ir::DType>(i);
        if (!isComputeDType(dtype))
            continue;
        bool asF32 = dtype == ir::DType::Float16 || dtype == ir::DType::BFloat16;
        int64_t laneBits = 8 * (asF32 ? 4 : ir::dtypeSize(dtype));
        unit.opsPerCycle[dtype] = static_cast<double>(2 * std::max<int64_t>(1, bits / laneBits));
    }
    return unit;
}

LocalBuffer localBuffer(const std::vector<Cache>& caches) {
    const Cache* cache = findLevel(caches, 2);
    std::string name = "L2";
    if (cache == nullptr) {
        cache = findLevel(caches, 1);
        name = "L1d";
    }
    int64_t bytes = cache != nullptr ? cache->bytes / cache->sharers : 0;
    if (bytes < 4 * kKiB) { // no usable sysfs entry
        bytes = 256 * kKiB;
        name = "L2";
    }
    return LocalBuffer{name, bytes, bytes / 8};
}

std::optional<MemorySpec> globalBuffer(const std::vector<Cache>& caches, int64_t cpus) {
    if (caches.empty())
        return MemorySpec{"L3", 8 * kMiB, true}; // no sysfs at all
    const Cache* llc = lastLevel(caches);
    if (llc == nullptr)
        return std::nullopt;
    int64_t instances = std::max<int64_t>(1, cpus / llc->sharers);
    return MemorySpec{"L" + std::to_string(llc->level), llc->bytes * instances, true};
}

std::vector<Path> hostPaths(bool hasGlobalBuffer, double clock) {
    Path dram{Memory::DDR, hasGlobalBuffer ? Memory::GB : Memory::LB, 25.6, 90, 2, Sharing::Chip};
    if (!hasGlobalBuffer)
        return {dram};
    Path cache{Memory::GB, Memory::LB, 32 * clock, 40 / clock, 2, Sharing::Core};
    return {dram, cache};
}

std::string hostName() {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0')
        return "localhost";
    std::string text(name);
    for (char& c : text)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.')
            c = '_';
    return text;
}

std::string calibrationFile() {
    return "host-cpu-" + hostName() + ".json";
}

} // namespace

fs::path calibrationPath() {
    std::optional<fs::path> dir = privateDirPath(StateKind::Data);
    return dir ? *dir / calibrationFile() : fs::path();
}

Expected<fs::path> saveCalibration(const Arch& calibrated) {
    SC_ASSIGN_OR_RETURN(PrivateDir dir, PrivateDir::open(StateKind::Data));
    SC_RETURN_IF_ERROR(dir.write(calibrationFile(), toJson(calibrated)));
    return dir.path() / calibrationFile();
}

Expected<Arch> hostCpuPreset() {
    Arch detected = detectHostCpu();
    SC_ASSIGN_OR_RETURN(std::optional<PrivateDir> dir, PrivateDir::openExisting(StateKind::Data));
    if (!dir)
        return detected;
    fs::path path = dir->path() / calibrationFile();
    SC_ASSIGN_OR_RETURN(std::optional<std::string> text, dir->read(calibrationFile(), 1 << 20));
    if (!text)
        return detected;
    Expected<Arch> calibrated = parseArch(*text, path.string());
    if (!calibrated.ok())
        return Error(calibrated.error().message() +
                     " (the calibration of host-cpu; run 'stagecraft arch calibrate' again)");
    if (coresPerCluster(*calibrated) != coresPerCluster(detected)) {
        detected.description += "; the calibration " + path.string() + " is of another machine";
        return detected;
    }
    calibrated->name = std::string(kHostCpuPreset);
    if (!calibrated->energy) // a calibration written before energy was modelled
        calibrated->energy = detail::hostEnergy(*calibrated, HostProbe{}.powercap);
    return calibrated;
}

Arch detectHostCpu(const HostProbe& probe) {
    std::vector<Cache> caches = readCaches(probe.cpuSysfs);
    int64_t cpus = logicalCpus(probe);
    int64_t bits = vectorBits(probe);
    Arch arch;
    arch.name = std::string(kHostCpuPreset);
    arch.description = "this machine: " + std::to_string(cpus) + " logical CPUs with " +
                       std::to_string(bits) +
                       "-bit SIMD (detected at run time; rates, bandwidths and overheads are "
                       "assumptions: run 'stagecraft arch calibrate')";
    arch.clockGhz = clockGhz(probe);
    arch.clusters = 1;
    CoreGroup group{"cpu", cpus, localBuffer(caches), {scalarUnit(), vectorUnit(bits)}};
    arch.cluster.coreGroups.push_back(std::move(group));
    arch.cluster.globalBuffer = globalBuffer(caches, cpus);
    arch.ddr = MemorySpec{"DRAM", physicalBytes(probe)};
    arch.paths = hostPaths(arch.cluster.globalBuffer.has_value(), arch.clockGhz);
    arch.overheads = Overheads{2000, 500};
    arch.energy = detail::hostEnergy(arch, probe.powercap);
    SC_ASSERT(validateArch(arch).ok(), "host-cpu description must validate");
    return arch;
}

} // namespace stagecraft::arch
