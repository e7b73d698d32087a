// Sweep specs (ranges, defaults, one-line errors with the field's path),
// the expansion order, architecture variants, records read back after a
// kill, and the Pareto front against hand-worked sets.

#include "arch/presets.h"
#include "coretestsupport.h"
#include "sweep/pareto.h"
#include "sweep/records.h"
#include "sweep/spec.h"
#include "sweep/variant.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>

namespace stagecraft::sweep {
namespace {

using test::containsText;
using test::TempDir;

SweepSpec parsed(const std::string& json) {
    Expected<SweepSpec> spec = parseSpec(json, "s.json");
    EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().message());
    return spec.ok() ? *spec : SweepSpec{};
}

std::string refusal(const std::string& json) {
    Expected<SweepSpec> spec = parseSpec(json, "s.json");
    return spec.ok() ? "accepted" : spec.error().message();
}

TEST(SweepSpec, DefaultsAndRanges) {
    SweepSpec spec = parsed(R"({"models": ["zoo:resnet50", {"model": "zoo:bert-base", "seq": 128}],
        "arch": {"base": "teaching", "vary": {"gb_bytes": {"from": 1024, "to": 8192, "times": 2},
                                                "clock_ghz": {"from": 1, "to": 2, "step": 0.5},
                                                "cores": [2, 4]}}})");
    EXPECT_EQ(spec.arch, "teaching");
    EXPECT_EQ(spec.models[1].seq, 128);
    EXPECT_EQ(spec.strategies, (std::vector<std::string>{"tvm", "astitch", "graphturbo"}));
    EXPECT_EQ(spec.precisions, std::vector<std::string>{"model"});
    EXPECT_EQ(spec.levels, std::vector<std::string>{"auto"});
    ASSERT_EQ(spec.axes.size(), 3u); // in key order: clock_ghz, cores, gb_bytes
    EXPECT_EQ(spec.axes[0].values, (std::vector<double>{1, 1.5, 2}));
    EXPECT_EQ(spec.axes[1].values, (std::vector<double>{2, 4}));
    EXPECT_EQ(spec.axes[2].values, (std::vector<double>{1024, 2048, 4096, 8192}));
    EXPECT_EQ(countPoints(spec), 2 * 3 * 2 * 4 * 3);
    // A range up to the largest double ends there (its bound overflowed to
    // infinity: "more than 100000 values", all of them infinite).
    SweepSpec largest = parsed(R"({"models": ["zoo:a"], "arch": {"vary": {"gb_bytes":
        {"from": 1e308, "to": 1.7976931348623157e308, "step": 1e307}}}})");
    ASSERT_EQ(largest.axes.size(), 1u);
    EXPECT_EQ(largest.axes[0].values.size(), 8u);
}

TEST(SweepSpec, ErrorsNameTheField) {
    EXPECT_EQ(refusal("{}"), "s.json: models: missing");
    EXPECT_EQ(refusal(R"({"models": ["zoo:a"], "colour": 1})"), "s.json: unknown field 'colour'");
    EXPECT_TRUE(containsText(refusal(R"({"models": ["zoo:a"], "strategies": ["tvm", "x"]})"),
                             "s.json: strategies[1]: unknown strategy 'x'"));
    EXPECT_EQ(
        refusal(R"({"models": ["zoo:a"], "arch": {"vary": {"gb_bytes": {"from": 4, "to": 1}}}})"),
        "s.json: arch.vary.gb_bytes.to: must be at least 'from' (got 1)");
    EXPECT_EQ(
        refusal(
            R"({"models": ["zoo:a"], "arch": {"vary": {"gb_bytes": {"from": 1, "to": 4, "times": 1}}}})"),
        "s.json: arch.vary.gb_bytes.times: must be above 1 (got 1)");
    EXPECT_EQ(refusal(R"({"models": ["zoo:a"], "per_cluster": [2, 0.5]})"),
              "s.json: per_cluster: every value must be a whole number of at least 1 (got 0.5)");
    EXPECT_EQ(refusal(R"({"models": ["zoo:a"], "precisions": "f8"})"),
              "s.json: precisions: must be model, f32, f16 or bf16 (got 'f8')");
    EXPECT_EQ(refusal(R"({"models": ["zoo:a"], "levels": ["auto", "l3"]})"),
              "s.json: levels[1]: must be auto, lb or gb (got 'l3')");
    EXPECT_TRUE(containsText(refusal(R"({"models": ["zoo:a"], "arch": {"vary": {"lb": [1]}}})"),
                             "s.json: arch.vary.lb: unknown field"));
    EXPECT_TRUE(containsText(
        refusal(R"({"models": ["zoo:a"], "arch": {"vary": {"gb_bytes": {"from": 1, "to": 1e9}}}})"),
        "more than 100000 values"));
    EXPECT_TRUE(containsText(refusal("{\"models\": [\"zoo:a\""), "s.json: not valid JSON"));
}

