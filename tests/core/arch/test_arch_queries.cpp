// Derived queries on Arch (cores, aggregate LB, peaks, paths, units),
// validateArch on descriptions built in code, and host-cpu detection.

#include "arch/arch_json.h"
#include "arch/host_cpu.h"
#include "arch/presets.h"
#include "coretestsupport.h"

#include <fstream>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::arch;
using ir::DType;
using ir::OpCategory;

namespace {

Arch preset(const char* name) {
    auto a = loadPreset(name);
    SC_ASSERT(a.ok(), "presets load");
    return std::move(a).value();
}

void writeFile(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text << "\n";
}

void writeCache(const std::filesystem::path& sysfs, int index, const char* level, const char* type,
                const char* size, const char* shared) {
    auto dir = sysfs / "cpu0" / "cache" / ("index" + std::to_string(index));
    writeFile(dir / "level", level);
    writeFile(dir / "type", type);
    writeFile(dir / "size", size);
    writeFile(dir / "shared_cpu_list", shared);
}

HostProbe fakeProbe(const test::TempDir& dir) {
    HostProbe probe;
    probe.cpuSysfs = dir.path();
    probe.logicalCpus = 16;
    probe.physicalBytes = int64_t(16) << 30;
    probe.vectorBits = 256;
    probe.powercap = dir.path() / "powercap";
    return probe;
}

} // namespace

TEST(TestArchQueries, cores) {
    ASSERT_EQ(coresPerCluster(preset("stcp920")), int64_t(8));
    ASSERT_EQ(totalCores(preset("stcp920")), int64_t(32));         // §5 Eq. 2: d=4, c=8
    ASSERT_EQ(coresPerCluster(preset("habana-goya")), int64_t(9)); // §1: c=9
    ASSERT_EQ(coresPerCluster(preset("graphcore-ipu")), int64_t(1472));
}

// docs/arch.md "Aggregate LB": 4 x (8192 - 1024) and the Fig. 3b split factors.
TEST(TestArchQueries, teachingAggregateLb) {
    Arch teaching = preset("teaching");
    ASSERT_EQ(aggregateActivationBytes(teaching), int64_t(28672));
    std::vector<int64_t> factors;
    for (int64_t peakKiB : {128, 64, 32, 16}) {
        int64_t v = 1;
        while (peakKiB * 1024 / v > aggregateActivationBytes(teaching))
            v *= 2;
        factors.push_back(v);
    }
    ASSERT_EQ(factors, (std::vector<int64_t>{8, 4, 2, 1}));
}

TEST(TestArchQueries, stcp920Peak) {
    Arch a = preset("stcp920");
    // 4 clusters x 8 cores x (vector core 32 + VME 128 + MME 1024) f16/cycle x 1 GHz.
    ASSERT_FUZZY_EQ(peakOpsPerSecond(a, DType::Float16), 4.0 * 8 * (32 + 128 + 1024) * 1e9);
    ASSERT_FUZZY_EQ(peakOpsPerSecond(a, DType::Float16, OpCategory::Complex), 4.0 * 8 * 1024 * 1e9);
    ASSERT_FUZZY_EQ(peakOpsPerSecond(a, DType::Float64), 0.0);
    ASSERT_EQ(aggregateActivationBytes(a), int64_t(8 * (65536 - 8192)));
}

TEST(TestArchQueries, goyaGemmHasNoLocalBuffer) {
    Arch goya = preset("habana-goya");
    int withoutLb = 0;
    for (const CoreGroup& group : goya.cluster.coreGroups)
        if (!group.localBuffer) {
            ++withoutLb;
            ASSERT_EQ(group.count, int64_t(1));
            ASSERT_EQ(group.units.at(0).kind, UnitKind::Matrix);
        }
    ASSERT_EQ(withoutLb, 1);
    ASSERT_TRUE(goya.cluster.globalBuffer);
}

TEST(TestArchQueries, paths) {
    Arch stcp = preset("stcp920");
    const Path* down = findPath(stcp, Memory::DDR, Memory::GB);
    ASSERT_TRUE(down != nullptr);
    ASSERT_FUZZY_EQ(down->bandwidthGBps, 136.0);                    // §5: DDR bandwidth of STCP920
    ASSERT_EQ(findPath(stcp, Memory::GB, Memory::DDR), down);       // reverse direction
    ASSERT_TRUE(findPath(stcp, Memory::LB, Memory::LB) == nullptr); // cores talk through LLB
    ASSERT_TRUE(findPath(preset("teaching"), Memory::LB, Memory::LB) != nullptr);
    Arch ipu = preset("graphcore-ipu");
    ASSERT_TRUE(!ipu.cluster.globalBuffer);
    ASSERT_TRUE(findPath(ipu, Memory::DDR, Memory::LB) != nullptr);
    ASSERT_TRUE(findPath(ipu, Memory::DDR, Memory::GB) == nullptr);
}

