// Architecture JSON: presets load and validate, toJson round-trips, invalid
// files give one-line errors that name the file and the field, defaults.

#include "arch/arch_json.h"
#include "arch/presets.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>

using namespace stagecraft;
using namespace stagecraft::arch;

namespace {

// A small valid description; the invalid cases below each change one piece.
const char* const kBase = R"({
  "format": "stagecraft-arch",
  "version": 1,
  "name": "base",
  "description": "test base",
  "clock_ghz": 1,
  "clusters": 1,
  "cluster": {
    "core_groups": [
      {
        "name": "core",
        "count": 4,
        "local_buffer": { "name": "LB", "bytes": 16384, "weight_reserve_bytes": 2048 },
        "units": [
          { "name": "vec", "kind": "vector", "categories": ["elementwise", "injective"],
            "ops_per_cycle": { "f32": 8, "f16": 16 } }
        ]
      }
    ],
    "global_buffer": { "name": "GB", "bytes": 1048576 }
  },
  "ddr": { "name": "DDR", "bytes": 1073741824 },
  "paths": [
    { "from": "DDR", "to": "GB", "bandwidth_gbps": 16, "latency_ns": 100, "channels": 1, "shared_by": "chip" },
    { "from": "GB", "to": "LB", "bandwidth_gbps": 64, "latency_ns": 10, "channels": 2, "shared_by": "cluster" }
  ],
  "overheads": { "kernel_launch_ns": 1000, "sync_ns": 100 },
  "fallback_cpu": null
})";

QString describe(const Arch& a) {
    return QString::fromStdString(toJson(a));
}

} // namespace