TEST(SweepSpec, PointsComeInAFixedOrderWithTheirKeys) {
    SweepSpec spec =
        parsed(R"({"models": ["zoo:fig3-chain"], "arch": {"vary": {"clusters": [1, 2]}},
        "strategies": ["tvm", "graphturbo"], "per_cluster": [1, 4]})");
    std::vector<SweepPoint> points = expandPoints(spec);
    ASSERT_EQ(points.size(), 8u);
    EXPECT_EQ(points[1].strategy, "graphturbo"); // strategies fastest
    EXPECT_EQ(points[2].perCluster, 4);
    EXPECT_EQ(points[4].archValues, std::vector<double>{2});
    EXPECT_EQ(pointKey(spec, points[5]),
              "model=zoo:fig3-chain seq=0 arch=stcp920 clusters=2 precision=model batch=- "
              "per_cluster=1 level=auto strategy=graphturbo");
    for (size_t i = 0; i < points.size(); ++i)
        EXPECT_EQ(points[i].index, static_cast<int64_t>(i));
}

TEST(SweepVariant, SetsFieldsAndValidatesTheResult) {
    Expected<arch::Arch> base = arch::loadPreset("stcp920");
    ASSERT_TRUE(base.ok());
    SweepSpec spec = parsed(R"({"models": ["zoo:a"], "arch": {"vary": {
        "gb_bytes": [1048576], "bandwidth:DDR->GB": [68], "rate:MME:f16": [512], "lb_bytes": [4096]}}})");
    ASSERT_TRUE(checkAxes(*base, spec, "s.json").ok());
    SweepPoint point = expandPoints(spec)[0];
    // axes in key order: bandwidth, gb_bytes, lb_bytes, rate; lb_bytes 4096 is below the
    // 8 KiB weight reserve, so the variant is refused as a file would be.
    Expected<arch::Arch> refused = archVariant(*base, spec, point);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(containsText(refused.error().message(), "lb_bytes=4096"));
    point.archValues[2] = 131072;
    Expected<arch::Arch> variant = archVariant(*base, spec, point);
    ASSERT_TRUE(variant.ok()) << variant.error().message();
    EXPECT_EQ(variant->cluster.globalBuffer->bytes, 1048576);
    EXPECT_EQ(variant->cluster.coreGroups[0].localBuffer->bytes, 131072);
    const arch::Path* ddr = arch::findPath(*variant, arch::Memory::DDR, arch::Memory::GB);
    ASSERT_NE(ddr, nullptr);
    EXPECT_DOUBLE_EQ(ddr->bandwidthGBps, 68);
    // The energy table follows the sizes (docs/arch.md's SRAM rule): the LB
    // doubled from 64 KiB reads at sqrt(2) its energy per byte and leaks
    // twice as much; the GB at 1/8 of its 8 MiB, sqrt(1/8) and 1/8.
    const auto& before = base->energy->memories;
    const auto& after = variant->energy->memories;
    EXPECT_DOUBLE_EQ(after.at(arch::Memory::LB).readPjPerByte,
                     before.at(arch::Memory::LB).readPjPerByte * std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(after.at(arch::Memory::LB).staticMw, before.at(arch::Memory::LB).staticMw * 2);
    EXPECT_DOUBLE_EQ(after.at(arch::Memory::GB).writePjPerByte,
                     before.at(arch::Memory::GB).writePjPerByte * std::sqrt(0.125));
    EXPECT_DOUBLE_EQ(after.at(arch::Memory::GB).staticMw,
                     before.at(arch::Memory::GB).staticMw * 0.125);
    EXPECT_EQ(after.at(arch::Memory::DDR), before.at(arch::Memory::DDR));

    SweepSpec bad = parsed(R"({"models": ["zoo:a"], "arch": {"vary": {"rate:NPU:f16": [1]}}})");
    EXPECT_EQ(checkAxes(*base, bad, "s.json").error().message(),
              "s.json: arch.vary.rate:NPU:f16: names no number of 'stcp920' (see 'stagecraft "
              "arch stcp920 --json')");
    SweepSpec half = parsed(R"({"models": ["zoo:a"], "arch": {"vary": {"clusters": [1.5]}}})");
    std::string refusal = archVariant(*base, half, expandPoints(half)[0]).error().message();
    EXPECT_TRUE(containsText(refusal, "clusters=1.5")) << refusal;
    EXPECT_TRUE(containsText(refusal, "clusters: must be a positive integer (got 1.5)")) << refusal;
    // The schema types the field, not the preset's spelling ("clock_ghz": 1).
    SweepSpec clock = parsed(R"({"models": ["zoo:a"], "arch": {"vary": {"clock_ghz": [1.5]}}})");
    Expected<arch::Arch> faster = archVariant(*base, clock, expandPoints(clock)[0]);
    ASSERT_TRUE(faster.ok()) << faster.error().message();
    EXPECT_DOUBLE_EQ(faster->clockGhz, 1.5);
}

