// Energy by hand (docs/simulator.md, "Energy"): the chain of two
// elementwise ops of test_sim_cases on the hand architecture, priced with
// figures far apart so that every action's count shows. 4 KiB come in
// DDR->GB->LB, 2 x 1024 element operations run on the vector unit, the
// layer reads its 4 KiB operand from LB and writes its 4 KiB result there,
// and 4 KiB go out LB->GB->DDR, over a run of 12022 ns.

#include "hand_cases.h"

using namespace stagecraft;
using namespace stagecraft::test::handcases;
using A = sim::EnergyAction;

namespace {

arch::Arch pricedHandArch() {
    arch::Arch a = handArch();
    arch::EnergyModel e;
    e.source = "hand figures";
    e.units["vector"] = {
        {{ir::DType::Float32, 2}, {ir::DType::Float16, 1}, {ir::DType::BFloat16, 1}}, 1};
    e.units["matrix"] = {
        {{ir::DType::Float32, 3}, {ir::DType::Float16, 1}, {ir::DType::BFloat16, 1}}, 2};
    e.memories[arch::Memory::LB] = {10, 20, 4};
    e.memories[arch::Memory::GB] = {100, 200, 8};
    e.memories[arch::Memory::DDR] = {1000, 2000, 16};
    e.paths = {{arch::Memory::DDR, arch::Memory::GB, 5}, {arch::Memory::GB, arch::Memory::LB, 7}};
    a.energy = e;
    return a;
}

} // namespace

TEST(TestSimEnergy, chainOfTwoElementwiseOpsByHand) {
    sim::Evaluation ev = runOn(pricedHandArch(), twoElementwise(), "tvm");
    ASSERT_FUZZY_EQ(ev.sim.makespanNs, 12022.0);
    ASSERT_TRUE(ev.report.energy.has_value());
    const sim::Energy& e = ev.report.energy->run;
    const double bytes = 4096;
    EXPECT_DOUBLE_EQ(e.at(A::ComputeVector), 2048 * 2.0);
    EXPECT_DOUBLE_EQ(e.at(A::ComputeMatrix), 0);
    // LB: the load writes, the layer reads; the layer writes, the store reads.
    EXPECT_DOUBLE_EQ(e.at(A::LbRead), 2 * bytes * 10);
    EXPECT_DOUBLE_EQ(e.at(A::LbWrite), 2 * bytes * 20);
    // GB: written from DDR and read towards LB on the way in, the reverse out.
    EXPECT_DOUBLE_EQ(e.at(A::GbRead), 2 * bytes * 100);
    EXPECT_DOUBLE_EQ(e.at(A::GbWrite), 2 * bytes * 200);
    EXPECT_DOUBLE_EQ(e.at(A::DdrRead), bytes * 1000);
    EXPECT_DOUBLE_EQ(e.at(A::DdrWrite), bytes * 2000);
    EXPECT_DOUBLE_EQ(e.at(A::DdrLink), 2 * bytes * 5);
    EXPECT_DOUBLE_EQ(e.at(A::ChipLink), 2 * bytes * 7);
    // Leakage: one core's two units (1 + 2 mW) and LB (4), the GB (8), DDR
    // (16) over 12022 ns; mW x ns = pJ.
    EXPECT_DOUBLE_EQ(ev.report.energy->staticMw, 31);
    EXPECT_DOUBLE_EQ(e.at(A::StaticCompute), 3 * 12022.0);
    EXPECT_DOUBLE_EQ(e.at(A::StaticLb), 4 * 12022.0);
    EXPECT_DOUBLE_EQ(e.at(A::StaticGb), 8 * 12022.0);
    EXPECT_DOUBLE_EQ(e.at(A::StaticDdr), 16 * 12022.0);
    double dynamic = 4096 + bytes * (60 + 600 + 3000 + 24);
    EXPECT_DOUBLE_EQ(e.dynamicPj(), dynamic);
    ASSERT_TRUE(ev.report.edpMjMs().has_value());
    EXPECT_DOUBLE_EQ(*ev.report.edpMjMs(), e.totalPj() * 1e-9 * 12022e-6);
}

// The conv of oneConv: 8 x 8 x 8 outputs of 4 x 3 x 3 MACs = 18432 MACs on
// the matrix unit, at 3 pJ in f32 and 1 pJ in f16.
TEST(TestSimEnergy, contractionsArePricedAtTheirPrecision) {
    for (auto [precision, pj] : {std::pair{ir::DType::Float32, 3.0}, {ir::DType::Float16, 1.0}}) {
        auto graph = ir::convertPrecision(oneConv(), precision);
        ASSERT_TRUE(graph.ok());
        sim::Evaluation ev = runOn(pricedHandArch(), *graph, "tvm");
        EXPECT_DOUBLE_EQ(ev.report.energy->run.at(A::ComputeMatrix), 18432 * pj);
    }
}

TEST(TestSimEnergy, unknownWithoutATable) {
    sim::Evaluation ev = run(twoElementwise(), "tvm");
    EXPECT_FALSE(ev.report.energy.has_value());
    EXPECT_FALSE(ev.report.energyMj().has_value());
    EXPECT_FALSE(ev.report.edpMjMs().has_value());
}
