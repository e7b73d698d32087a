// ONNX import: values given with --value, and the nodes inference rewrites
// once it knows enough (node_rewrite.h): If folded to a branch, Loop and
// Scan unrolled, Compress with a known condition, Einsum as MatMuls, a
// legacy PRelu's per-channel slope.

#include "import_helpers.h"

using namespace stagecraft;
using namespace stagecraft::onnxio;
using ir::DType;
using stagecraft::test::contains;
using stagecraft::test::opHistogram;

namespace {

test::ImportFixture fixture;

/// y = If(sr == 16000) then x * 2 (a branch initializer, x read from the
/// outer scope) else x + x, or, with \p otherShape, Concat(x, x): a branch
/// with another output shape.
ModelBuilder ifModel(bool otherShape = false) {
    ModelBuilder thenBranch("then", 13);
    thenBranch.addFloatInitializer("two", {}, {2.0f});
    thenBranch.addNode("Mul", {"x", "two"}, {"doubled"});
    thenBranch.addOutput("doubled", DType::Float32, {int64_t{4}});
    ModelBuilder elseBranch("else", 13);
    if (otherShape) {
        elseBranch.addNode("Concat", {"x", "x"}, {"twice"}).attr("axis", int64_t{0});
        elseBranch.addOutput("twice", DType::Float32, {int64_t{8}});
    } else {
        elseBranch.addNode("Add", {"x", "x"}, {"twice"});
        elseBranch.addOutput("twice", DType::Float32, {int64_t{4}});
    }
    ModelBuilder m("if", 13);
    m.addInput("x", DType::Float32, {int64_t{4}});
    m.addInput("sr", DType::Int64, {});
    m.addConstantInt64("rate", {}, {16000});
    m.addNode("Equal", {"sr", "rate"}, {"is16k"});
    m.addNode("If", {"is16k"}, {"y"}, "pick")
        .attr("then_branch", thenBranch)
        .attr("else_branch", elseBranch);
    m.addNode("Relu", {"y"}, {"z"});
    m.addOutput("z", DType::Float32, {}, false);
    if (!otherShape)
        m.addValueInfo("y", DType::Float32, {int64_t{4}});
    return m;
}

ImportOptions withValue(const std::string& text) {
    ImportOptions options;
    Status added = addValueBinding(options, text);
    if (!added.ok())
        test::fatal("%s", added.error().message().c_str());
    return options;
}

std::string warningsOf(const ImportResult& result) {
    std::string all;
    for (const std::string& w : result.warnings)
        all += w + "\n";
    return all;
}

} // namespace

TEST(TestImportRewrites, anIfFoldsToTheBranchItsGivenConditionTakes) {
    auto taken = fixture.import(ifModel(), withValue("sr=16000"));
    ASSERT_TRUE(taken.ok()) << taken.error().message();
    auto ops = opHistogram(taken->graph);
    EXPECT_EQ(ops.count("If"), 0u);
    EXPECT_EQ(ops["Mul"], 1);
    EXPECT_EQ(ops.count("Add"), 0u);
    EXPECT_TRUE(contains(warningsOf(*taken), "op 'pick' (If): its condition is true"));
    EXPECT_TRUE(contains(warningsOf(*taken), "input 'sr'"));
    EXPECT_EQ(taken->boundValues.at("sr").toInt64s(), std::vector<int64_t>{16000});

    auto other = fixture.import(ifModel(), withValue("sr=8000"));
    ASSERT_TRUE(other.ok()) << other.error().message();
    EXPECT_EQ(opHistogram(other->graph)["Add"], 1);
    EXPECT_EQ(opHistogram(other->graph).count("Mul"), 0u);
}