TEST(SweepRecords, TornLinesAreDroppedAndForeignRecordsRefused) {
    TempDir dir;
    SweepSpec spec =
        parsed(R"({"models": ["zoo:a"], "strategies": ["tvm", "astitch", "graphturbo"]})");
    std::vector<SweepPoint> points = expandPoints(spec);
    PointResult ok;
    ok.levelUsed = "GB";
    ok.latencyMs = 2.5;
    ok.totalBatch = 4;
    ok.perCluster = 1;
    ok.kernels = 3;
    ok.throughput = 1600;
    ok.rooflineMs = 1.25;
    ok.efficiency = 0.5;
    PointResult failed;
    failed.error = "a, \"quoted\" reason";
    std::string file = dir.filePath("r.jsonl");
    {
        Expected<RecordAppender> out = RecordAppender::open(file);
        ASSERT_TRUE(out.ok());
        ASSERT_TRUE(out->append(recordLine(spec, points[2], ok)).ok());
        ASSERT_TRUE(out->append(recordLine(spec, points[0], failed)).ok());
    }
    std::ofstream(file, std::ios::app) << R"({"point":1,"key":"mod)"; // killed mid-line
    Records records;
    int64_t torn = 0;
    ASSERT_TRUE(readRecords(file, spec, points, records, torn).ok());
    EXPECT_EQ(torn, 1);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_TRUE(recordFailed(records.at(0)));
    EXPECT_FALSE(recordFailed(records.at(2)));
    std::string csv = recordsCsv(spec, records);
    EXPECT_TRUE(containsText(csv, "\"a, \"\"quoted\"\" reason\"")) << csv;
    EXPECT_TRUE(containsText(csv, ",2.5,")) << csv;

    // Appending again first cuts the torn line off.
    {
        Expected<RecordAppender> out = RecordAppender::open(file);
        ASSERT_TRUE(out.ok());
        ASSERT_TRUE(out->append(recordLine(spec, points[1], ok)).ok());
    }
    records.clear();
    torn = 0;
    ASSERT_TRUE(readRecords(file, spec, points, records, torn).ok());
    EXPECT_EQ(torn, 0);
    EXPECT_EQ(records.size(), 3u);

    SweepSpec other =
        parsed(R"({"models": ["zoo:b"], "strategies": ["tvm", "astitch", "graphturbo"]})");
    Records none;
    Status refused = readRecords(file, other, expandPoints(other), none, torn);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(
        containsText(refused.error().message(), "r.jsonl:1: the record of another sweep spec"));
}

