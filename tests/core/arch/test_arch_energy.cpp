// The `energy` section of an architecture (docs/arch.md, "Energy"): every
// preset carries one and round-trips; a file without it still loads, its
// energy unset (reported as unknown); a table that misses or invents a unit,
// level or path, or gives a figure out of range, is refused naming the field.

#include "arch/arch_json.h"
#include "arch/host_cpu.h"
#include "arch/presets.h"
#include "coretestsupport.h"

#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::arch;

namespace {

template <typename T>
std::string message(const T& result) {
    return result.ok() ? std::string() : result.error().message();
}

const char* const kArch = R"({
  "format": "stagecraft-arch", "version": 1, "name": "e", "clock_ghz": 1, "clusters": 1,
  "cluster": {
    "core_groups": [ { "name": "core", "count": 2,
      "local_buffer": { "name": "LB", "bytes": 16384 },
      "units": [ { "name": "vec", "kind": "vector", "categories": ["elementwise"],
                   "ops_per_cycle": { "f32": 8, "f16": 16 } } ] } ],
    "global_buffer": { "name": "GB", "bytes": 1048576 }
  },
  "ddr": { "name": "DDR", "bytes": 1073741824 },
  "paths": [ { "from": "DDR", "to": "GB", "bandwidth_gbps": 16, "latency_ns": 100 },
             { "from": "GB", "to": "LB", "bandwidth_gbps": 64, "latency_ns": 10 } ],
  "overheads": { "kernel_launch_ns": 1000, "sync_ns": 100 }
  ENERGY
})";

const char* const kEnergy = R"(, "energy": {
    "source": "test figures",
    "units": { "vec": { "pj_per_op": { "f32": 0.9, "f16": 0.4 }, "static_mw": 3 } },
    "memories": {
      "LB": { "read_pj_per_byte": 1.25, "write_pj_per_byte": 1.5, "static_mw": 1 },
      "GB": { "read_pj_per_byte": 14, "write_pj_per_byte": 15, "static_mw": 2 },
      "DDR": { "read_pj_per_byte": 120, "write_pj_per_byte": 130, "static_mw": 50 } },
    "paths": [ { "from": "DDR", "to": "GB", "pj_per_byte": 0.8 },
               { "from": "GB", "to": "LB", "pj_per_byte": 0.4 } ] })";

std::string withEnergy(const std::string& energy) {
    std::string text = kArch;
    return text.replace(text.find("ENERGY"), 6, energy);
}

/// kEnergy with \p from replaced by \p to (which must be there once).
std::string changed(const std::string& from, const std::string& to) {
    std::string energy = kEnergy;
    size_t at = energy.find(from);
    SC_ASSERT(at != std::string::npos, "the change applies");
    return withEnergy(energy.replace(at, from.size(), to));
}

} // namespace

TEST(TestArchEnergy, sectionReadsAndRoundTrips) {
    auto arch = parseArch(withEnergy(kEnergy), "e.json");
    ASSERT_TRUE(arch.ok()) << message(arch);
    ASSERT_TRUE(arch->energy.has_value());
    EXPECT_EQ(arch->energy->units.at("vec").pjPerOp.at(ir::DType::Float16), 0.4);
    EXPECT_EQ(arch->energy->memories.at(Memory::DDR).writePjPerByte, 130);
    auto again = parseArch(toJson(*arch), "again.json");
    ASSERT_TRUE(again.ok()) << message(again);
    EXPECT_EQ(*again, *arch);
}

TEST(TestArchEnergy, withoutTheSectionEnergyIsUnset) {
    auto arch = parseArch(withEnergy(""), "e.json");
    ASSERT_TRUE(arch.ok()) << message(arch);
    EXPECT_FALSE(arch->energy.has_value());
    EXPECT_EQ(toJson(*arch).find("\"energy\""), std::string::npos);
}

TEST(TestArchEnergy, everyPresetHasASourcedTable) {
    for (const std::string& name : presetNames()) {
        if (name == kHostCpuPreset)
            continue;
        auto arch = loadPreset(name);
        ASSERT_TRUE(arch.ok()) << message(arch);
        ASSERT_TRUE(arch->energy.has_value()) << name;
        EXPECT_NE(arch->energy->source.find("Horowitz"), std::string::npos) << name;
    }
}

struct EnergyErrorRow {
    const char* name;
    std::string text;
    const char* error;
};

class EnergyErrorRows : public ::testing::TestWithParam<EnergyErrorRow> {};

TEST_P(EnergyErrorRows, refusedNamingTheField) {
    auto arch = parseArch(GetParam().text, "e.json");
    ASSERT_FALSE(arch.ok());
    EXPECT_EQ(arch.error().message(), std::string("e.json: ") + GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    TestArchEnergy, EnergyErrorRows,
    ::testing::Values(
        EnergyErrorRow{"unitMissing", changed(R"("vec": {)", R"("other": {)"),
                       "energy.units: no entry for unit 'vec'"},
        EnergyErrorRow{"dtypeMissing", changed(R"("f32": 0.9, )", ""),
                       "energy.units.vec.pj_per_op: no entry for f32, which the unit runs"},
        EnergyErrorRow{
            "levelMissing",
            changed(
                R"("LB": { "read_pj_per_byte": 1.25, "write_pj_per_byte": 1.5, "static_mw": 1 },)",
                ""),
            "energy.memories: no entry for LB"},
        EnergyErrorRow{"pathMissing",
                       changed(R"(,
               { "from": "GB", "to": "LB", "pj_per_byte": 0.4 })",
                               ""),
                       "energy.paths: needs exactly one entry for the path GB->LB (has 0)"},
        EnergyErrorRow{"pathUnknown",
                       changed(R"("from": "GB", "to": "LB")", R"("from": "LB", "to": "LB")"),
                       "energy.paths: needs exactly one entry for the path GB->LB (has 0)"},
        EnergyErrorRow{"negative", changed(R"("static_mw": 50)", R"("static_mw": -5)"),
                       "energy.memories.DDR.static_mw: must be from 0 to 1e+09 (got -5)"},
        EnergyErrorRow{"notANumber", changed(R"("pj_per_byte": 0.8)", R"("pj_per_byte": "0.8")"),
                       "energy.paths[0].pj_per_byte: must be a non-negative number (got \"0.8\")"},
        EnergyErrorRow{
            "unknownField",
            changed(R"("source": "test figures",)", R"("source": "test figures", "sauce": 1,)"),
            "energy: unknown field 'sauce'"},
        EnergyErrorRow{"noSource", changed(R"("source": "test figures")", R"("source": "")"),
                       "energy.source: must say where the figures come from"},
        EnergyErrorRow{
            "fallbackWithoutCpu",
            changed(R"("paths": [)",
                    R"("fallback_cpu": { "pj_per_op": 20, "static_mw": 1 }, "paths": [)"),
            "energy.fallback_cpu: the architecture has no fallback CPU"}),
    [](const ::testing::TestParamInfo<EnergyErrorRow>& row) { return row.param.name; });