TEST(TestImportRewrites, anIfWithoutItsValueStaysOpaqueOrIsRefusedNamingTheValue) {
    auto opaque = fixture.import(ifModel());
    ASSERT_TRUE(opaque.ok()) << opaque.error().message();
    EXPECT_EQ(opHistogram(opaque->graph)["If"], 1);
    EXPECT_TRUE(contains(warningsOf(*opaque), "computed at run time from input 'sr'"));
    EXPECT_TRUE(contains(warningsOf(*opaque), "--value sr=V"));

    auto refused = fixture.import(ifModel(true));
    ASSERT_FALSE(refused.ok());
    const std::string& message = refused.error().message();
    EXPECT_TRUE(contains(message, "op 'pick' (If)")) << message;
    EXPECT_TRUE(contains(message, "cannot be made static")) << message;
    EXPECT_TRUE(contains(message, "give --value sr=V")) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST(TestImportRewrites, badValuesAreOneLineErrors) {
    struct Case {
        std::string flag;
        std::string expected;
    };
    for (const Case& c : {Case{"sr=abc", "'abc' is not an integer (input 'sr' is i64)"},
                          Case{"sr=1,2", "gives 2 values but input 'sr' has shape scalar"},
                          Case{"rate=3", "--value names 'rate', which is not an input"},
                          Case{"x=1,2,3", "gives 3 values but input 'x' has shape 4"},
                          Case{"x=1,2,3,y", "'y' is not a number"}}) {
        auto result = fixture.import(ifModel(), withValue(c.flag));
        ASSERT_FALSE(result.ok()) << c.flag;
        EXPECT_TRUE(contains(result.error().message(), c.expected)) << result.error().message();
    }
    ImportOptions options;
    EXPECT_FALSE(addValueBinding(options, "sr").ok());
    EXPECT_FALSE(addValueBinding(options, "=3").ok());
    EXPECT_FALSE(addValueBinding(options, "sr=1,,2").ok());
    EXPECT_TRUE(addValueBinding(options, "sr=1").ok());
    EXPECT_FALSE(addValueBinding(options, "sr=2").ok()); // conflicts, never "last one wins"
}

TEST(TestImportRewrites, valuesFitTheirInputsTypes) {
    ModelBuilder m("types", 13);
    m.addInput("small", DType::Int8, {});
    m.addInput("flag", DType::Bool, {});
    m.addNode("Cast", {"small"}, {"wide"}).attr("to", int64_t{1});
    m.addNode("Not", {"flag"}, {"notFlag"});
    m.addOutput("wide", DType::Float32, {});
    m.addOutput("notFlag", DType::Bool, {});
    ImportOptions good = withValue("small=-128");
    ASSERT_TRUE(addValueBinding(good, "flag=true").ok());
    auto ok = fixture.import(m, good);
    ASSERT_TRUE(ok.ok()) << ok.error().message();
    EXPECT_EQ(ok->boundValues.at("small").toInt64s(), std::vector<int64_t>{-128});
    EXPECT_EQ(ok->boundValues.at("flag").toInt64s(), std::vector<int64_t>{1});
    auto out = fixture.import(m, withValue("small=128"));
    ASSERT_FALSE(out.ok());
    EXPECT_TRUE(contains(out.error().message(), "'128' is out of the range of i8"));
    auto notBool = fixture.import(m, withValue("flag=yes"));
    ASSERT_FALSE(notBool.ok());
    EXPECT_TRUE(contains(notBool.error().message(), "is not a bool"));
}

TEST(TestImportRewrites, aScalarInputIsBoundByShapeOrByValue) {
    ModelBuilder m("scalar", 13);
    m.addInput("s", DType::Float32, {});
    m.addInput("k", DType::Float32, {std::string("n")});
    m.addNode("Mul", {"k", "s"}, {"y"});
    m.addOutput("y", DType::Float32, {}, false);
    ImportOptions byShape;
    ASSERT_TRUE(addInputBinding(byShape, "s:scalar").ok());
    ASSERT_TRUE(addInputBinding(byShape, "k:3").ok());
    auto shaped = fixture.import(m, byShape);
    ASSERT_TRUE(shaped.ok()) << shaped.error().message();
    EXPECT_TRUE(test::tensorNamed(shaped->graph, "s").shape.empty());
    ImportOptions wrongRank;
    ASSERT_TRUE(addInputBinding(wrongRank, "s:1").ok());
    auto refused = fixture.import(m, wrongRank);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(contains(refused.error().message(), "but input 's' has rank 0 (scalar)"))
        << refused.error().message();
    auto valued = fixture.import(m, withValue("k=1,2,3"));
    ASSERT_TRUE(valued.ok()) << valued.error().message();
    EXPECT_EQ(test::tensorNamed(valued->graph, "k").shape, ir::Shape{3});
}

TEST(TestImportRewrites, aLoopWithAKnownTripCountIsUnrolled) {
    // body(i, cond, acc): acc + x, scan output acc + x; cond passed on.
    ModelBuilder body("body", 13);
    body.addInput("i", DType::Int64, {});
    body.addInput("cond_in", DType::Bool, {});
    body.addInput("acc", DType::Float32, {int64_t{2}});
    body.addNode("Identity", {"cond_in"}, {"cond_out"});
    body.addNode("Add", {"acc", "x"}, {"next"});
    body.addNode("Identity", {"next"}, {"row"});
    body.addOutput("cond_out", DType::Bool, {});
    body.addOutput("next", DType::Float32, {int64_t{2}});
    body.addOutput("row", DType::Float32, {int64_t{2}});
    ModelBuilder m("loop", 13);
    m.addInput("x", DType::Float32, {int64_t{2}});
    m.addInput("trips", DType::Int64, {});
    m.addFloatInitializer("zero", {2}, {0.0f, 0.0f});
    m.addNode("Loop", {"trips", "", "zero"}, {"sum", "rows"}, "repeat").attr("body", body);
    m.addOutput("sum", DType::Float32, {int64_t{2}});
    m.addOutput("rows", DType::Float32, {}, false);

    auto unrolled = fixture.import(m, withValue("trips=3"));
    ASSERT_TRUE(unrolled.ok()) << unrolled.error().message();
    auto ops = opHistogram(unrolled->graph);
    EXPECT_EQ(ops.count("Loop"), 0u);
    EXPECT_EQ(ops["Add"], 3);
    EXPECT_EQ(ops["Concat"], 1);
    EXPECT_EQ(test::tensorNamed(unrolled->graph, "rows").shape, (ir::Shape{3, 2}));
    EXPECT_TRUE(contains(warningsOf(*unrolled), "op 'repeat' (Loop): unrolled, its 3 iterations"));

    auto open = fixture.import(m);
    ASSERT_FALSE(open.ok());
    EXPECT_TRUE(contains(open.error().message(), "op 'repeat' (Loop) has a trip count computed "
                                                 "at run time from input 'trips'"))
        << open.error().message();
    EXPECT_TRUE(contains(open.error().message(), "give --value trips=V to unroll it"));

    auto tooLong = fixture.import(m, withValue("trips=100000"));
    ASSERT_FALSE(tooLong.ok());
    EXPECT_TRUE(contains(tooLong.error().message(), "runs 100000 times, which is not unrolled"))
        << tooLong.error().message();
}

TEST(TestImportRewrites, compressWithAGivenConditionBecomesAGather) {
    ModelBuilder m("compress", 13);
    m.addInput("x", DType::Float32, {int64_t{3}, int64_t{2}});
    m.addInput("keep", DType::Bool, {int64_t{3}});
    m.addNode("Compress", {"x", "keep"}, {"y"}).attr("axis", int64_t{0});
    m.addOutput("y", DType::Float32, {}, false);
    auto picked = fixture.import(m, withValue("keep=1,0,1"));
    ASSERT_TRUE(picked.ok()) << picked.error().message();
    EXPECT_EQ(opHistogram(picked->graph)["Gather"], 1);
    EXPECT_EQ(test::tensorNamed(picked->graph, "y").shape, (ir::Shape{2, 2}));
    auto open = fixture.import(m);
    ASSERT_FALSE(open.ok());
    EXPECT_TRUE(contains(open.error().message(), "decides its output shape"));
    EXPECT_TRUE(contains(open.error().message(), "give --value keep=V"));
}

TEST(TestImportRewrites, einsumBecomesBatchedMatMuls) {
    ModelBuilder m("einsum", 13);
    m.addInput("q", DType::Float32, {int64_t{2}, int64_t{4}, int64_t{5}, int64_t{8}});
    m.addInput("k", DType::Float32, {int64_t{2}, int64_t{4}, int64_t{6}, int64_t{8}});
    m.addNode("Einsum", {"q", "k"}, {"scores"}).attr("equation", "bhqd,bhkd->bhqk");
    m.addOutput("scores", DType::Float32, {}, false);
    auto result = fixture.import(m);
    ASSERT_TRUE(result.ok()) << result.error().message();
    auto ops = opHistogram(result->graph);
    EXPECT_EQ(ops.count("Einsum"), 0u);
    EXPECT_EQ(ops["MatMul"], 1);
    EXPECT_EQ(test::tensorNamed(result->graph, "scores").shape, (ir::Shape{2, 4, 5, 6}));

    ModelBuilder bad("einsum", 13);
    bad.addInput("a", DType::Float32, {int64_t{2}, int64_t{3}});
    bad.addNode("Einsum", {"a"}, {"b"}).attr("equation", "ijk->i");
    bad.addOutput("b", DType::Float32, {}, false);
    auto refused = fixture.import(bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(contains(refused.error().message(),
                         "equation 'ijk->i': term 'ijk' does not match its operand's rank 2"))
        << refused.error().message();
}