/// A record whose figures no simulation writes (a negative latency, a
/// throughput that is not the batch over the latency, an infinity) is
/// refused with its file and line, not taken into the Pareto front
/// (issue 60).
TEST(SweepRecords, FiguresNoSimulationWritesAreRefused) {
    TempDir dir;
    SweepSpec spec = parsed(R"({"models": ["zoo:a"], "strategies": ["tvm"]})");
    std::vector<SweepPoint> points = expandPoints(spec);
    PointResult ok;
    ok.levelUsed = "LB";
    ok.totalBatch = 4;
    ok.perCluster = 1;
    ok.kernels = 3;
    ok.latencyMs = 2;
    ok.throughput = 2000;
    ok.rooflineMs = 1;
    ok.efficiency = 0.5;
    auto refusalOf = [&](PointResult r) {
        std::string file = dir.filePath("bad.jsonl");
        std::ofstream(file, std::ios::trunc) << recordLine(spec, points[0], r) << "\n";
        Records records;
        int64_t torn = 0;
        Status read = readRecords(file, spec, points, records, torn);
        return read.ok() ? std::string("accepted") : read.error().message();
    };
    EXPECT_EQ(refusalOf(ok), "accepted");
    PointResult negative = ok;
    negative.latencyMs = -1;
    EXPECT_TRUE(containsText(refusalOf(negative),
                             "bad.jsonl:1: point 0: 'latency_ms' is -1.0, not a positive finite "
                             "number"))
        << refusalOf(negative);
    PointResult huge = ok;
    huge.throughput = 1e308;
    EXPECT_TRUE(containsText(refusalOf(huge), "'throughput' is 1e+308 where 'total_batch' over "
                                              "'latency_ms' is 2000"))
        << refusalOf(huge);
}

