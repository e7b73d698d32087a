// Profiles (docs/codegen.md, "Profiles"): what `run --profile` writes reads
// back equal; figures no measurement gives (negative, inverted, 0 or 2^62
// cores, negative runs) are refused in one line naming the file, the field
// and the kernel; a profile is attached only to the model, strategy and
// kernels it was measured for (issue 60).

#include "codegen/profile.h"
#include "coretestsupport.h"

#include <gtest/gtest.h>

using namespace stagecraft;

namespace {

codegen::Profile measured() {
    codegen::Profile p{"models/fig3.onnx", "host-cpu", "graphturbo", "f32", 2, 10, {}, 5e6};
    p.kernels.push_back({codegen::kernelSymbol(0, "a1"), "a1", 2, 3e6, 2.5e6, 4e6});
    p.kernels.push_back({codegen::kernelSymbol(1, "b1"), "b1", 1, 2e6, 2e6, 2e6});
    return p;
}

/// The error reading \p text gives, or "accepted".
std::string refusal(const std::string& text) {
    auto read = codegen::readProfileJson(text, "p.json");
    return read.ok() ? std::string("accepted") : read.error().message();
}

/// The written profile with the first \p from in it replaced by \p to.
std::string edited(const std::string& from, const std::string& to) {
    std::string text = codegen::writeProfileJson(measured());
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

} // namespace

TEST(TestProfileFile, readsBackWhatItWrites) {
    EXPECT_EQ(codegen::kernelSymbol(3, "b3"), "sc_k003_b3");
    EXPECT_EQ(codegen::kernelSymbol(1234, "z"), "sc_k1234_z");
    auto read = codegen::readProfileJson(codegen::writeProfileJson(measured()), "p.json");
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(*read, measured());
}

TEST(TestProfileFile, figuresNoMeasurementGivesAreRefused) {
    const std::string k0 = "p.json: kernels[0] ('sc_k000_a1')";
    EXPECT_EQ(refusal(edited("\"median_ns\": 3000000.0", "\"median_ns\": -1")),
              k0 + ".median_ns: must be a number of nanoseconds from 0 to 1e15 (got -1)");
    EXPECT_EQ(refusal(edited("\"min_ns\": 2500000.0", "\"min_ns\": 3500000")),
              k0 + ".min_ns: must be at most median_ns, 3000000.0 (got 3500000.0)");
    EXPECT_EQ(refusal(edited("\"max_ns\": 4000000.0", "\"max_ns\": 1")),
              k0 + ".max_ns: must be at least median_ns, 3000000.0 (got 1.0)");
    EXPECT_EQ(refusal(edited("\"max_ns\": 4000000.0", "\"max_ns\": 1e300")),
              k0 + ".max_ns: must be a number of nanoseconds from 0 to 1e15 (got 1e+300)");
    EXPECT_EQ(refusal(edited("\"max_ns\": 4000000.0", "\"max_ns\": \"4e6\"")),
              k0 + ".max_ns: must be a number of nanoseconds from 0 to 1e15 (got \"4e6\")");
    EXPECT_NE(refusal(edited("\"max_ns\": 4000000.0", "\"max_ns\": 1e999"))
                  .find("p.json: not valid JSON: "),
              std::string::npos);
    const std::string cores = ".cores: must be a whole number from 1 to 65536, an "
                              "architecture's most cores per chip";
    EXPECT_EQ(refusal(edited("\"cores\": 2", "\"cores\": 0")), k0 + cores + " (got 0)");
    EXPECT_EQ(refusal(edited("\"cores\": 2", "\"cores\": 4611686018427387904")),
              k0 + cores + " (got 4611686018427387904)");
    EXPECT_EQ(refusal(edited("\"cores\": 2", "\"cores\": 18446744073709551615")),
              k0 + cores + " (got 18446744073709551615)");
    EXPECT_EQ(refusal(edited("\"cores\": 2", "\"cores\": 1.5")), k0 + cores + " (got 1.5)");
    const std::string runs = ", as run --repeat and --warmup take them";
    EXPECT_EQ(refusal(edited("\"repetitions\": 10", "\"repetitions\": -1")),
              "p.json: repetitions: must be a whole number from 1 to 100000" + runs + " (got -1)");
    EXPECT_EQ(refusal(edited("\"warmups\": 2", "\"warmups\": -3")),
              "p.json: warmups: must be a whole number from 0 to 100000" + runs + " (got -3)");
    EXPECT_EQ(refusal(edited("\"total_median_ns\": 5000000.0", "\"total_median_ns\": -5")),
              "p.json: total_median_ns: must be a number of nanoseconds from 0 to 1e15 (got -5)");
}

TEST(TestProfileFile, kernelsAndFieldsAreWhatTheWriterWrites) {
    EXPECT_EQ(refusal(edited("\"order\": 1", "\"order\": 0")),
              "p.json: kernels[1] ('sc_k001_b1').order: must be 1, the kernel's place (got 0)");
    EXPECT_EQ(refusal(edited("\"symbol\": \"sc_k001_b1\"", "\"symbol\": \"sc_k001_a1\"")),
              "p.json: kernels[1] ('sc_k001_a1').symbol: must be 'sc_k001_b1', of kernel 1 and "
              "instance 'b1'");
    EXPECT_EQ(refusal(edited("\"model\": \"models/fig3.onnx\"", "\"model\": 3")),
              "p.json: model: must be a string (got 3)");
    EXPECT_EQ(refusal(edited("\"strategy\": \"graphturbo\",", "")), "p.json: strategy: missing");
    EXPECT_EQ(refusal(edited("\"kernels\": [", "\"kernels\": 1, \"x\": [")),
              "p.json: kernels: must be an array (got 1)");
    EXPECT_EQ(refusal("[]"), "p.json: format: expected \"stagecraft-profile\"");
    EXPECT_EQ(refusal(edited("\"version\": 1", "\"version\": 2")), "p.json: version: expected 1");
}

TEST(TestProfileFile, attachedOnlyToTheProgramItMeasured) {
    codegen::ProfileTarget target{{"/home/u/models/fig3.onnx"},
                                  "graphturbo",
                                  {codegen::kernelSymbol(0, "a1"), codegen::kernelSymbol(1, "b1")}};
    auto check = [&](const codegen::Profile& p, const codegen::ProfileTarget& t) {
        Status fits = codegen::checkProfileTarget(p, t, "p.json");
        return fits.ok() ? std::string("fits") : fits.error().message();
    };
    // `run` records the path as given: a file of the same name is the model.
    EXPECT_EQ(check(measured(), target), "fits");
    codegen::Profile zoo = measured();
    zoo.model = "zoo:fig3-chain";
    EXPECT_EQ(check(zoo, target), "p.json: model: measured for 'zoo:fig3-chain', not the loaded "
                                  "'/home/u/models/fig3.onnx'");
    codegen::ProfileTarget cached = target;
    cached.models = {"/c/zoo/fig3-chain-seq0-b0.v2.onnx", "zoo:fig3-chain"};
    EXPECT_EQ(check(zoo, cached), "fits");
    codegen::Profile other = measured();
    other.model = "models/fig2.onnx";
    EXPECT_NE(check(other, target), "fits");
    other = measured();
    other.strategy = "tvm";
    EXPECT_EQ(check(other, target),
              "p.json: strategy: measured with 'tvm', not the shown schedule's 'graphturbo'");
    codegen::ProfileTarget more = target;
    more.symbols.push_back(codegen::kernelSymbol(2, "c1"));
    EXPECT_EQ(check(measured(), more), "p.json: kernels: 2 measured, the shown schedule has 3");
    more.symbols = {codegen::kernelSymbol(0, "a1"), codegen::kernelSymbol(1, "b2")};
    EXPECT_EQ(check(measured(), more),
              "p.json: kernels[1]: 'sc_k001_b1' where the shown schedule has 'sc_k001_b2'");
}