TEST(TestArchQueries, units) {
    Arch a = preset("stcp920");
    ASSERT_EQ(unitsFor(a, OpCategory::Complex, DType::Float16), (std::vector<UnitRef>{{0, 2}}));
    ASSERT_EQ(unitsFor(a, OpCategory::Elementwise, DType::Float32),
              (std::vector<UnitRef>{{0, 0}, {0, 1}}));
    ASSERT_EQ(unitsFor(a, OpCategory::Injective, DType::Float32), (std::vector<UnitRef>{{0, 0}}));
    ASSERT_TRUE(unitsFor(a, OpCategory::Complex, DType::Float64).empty());
}

struct ValidateBuiltInCodeRow {
    std::string rowLabel;
    int change;
    std::string fragment;
};

std::vector<ValidateBuiltInCodeRow> validateBuiltInCodeRows() {
    std::vector<ValidateBuiltInCodeRow> rows;
    rows.push_back({"no core groups", 0, std::string("cluster.core_groups: must list")});
    rows.push_back({"no units", 1, std::string("cluster.core_groups[0].units: must list")});
    rows.push_back({"duplicate category", 2,
                    std::string("units[0].categories[1]: duplicate category 'elementwise'")});
    rows.push_back({"string dtype", 3, std::string("units[0].ops_per_cycle.string: not a dtype")});
    rows.push_back({"duplicate group", 4,
                    std::string("cluster.core_groups[1].name: duplicate core group name")});
    rows.push_back({"LB path without LB", 5,
                    std::string("paths[1]: GB->LB path but no core group has a local_buffer")});
    rows.push_back({"no LB, no GB", 6, std::string("local_buffer: null needs a global buffer")});
    rows.push_back({"empty name", 7, std::string("name: must be a non-empty string")});
    return rows;
}

class ValidateBuiltInCodeRows : public ::testing::TestWithParam<ValidateBuiltInCodeRow> {};

TEST_P(ValidateBuiltInCodeRows, validateBuiltInCode) {
    int change = GetParam().change;
    std::string fragment = GetParam().fragment;
    Arch a = preset("teaching");
    ASSERT_TRUE(validateArch(a).ok());
    CoreGroup& group = a.cluster.coreGroups[0];
    switch (change) {
    case 0:
        a.cluster.coreGroups.clear();
        break;
    case 1:
        group.units.clear();
        break;
    case 2:
        group.units[0].categories = {OpCategory::Elementwise, OpCategory::Elementwise};
        break;
    case 3:
        group.units[0].opsPerCycle[DType::String] = 1;
        break;
    case 4:
        a.cluster.coreGroups.push_back(group);
        break;
    case 5:
        group.localBuffer.reset();
        break;
    case 6:
        group.localBuffer.reset();
        a.cluster.globalBuffer.reset();
        break;
    case 7:
        a.name.clear();
        break;
    }
    Status status = validateArch(a);
    ASSERT_TRUE(!status.ok());
    ASSERT_TRUE(test::containsText(status.error().message(), fragment))
        << (status.error().message().c_str());
}

INSTANTIATE_TEST_SUITE_P(TestArchQueries, ValidateBuiltInCodeRows,
                         ::testing::ValuesIn(validateBuiltInCodeRows()), test::RowName{});

TEST(TestArchQueries, hostCpuDetects) {
    Arch host = detectHostCpu();
    ASSERT_TRUE(validateArch(host).ok()) << (toJson(host));
    ASSERT_EQ(host.name, std::string("host-cpu"));
    ASSERT_TRUE(host.clockGhz > 0);
    ASSERT_TRUE(coresPerCluster(host) >= 1);
    ASSERT_TRUE(host.cluster.coreGroups.at(0).localBuffer->bytes > 0);
    ASSERT_TRUE(host.ddr.bytes > 0);
    if (host.cluster.globalBuffer) {
        ASSERT_TRUE(host.cluster.globalBuffer->bytes > 0);
    }
    ASSERT_EQ(toJson(detectHostCpu()), toJson(host)); // deterministic
    ASSERT_TRUE(!unitsFor(host, OpCategory::Complex, DType::Float32).empty());
}

