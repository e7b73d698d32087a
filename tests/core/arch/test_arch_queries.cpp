// Derived queries on Arch (cores, aggregate LB, peaks, paths, units),
// validateArch on descriptions built in code, and host-cpu detection.

#include "arch/arch_json.h"
#include "arch/host_cpu.h"
#include "arch/presets.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

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

HostProbe fakeProbe(const QTemporaryDir& dir) {
    HostProbe probe;
    probe.cpuSysfs = dir.path().toStdString();
    probe.logicalCpus = 16;
    probe.physicalBytes = int64_t(16) << 30;
    probe.vectorBits = 256;
    return probe;
}

} // namespace

class TestArchQueries : public QObject {
    Q_OBJECT
private slots:
    void cores() {
        QCOMPARE(coresPerCluster(preset("stcp920")), int64_t(8));
        QCOMPARE(totalCores(preset("stcp920")), int64_t(32));         // §5 Eq. 2: d=4, c=8
        QCOMPARE(coresPerCluster(preset("habana-goya")), int64_t(9)); // §1: c=9
        QCOMPARE(coresPerCluster(preset("graphcore-ipu")), int64_t(1472));
    }

    // docs/arch.md "Aggregate LB": 4 x (8192 - 1024) and the Fig. 3b split factors.
    void teachingAggregateLb() {
        Arch teaching = preset("teaching");
        QCOMPARE(aggregateActivationBytes(teaching), int64_t(28672));
        std::vector<int64_t> factors;
        for (int64_t peakKiB : {128, 64, 32, 16}) {
            int64_t v = 1;
            while (peakKiB * 1024 / v > aggregateActivationBytes(teaching))
                v *= 2;
            factors.push_back(v);
        }
        QCOMPARE(factors, (std::vector<int64_t>{8, 4, 2, 1}));
    }

    void stcp920Peak() {
        Arch a = preset("stcp920");
        // 4 clusters x 8 cores x (vector core 32 + VME 128 + MME 1024) f16/cycle x 1 GHz.
        QCOMPARE(peakOpsPerSecond(a, DType::Float16), 4.0 * 8 * (32 + 128 + 1024) * 1e9);
        QCOMPARE(peakOpsPerSecond(a, DType::Float16, OpCategory::Complex), 4.0 * 8 * 1024 * 1e9);
        QCOMPARE(peakOpsPerSecond(a, DType::Float64), 0.0);
        QCOMPARE(aggregateActivationBytes(a), int64_t(8 * (65536 - 8192)));
    }

    void goyaGemmHasNoLocalBuffer() {
        Arch goya = preset("habana-goya");
        int withoutLb = 0;
        for (const CoreGroup& group : goya.cluster.coreGroups)
            if (!group.localBuffer) {
                ++withoutLb;
                QCOMPARE(group.count, int64_t(1));
                QCOMPARE(group.units.at(0).kind, UnitKind::Matrix);
            }
        QCOMPARE(withoutLb, 1);
        QVERIFY(goya.cluster.globalBuffer);
    }

    void paths() {
        Arch stcp = preset("stcp920");
        const Path* down = findPath(stcp, Memory::DDR, Memory::GB);
        QVERIFY(down != nullptr);
        QCOMPARE(down->bandwidthGBps, 136.0);                       // §5: DDR bandwidth of STCP920
        QCOMPARE(findPath(stcp, Memory::GB, Memory::DDR), down);    // reverse direction
        QVERIFY(findPath(stcp, Memory::LB, Memory::LB) == nullptr); // cores talk through LLB
        QVERIFY(findPath(preset("teaching"), Memory::LB, Memory::LB) != nullptr);
        Arch ipu = preset("graphcore-ipu");
        QVERIFY(!ipu.cluster.globalBuffer);
        QVERIFY(findPath(ipu, Memory::DDR, Memory::LB) != nullptr);
        QVERIFY(findPath(ipu, Memory::DDR, Memory::GB) == nullptr);
    }

    void units() {
        Arch a = preset("stcp920");
        QCOMPARE(unitsFor(a, OpCategory::Complex, DType::Float16), (std::vector<UnitRef>{{0, 2}}));
        QCOMPARE(unitsFor(a, OpCategory::Elementwise, DType::Float32),
                 (std::vector<UnitRef>{{0, 0}, {0, 1}}));
        QCOMPARE(unitsFor(a, OpCategory::Injective, DType::Float32),
                 (std::vector<UnitRef>{{0, 0}}));
        QVERIFY(unitsFor(a, OpCategory::Complex, DType::Float64).empty());
    }