/// A record is what recordLine writes for its key's point: its columns the
/// point's, no other fields, whole counts, a level used (or none), a reason
/// when it failed (issue 60; found by the sweep_records fuzz harness: such
/// records were taken into the CSV, the Pareto front and Studio's table).
TEST(SweepRecords, ColumnsAreTheKeysPointAndFiguresASimulations) {
    SweepSpec spec = parsed(R"({"models": ["zoo:a"], "strategies": ["tvm"]})");
    std::vector<SweepPoint> points = expandPoints(spec);
    PointResult ok;
    ok.levelUsed = "LB";
    ok.totalBatch = 4;
    ok.kernels = 3;
    ok.latencyMs = 2;
    ok.throughput = 2000;
    ok.rooflineMs = 1;
    PointResult failed;
    failed.error = "x";
    auto refusalOf = [&](const PointResult& r, const std::string& from, const std::string& to) {
        std::string line = recordLine(spec, points[0], r);
        size_t at = line.find(from);
        EXPECT_NE(at, std::string::npos) << from << " in " << line;
        if (at != std::string::npos)
            line.replace(at, from.size(), to);
        Records records;
        int64_t torn = 0;
        Status read = parseRecords(line + "\n", "r.jsonl", spec, points, records, torn);
        return read.ok() ? std::string("accepted") : read.error().message();
    };
    EXPECT_EQ(refusalOf(ok, "", ""), "accepted");
    EXPECT_EQ(refusalOf(ok, R"("model":"zoo:a")", R"("model":"zoo:b")"),
              R"(r.jsonl:1: point 0: 'model' is "zoo:b", not its point's "zoo:a")");
    EXPECT_EQ(refusalOf(ok, R"("seq":0,)", ""),
              "r.jsonl:1: point 0: 'seq' is missing, not its point's 0");
    EXPECT_EQ(refusalOf(ok, R"("status":"ok")", R"("status":"ok","colour":1)"),
              "r.jsonl:1: point 0: unknown field 'colour'");
    EXPECT_EQ(refusalOf(ok, R"("status":"ok")", R"("status":"ok","error":"x")"),
              "r.jsonl:1: point 0: unknown field 'error'");
    EXPECT_EQ(refusalOf(failed, R"("error":"x")", R"("error":"x","kernels":3)"),
              "r.jsonl:1: point 0: unknown field 'kernels'");
    EXPECT_EQ(refusalOf(failed, R"("error":"x")", R"("error":"")"),
              "r.jsonl:1: point 0: a failed point says no error");
    EXPECT_EQ(refusalOf(ok, R"("level_used":"LB")", R"("level_used":"")"), "accepted"); // tvm
    EXPECT_EQ(refusalOf(ok, R"("level_used":"LB")", R"("level_used":"L3")"),
              "r.jsonl:1: point 0: 'level_used' must be \"LB\", \"GB\" or \"\" (a strategy that "
              "fills none)");
    EXPECT_EQ(refusalOf(ok, R"("kernels":3)", R"("kernels":3.5)"),
              "r.jsonl:1: point 0: 'kernels' must be a whole number from 0 (got 3.5)");
    EXPECT_EQ(refusalOf(ok, R"("total_batch":4)", R"("total_batch":18446744073709551615)"),
              "r.jsonl:1: point 0: 'total_batch' must be a whole number from 0 (got "
              "18446744073709551615)");
    EXPECT_EQ(refusalOf(ok, R"("latency_ms":2.0)", R"("latency_ms":1e-310)"),
              "r.jsonl:1: point 0: 'total_batch' over 'latency_ms' is no finite throughput");
}

TEST(SweepPareto, KeepsThePointsNothingBeatsOnBoth) {
    SweepSpec spec = parsed(
        R"({"models": ["zoo:a"], "arch": {"vary": {"gb_bytes": [1, 2, 3, 4, 5]}}, "strategies": ["tvm"]})");
    std::vector<SweepPoint> points = expandPoints(spec);
    // (gb_bytes, latency): (1, 9) (2, 5) (3, 6) (4, 5) (5, 1): 3 is beaten by 2, 4 by 2.
    double latency[] = {9, 5, 6, 5, 1};
    Records records;
    for (size_t i = 0; i < points.size(); ++i) {
        PointResult r;
        r.latencyMs = latency[i];
        records[static_cast<int64_t>(i)] = recordLine(spec, points[i], r);
    }
    PointResult failed;
    failed.error = "x";
    Expected<std::vector<Objective>> objectives = parseObjectives("gb_bytes,latency_ms");
    ASSERT_TRUE(objectives.ok());
    Expected<std::vector<int64_t>> front = paretoFront(records, *objectives);
    ASSERT_TRUE(front.ok());
    EXPECT_EQ(*front, (std::vector<int64_t>{0, 1, 4}));

    Expected<std::vector<Objective>> maxed = parseObjectives("max:gb_bytes, latency_ms");
    ASSERT_TRUE(maxed.ok());
    EXPECT_EQ(*paretoFront(records, *maxed), (std::vector<int64_t>{4}));
    EXPECT_TRUE((*parseObjectives("throughput,latency_ms"))[0].maximize);
    EXPECT_FALSE(parseObjectives("latency_ms").ok());
    Expected<std::vector<int64_t>> unknown = paretoFront(records, *parseObjectives("x,latency_ms"));
    ASSERT_FALSE(unknown.ok());
    EXPECT_TRUE(containsText(unknown.error().message(), "'x' is not a numeric column"));
}

} // namespace
} // namespace stagecraft::sweep