TEST(TestArchQueries, hostCpuFromSysfs) {
    test::TempDir dir;
    ASSERT_TRUE(dir.isValid());
    HostProbe probe = fakeProbe(dir);
    writeCache(probe.cpuSysfs, 0, "1", "Data", "48K", "0-1");
    writeCache(probe.cpuSysfs, 1, "1", "Instruction", "32K", "0-1");
    writeCache(probe.cpuSysfs, 2, "2", "Unified", "2048K", "0-1");
    writeCache(probe.cpuSysfs, 3, "3", "Unified", "32M", "0-7");
    writeFile(probe.cpuSysfs / "cpu0" / "cpufreq" / "cpuinfo_max_freq", "3500000");
    Arch host = detectHostCpu(probe);
    ASSERT_TRUE(validateArch(host).ok());
    const CoreGroup& cpus = host.cluster.coreGroups.at(0);
    ASSERT_EQ(cpus.count, int64_t(16));
    ASSERT_EQ(cpus.localBuffer->name, std::string("L2"));
    ASSERT_EQ(cpus.localBuffer->bytes, int64_t(1024 * 1024)); // 2 MiB L2 per 2 CPUs
    ASSERT_EQ(host.cluster.globalBuffer->name, std::string("L3"));
    ASSERT_EQ(host.cluster.globalBuffer->bytes, int64_t(64) << 20); // 2 L3s of 32 MiB
    ASSERT_FUZZY_EQ(host.clockGhz, 3.5);
    ASSERT_EQ(host.ddr.bytes, int64_t(16) << 30);
    ASSERT_FUZZY_EQ(cpus.units.at(1).opsPerCycle.at(DType::Float32), 16.0); // 2 x 256/32
    ASSERT_TRUE(findPath(host, Memory::DDR, Memory::GB) != nullptr);
    ASSERT_TRUE(findPath(host, Memory::GB, Memory::LB) != nullptr);
}

/// Milliwatts of leakage the energy table of \p host gives its chip.
double hostLeakMw(const Arch& host) {
    const CoreGroup& cpus = host.cluster.coreGroups.at(0);
    const EnergyModel& e = *host.energy;
    double mw = 0;
    for (const ComputeUnit& unit : cpus.units)
        mw += e.units.at(unit.name).staticMw * static_cast<double>(cpus.count);
    mw += e.memories.at(Memory::LB).staticMw * static_cast<double>(cpus.count);
    return mw + e.memories.at(Memory::GB).staticMw + e.memories.at(Memory::DDR).staticMw;
}

// docs/arch.md, "Energy": leakage is 20 % of RAPL's package power limits
// where powercap offers them (two packages of 125 W here), else of 6 W per
// logical CPU; a SIMD operation costs less than a scalar one (the
// instruction's overhead is spread over its lanes).
TEST(TestArchQueries, hostCpuEnergyFromRaplOrAssumptions) {
    test::TempDir dir;
    ASSERT_TRUE(dir.isValid());
    HostProbe probe = fakeProbe(dir);
    Arch assumed = detectHostCpu(probe);
    ASSERT_TRUE(assumed.energy.has_value());
    ASSERT_FUZZY_EQ(hostLeakMw(assumed), 16 * 6 * 0.2 * 1000);
    ASSERT_TRUE(assumed.energy->source.find("assumed 6 W") != std::string::npos);
    const auto& units = assumed.energy->units;
    ASSERT_LT(units.at("simd").pjPerOp.at(DType::Float32),
              units.at("scalar").pjPerOp.at(DType::Float32));
    for (int package : {0, 1})
        writeFile(probe.powercap / ("intel-rapl:" + std::to_string(package)) /
                      "constraint_0_power_limit_uw",
                  "125000000");
    Arch measured = detectHostCpu(probe);
    ASSERT_FUZZY_EQ(hostLeakMw(measured), 2 * 125 * 0.2 * 1000);
    ASSERT_TRUE(measured.energy->source.find("RAPL") != std::string::npos);
}

TEST(TestArchQueries, hostCpuWithoutL3HasNoGlobalBuffer) {
    test::TempDir dir;
    ASSERT_TRUE(dir.isValid());
    HostProbe probe = fakeProbe(dir);
    writeCache(probe.cpuSysfs, 0, "1", "Data", "32K", "0");
    writeCache(probe.cpuSysfs, 1, "2", "Unified", "512K", "0");
    Arch host = detectHostCpu(probe);
    ASSERT_TRUE(validateArch(host).ok());
    ASSERT_TRUE(!host.cluster.globalBuffer);
    ASSERT_EQ(host.cluster.coreGroups.at(0).localBuffer->bytes, int64_t(512 * 1024));
    ASSERT_TRUE(findPath(host, Memory::DDR, Memory::LB) != nullptr);
}

TEST(TestArchQueries, hostCpuWithoutSysfsFallsBack) {
    test::TempDir dir;
    ASSERT_TRUE(dir.isValid());
    HostProbe probe = fakeProbe(dir);
    probe.cpuSysfs /= "missing";
    Arch host = detectHostCpu(probe);
    ASSERT_TRUE(validateArch(host).ok());
    ASSERT_EQ(host.cluster.coreGroups.at(0).localBuffer->bytes, int64_t(256 * 1024));
    ASSERT_EQ(host.cluster.globalBuffer->bytes, int64_t(8) << 20);
    ASSERT_FUZZY_EQ(host.clockGhz, 2.0);
    auto back = parseArch(toJson(host), "host");
    ASSERT_TRUE(back.ok());
    ASSERT_TRUE(*back == host);
}