class TestArchJson : public QObject {
    Q_OBJECT
private slots:
    void baseIsValid() {
        auto a = parseArch(kBase, "x.json");
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message().c_str());
        QCOMPARE(
            a->cluster.coreGroups.at(0).units.at(0).categories,
            (std::vector<ir::OpCategory>{ir::OpCategory::Elementwise, ir::OpCategory::Injective}));
    }

    void presets_data() {
        QTest::addColumn<QString>("name");
        for (const std::string& name : presetNames())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }
    void presets() {
        QFETCH(QString, name);
        auto a = loadPreset(name.toStdString());
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message().c_str());
        QCOMPARE(QString::fromStdString(a->name), name);
        QVERIFY(!a->description.empty());
        QVERIFY(validateArch(*a).ok());

        // toJson round-trips and is the same text every time.
        std::string text = toJson(*a);
        QVERIFY(text.ends_with("}\n"));
        auto back = parseArch(text, "roundtrip");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message().c_str());
        QVERIFY(*back == *a);
        QCOMPARE(toJson(*back), text);
        auto again = loadPreset(name.toStdString());
        QVERIFY(again.ok());
        QCOMPARE(describe(*again), QString::fromStdString(text));
    }

    void presetList() {
        std::vector<std::string> names = presetNames();
        for (const char* expected :
             {"stcp920", "teaching", "habana-goya", "ascend-910", "graphcore-ipu", "host-cpu"})
            QVERIFY2(std::find(names.begin(), names.end(), expected) != names.end(), expected);
        QCOMPARE(names.front(), std::string(kDefaultPreset));
    }

    void invalid_data() {
        QTest::addColumn<QString>("find");
        QTest::addColumn<QString>("replace");
        QTest::addColumn<QString>("fragment");
        auto row = [](const char* name, const char* find, const char* replace,
                      const char* fragment) {
            QTest::newRow(name) << QString::fromUtf8(find) << QString::fromUtf8(replace)
                                << QString::fromUtf8(fragment);
        };
        row("missing field", "\"clusters\": 1,", "", "x.json: clusters: missing");
        row("negative bytes", "\"bytes\": 16384", "\"bytes\": -5",
            "x.json: cluster.core_groups[0].local_buffer.bytes: must be a positive integer "
            "(got -5)");
        row("fractional bytes", "\"bytes\": 16384", "\"bytes\": 16384.5",
            "local_buffer.bytes: must be a positive integer (got 16384.5)");
        row("zero clusters", "\"clusters\": 1", "\"clusters\": 0",
            "x.json: clusters: must be a positive integer (got 0)");
        row("wrong type", "\"clusters\": 1", "\"clusters\": \"1\"",
            "x.json: clusters: must be a positive integer (got \"1\")");
        row("wrong type object", R"({ "name": "DDR", "bytes": 1073741824 })", "1073741824",
            "x.json: ddr: must be an object (got 1073741824)");
        row("unknown field", "\"clock_ghz\": 1", "\"clock_mhz\": 1000",
            "x.json: unknown field 'clock_mhz'");
        row("unknown nested field", "\"name\": \"vec\",", "\"name\": \"vec\", \"colour\": 1,",
            "x.json: cluster.core_groups[0].units[0]: unknown field 'colour'");
        row("unknown category", "\"injective\"", "\"convolution\"",
            "x.json: cluster.core_groups[0].units[0].categories[1]: unknown category "
            "'convolution'");
        row("duplicate category", "\"injective\"", "\"elementwise\"",
            "categories[1]: duplicate category 'elementwise'");
        row("unknown dtype", "\"f16\": 16", "\"f8\": 16",
            "x.json: cluster.core_groups[0].units[0].ops_per_cycle: unknown dtype 'f8'");
        row("string dtype", "\"f16\": 16", "\"string\": 16", "unknown dtype 'string'");
        row("zero throughput", "\"f16\": 16", "\"f16\": 0",
            "units[0].ops_per_cycle.f16: must be a positive number (got 0)");
        row("unknown kind", "\"kind\": \"vector\"", "\"kind\": \"tensor\"",
            "units[0].kind: unknown kind 'tensor' (expected matrix, vector or scalar)");
        row("weight reserve >= LB", "\"weight_reserve_bytes\": 2048",
            "\"weight_reserve_bytes\": 16384",
            "x.json: cluster.core_groups[0].local_buffer.weight_reserve_bytes: must be less "
            "than bytes (16384) (got 16384)");
        row("negative weight reserve", "\"weight_reserve_bytes\": 2048",
            "\"weight_reserve_bytes\": -1",
            "local_buffer.weight_reserve_bytes: must be a non-negative integer (got -1)");
        row("missing local buffer",
            R"("local_buffer": { "name": "LB", "bytes": 16384, "weight_reserve_bytes": 2048 },)",
            "", "x.json: cluster.core_groups[0].local_buffer: missing");
        row("GB null but DDR->GB path", R"({ "name": "GB", "bytes": 1048576 })", "null",
            "x.json: paths[0]: DDR->GB path but cluster.global_buffer is null");
        row("unknown memory", "\"from\": \"GB\"", "\"from\": \"L2\"",
            "x.json: paths[1].from: unknown memory 'L2' (expected DDR, GB or LB)");
        row("not a data path", "\"to\": \"GB\"", "\"to\": \"DDR\"",
            "x.json: paths[0]: DDR->DDR is not a data path");
        row("missing GB->LB path", "\"from\": \"GB\", \"to\": \"LB\"",
            "\"from\": \"DDR\", \"to\": \"LB\"", "x.json: paths: missing a GB->LB path");
        row("duplicate path", "\"from\": \"GB\", \"to\": \"LB\"",
            "\"from\": \"DDR\", \"to\": \"GB\"",
            "x.json: paths[1]: duplicate DDR->GB path (also paths[0])");
        row("zero channels", "\"channels\": 2", "\"channels\": 0",
            "x.json: paths[1].channels: must be a positive integer (got 0)");
        row("unknown sharing", "\"shared_by\": \"cluster\"", "\"shared_by\": \"socket\"",
            "paths[1].shared_by: unknown sharing 'socket'");
        row("negative latency", "\"latency_ns\": 10,", "\"latency_ns\": -10,",
            "paths[1].latency_ns: must be a non-negative number (got -10)");
        row("count overflow", "\"count\": 4", "\"count\": 9223372036854775807",
            "x.json: cluster.core_groups[0].count: must be at most 4096");
        row("integer too large", "\"count\": 4", "\"count\": 18446744073709551615",
            "x.json: cluster.core_groups[0].count: too large (got 18446744073709551615)");
        row("zero clock", "\"clock_ghz\": 1", "\"clock_ghz\": 0",
            "x.json: clock_ghz: must be a positive number (got 0)");
        row("not JSON", "\"version\": 1,", "\"version\": 1,,",
            "x.json: not valid JSON: parse error at line 3, column");
        row("unclosed array", "{\n  \"format\"", "[{\n  \"format\"", "x.json: not valid JSON");
        row("wrong format name", "\"stagecraft-arch\"", "\"stagecraft-schedule\"",
            "x.json: format: expected 'stagecraft-arch' (got 'stagecraft-schedule')");
        row("unsupported version", "\"version\": 1", "\"version\": 2",
            "x.json: version: unsupported version 2 (this build reads version 1)");
        row("fallback without gflops", "\"fallback_cpu\": null",
            "\"fallback_cpu\": { \"name\": \"host\" }", "x.json: fallback_cpu.gflops: missing");
    }
    void invalid() {
        QFETCH(QString, find);
        QFETCH(QString, replace);
        QFETCH(QString, fragment);
        QString text = QString::fromUtf8(kBase);
        QVERIFY2(text.count(find) == 1, qPrintable(find));
        text.replace(find, replace);
        auto a = parseArch(text.toStdString(), "x.json");
        QVERIFY(!a.ok());
        QString message = QString::fromStdString(a.error().message());
        QVERIFY2(message.startsWith(QStringLiteral("x.json: ")), qPrintable(message));
        QVERIFY2(message.contains(fragment), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));
        QVERIFY2(!message.endsWith(QLatin1Char('.')), qPrintable(message));
    }

    void topLevelNotAnObject() {
        auto a = parseArch("[1, 2]", "x.json");
        QVERIFY(!a.ok());
        QCOMPARE(QString::fromStdString(a.error().message()),
                 QStringLiteral("x.json: must be a JSON object (got [1,2])"));
    }

    void defaultsAreFilledIn() {
        QString text = QString::fromUtf8(kBase);
        for (const char* optional :
             {"\"description\": \"test base\",", ", \"weight_reserve_bytes\": 2048",
              ", \"channels\": 1", ", \"channels\": 2", ", \"shared_by\": \"chip\"",
              ", \"shared_by\": \"cluster\"", ",\n  \"fallback_cpu\": null"}) {
            QVERIFY2(text.count(QString::fromUtf8(optional)) == 1, optional);
            text.remove(QString::fromUtf8(optional));
        }
        auto a = parseArch(text.toStdString(), "defaults.json");
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message().c_str());
        QCOMPARE(a->description, std::string());
        QCOMPARE(a->cluster.coreGroups[0].localBuffer->weightReserveBytes, int64_t(0));
        QCOMPARE(a->paths[0].channels, int64_t(1));
        QCOMPARE(a->paths[0].sharedBy, Sharing::Chip);
        QCOMPARE(a->paths[1].sharedBy, Sharing::Cluster);
        QVERIFY(!a->fallbackCpu);
        // The resolved text has every field.
        QString resolved = describe(*a);
        for (const char* field : {"\"description\"", "\"weight_reserve_bytes\"", "\"channels\"",
                                  "\"shared_by\"", "\"fallback_cpu\": null"})
            QVERIFY2(resolved.contains(QString::fromUtf8(field)), field);
    }

    void noGlobalBufferNeedsDdrToLb() {
        QString text = QString::fromUtf8(kBase);
        text.replace(QStringLiteral(R"({ "name": "GB", "bytes": 1048576 })"),
                     QStringLiteral("null"));
        text.replace(QStringLiteral(R"("from": "DDR", "to": "GB")"),
                     QStringLiteral(R"("from": "LB", "to": "LB")"));
        text.replace(QStringLiteral(R"("from": "GB", "to": "LB")"),
                     QStringLiteral(R"("from": "LB", "to": "DDR")"));
        auto a = parseArch(text.toStdString(), "ipu.json");
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().message().c_str());
        QVERIFY(!a->cluster.globalBuffer);

        QString ddrPath = QStringLiteral(R"(,
    { "from": "LB", "to": "DDR", "bandwidth_gbps": 64, "latency_ns": 10, "channels": 2, "shared_by": "cluster" })");
        QCOMPARE(text.count(ddrPath), 1);
        text.remove(ddrPath);
        auto missing = parseArch(text.toStdString(), "ipu.json");
        QVERIFY(!missing.ok());
        QVERIFY2(QString::fromStdString(missing.error().message())
                     .contains(QStringLiteral("ipu.json: paths: missing a DDR->LB path")),
                 missing.error().message().c_str());
    }

    void files() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto teaching = loadPreset("teaching");
        QVERIFY(teaching.ok());
        std::filesystem::path path = dir.filePath(QStringLiteral("mine.json")).toStdString();
        std::ofstream(path) << toJson(*teaching);
        auto loaded = resolveArch(path.string());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message().c_str());
        QVERIFY(*loaded == *teaching);

        std::filesystem::path bad = dir.filePath(QStringLiteral("bad.json")).toStdString();
        std::ofstream(bad) << "{\"format\": \"stagecraft-arch\", \"version\": 1}";
        auto failed = loadArchFile(bad);
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().message(), bad.string() + ": name: missing");

        auto absent = loadArchFile(dir.filePath(QStringLiteral("absent.json")).toStdString());
        QVERIFY(!absent.ok());
        QVERIFY(QString::fromStdString(absent.error().message())
                    .contains(QStringLiteral("absent.json")));
    }

    void unknownNameListsPresets() {
        auto a = resolveArch("no-such-chip");
        QVERIFY(!a.ok());
        QString message = QString::fromStdString(a.error().message());
        QVERIFY2(message.contains(QStringLiteral("'no-such-chip'")), qPrintable(message));
        for (const std::string& name : presetNames())
            QVERIFY2(message.contains(QString::fromStdString(name)), qPrintable(message));
        QVERIFY(!loadPreset("no-such-chip").ok());
    }
};

QTEST_GUILESS_MAIN(TestArchJson)
#include "test_arch_json.moc"