    void validateBuiltInCode_data() {
        QTest::addColumn<int>("change");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("no core groups") << 0 << QStringLiteral("cluster.core_groups: must list");
        QTest::newRow("no units") << 1 << QStringLiteral("cluster.core_groups[0].units: must list");
        QTest::newRow("duplicate category")
            << 2 << QStringLiteral("units[0].categories[1]: duplicate category 'elementwise'");
        QTest::newRow("string dtype")
            << 3 << QStringLiteral("units[0].ops_per_cycle.string: not a dtype");
        QTest::newRow("duplicate group")
            << 4 << QStringLiteral("cluster.core_groups[1].name: duplicate core group name");
        QTest::newRow("LB path without LB")
            << 5 << QStringLiteral("paths[1]: GB->LB path but no core group has a local_buffer");
        QTest::newRow("no LB, no GB")
            << 6 << QStringLiteral("local_buffer: null needs a global buffer");
        QTest::newRow("empty name") << 7 << QStringLiteral("name: must be a non-empty string");
    }
    void validateBuiltInCode() {
        QFETCH(int, change);
        QFETCH(QString, fragment);
        Arch a = preset("teaching");
        QVERIFY(validateArch(a).ok());
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
        QVERIFY(!status.ok());
        QVERIFY2(QString::fromStdString(status.error().message()).contains(fragment),
                 status.error().message().c_str());
    }

    void hostCpuDetects() {
        Arch host = detectHostCpu();
        QVERIFY2(validateArch(host).ok(), qPrintable(QString::fromStdString(toJson(host))));
        QCOMPARE(host.name, std::string("host-cpu"));
        QVERIFY(host.clockGhz > 0);
        QVERIFY(coresPerCluster(host) >= 1);
        QVERIFY(host.cluster.coreGroups.at(0).localBuffer->bytes > 0);
        QVERIFY(host.ddr.bytes > 0);
        if (host.cluster.globalBuffer)
            QVERIFY(host.cluster.globalBuffer->bytes > 0);
        QCOMPARE(toJson(detectHostCpu()), toJson(host)); // deterministic
        QVERIFY(!unitsFor(host, OpCategory::Complex, DType::Float32).empty());
    }

    void hostCpuFromSysfs() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        HostProbe probe = fakeProbe(dir);
        writeCache(probe.cpuSysfs, 0, "1", "Data", "48K", "0-1");
        writeCache(probe.cpuSysfs, 1, "1", "Instruction", "32K", "0-1");
        writeCache(probe.cpuSysfs, 2, "2", "Unified", "2048K", "0-1");
        writeCache(probe.cpuSysfs, 3, "3", "Unified", "32M", "0-7");
        writeFile(probe.cpuSysfs / "cpu0" / "cpufreq" / "cpuinfo_max_freq", "3500000");
        Arch host = detectHostCpu(probe);
        QVERIFY(validateArch(host).ok());
        const CoreGroup& cpus = host.cluster.coreGroups.at(0);
        QCOMPARE(cpus.count, int64_t(16));
        QCOMPARE(cpus.localBuffer->name, std::string("L2"));
        QCOMPARE(cpus.localBuffer->bytes, int64_t(1024 * 1024)); // 2 MiB L2 per 2 CPUs
        QCOMPARE(host.cluster.globalBuffer->name, std::string("L3"));
        QCOMPARE(host.cluster.globalBuffer->bytes, int64_t(64) << 20); // 2 L3s of 32 MiB
        QCOMPARE(host.clockGhz, 3.5);
        QCOMPARE(host.ddr.bytes, int64_t(16) << 30);
        QCOMPARE(cpus.units.at(1).opsPerCycle.at(DType::Float32), 16.0); // 2 x 256/32
        QVERIFY(findPath(host, Memory::DDR, Memory::GB) != nullptr);
        QVERIFY(findPath(host, Memory::GB, Memory::LB) != nullptr);
    }

    void hostCpuWithoutL3HasNoGlobalBuffer() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        HostProbe probe = fakeProbe(dir);
        writeCache(probe.cpuSysfs, 0, "1", "Data", "32K", "0");
        writeCache(probe.cpuSysfs, 1, "2", "Unified", "512K", "0");
        Arch host = detectHostCpu(probe);
        QVERIFY(validateArch(host).ok());
        QVERIFY(!host.cluster.globalBuffer);
        QCOMPARE(host.cluster.coreGroups.at(0).localBuffer->bytes, int64_t(512 * 1024));
        QVERIFY(findPath(host, Memory::DDR, Memory::LB) != nullptr);
    }

    void hostCpuWithoutSysfsFallsBack() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        HostProbe probe = fakeProbe(dir);
        probe.cpuSysfs /= "missing";
        Arch host = detectHostCpu(probe);
        QVERIFY(validateArch(host).ok());
        QCOMPARE(host.cluster.coreGroups.at(0).localBuffer->bytes, int64_t(256 * 1024));
        QCOMPARE(host.cluster.globalBuffer->bytes, int64_t(8) << 20);
        QCOMPARE(host.clockGhz, 2.0);
        auto back = parseArch(toJson(host), "host");
        QVERIFY(back.ok());
        QVERIFY(*back == host);
    }
};

QTEST_GUILESS_MAIN(TestArchQueries)
#include "test_arch_queries.moc"
