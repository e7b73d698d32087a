// IR values: shapes, dtypes, constant tensors, attributes, lazy weights.

#include "coretestsupport.h"
#include "ir/attribute.h"
#include "ir/const_tensor.h"
#include "ir/shape.h"
#include "ir/weight.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>

using namespace stagecraft;
using namespace stagecraft::ir;

struct ParseShapeRow {
    std::string rowLabel;
    std::string text;
    bool ok;
    std::string formatted;
};

std::vector<ParseShapeRow> parseShapeRows() {
    std::vector<ParseShapeRow> rows;
    rows.push_back({"nchw", std::string("1x3x224x224"), true, std::string("1x3x224x224")});
    rows.push_back({"commas", std::string("8,128"), true, std::string("8x128")});
    rows.push_back({"spaces", std::string(" 4 x 5 "), true, std::string("4x5")});
    rows.push_back({"zero dim", std::string("0x3"), true, std::string("0x3")});
    rows.push_back({"negative", std::string("1x-3"), false, std::string("")});
    rows.push_back({"letters", std::string("1xNx3"), false, std::string("")});
    rows.push_back({"empty", std::string(""), false, std::string("")});
    return rows;
}

class ParseShapeRows : public ::testing::TestWithParam<ParseShapeRow> {};

TEST_P(ParseShapeRows, parseShape) {
    std::string text = GetParam().text;
    bool ok = GetParam().ok;
    std::string formatted = GetParam().formatted;
    auto shape = ir::parseShape(text);
    ASSERT_EQ(shape.ok(), ok);
    if (ok) {
        ASSERT_EQ(formatShape(*shape), formatted);
    }
}

INSTANTIATE_TEST_SUITE_P(TestValues, ParseShapeRows, ::testing::ValuesIn(parseShapeRows()),
                         test::RowName{});

TEST(TestValues, stridesAndCounts) {
    ASSERT_EQ(elementCount({2, 3, 4}), int64_t(24));
    ASSERT_EQ(elementCount({}), int64_t(1));
    ASSERT_EQ(rowMajorStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
}

TEST(TestValues, dtypeNamesRoundTrip) {
    for (DType t : {DType::Float32, DType::Float16, DType::BFloat16, DType::Int64, DType::Bool}) {
        auto parsed = parseDType(dtypeName(t));
        ASSERT_TRUE(parsed);
        ASSERT_EQ(*parsed, t);
    }
    ASSERT_EQ(dtypeSize(DType::Float16), int64_t(2));
    ASSERT_TRUE(!parseDType("float128"));
}

TEST(TestValues, halfConversions) {
    for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 3.1415926f}) {
        float back = halfToFloat(floatToHalf(v));
        ASSERT_TRUE(std::fabs(back - v) <= std::fabs(v) * 1e-3f) << v;
    }
    ASSERT_TRUE(std::isinf(halfToFloat(floatToHalf(1e6f))));
    ASSERT_FUZZY_EQ(bfloat16ToFloat(floatToBFloat16(1.5f)), 1.5f);
}

TEST(TestValues, constTensorConversions) {
    std::vector<int64_t> values{1, -2, 3, INT64_MAX};
    auto t = ConstTensor::fromInt64s(DType::Int64, {4}, values);
    ASSERT_EQ(t.toInt64s(), values); // exact beyond 2^53
    auto f = ConstTensor::fromDoubles(DType::Float32, {2}, std::vector<double>{0.5, -1.25});
    ASSERT_EQ(f.toDoubles(), (std::vector<double>{0.5, -1.25}));
    ASSERT_EQ(f.toInt64s(), (std::vector<int64_t>{0, -1}));
}

TEST(TestValues, attributesSortedAndTyped) {
    Attributes a;
    a.set("strides", std::vector<int64_t>{2, 2});
    a.set("group", int64_t{1});
    a.set("alpha", 0.5);
    ASSERT_EQ(a.entries().front().first, std::string("alpha"));
    ASSERT_EQ(a.getInt("group", 7), int64_t(1));
    ASSERT_EQ(a.getInt("missing", 7), int64_t(7));
    ASSERT_EQ(a.getInts("strides"), (std::vector<int64_t>{2, 2}));
    ASSERT_EQ(formatAttrValue(*a.find("strides")), std::string("[2,2]"));
    a.erase("group");
    ASSERT_TRUE(!a.has("group"));
}

TEST(TestValues, externalWeightsAreMappedLazily) {
    test::TempDir dir;
    auto path = std::filesystem::path(dir.path()) / "w.bin";
    {
        std::ofstream out(path, std::ios::binary);
        for (int i = 0; i < 16; ++i)
            out.put(static_cast<char>(i));
    }
    auto weight = makeExternalWeight(path, 4, 8);
    ASSERT_EQ(weight->byteSize(), int64_t(8));
    auto bytes = weight->bytes();
    ASSERT_TRUE(bytes.ok());
    ASSERT_EQ(static_cast<int>((*bytes)[0]), 4);
    ASSERT_EQ(static_cast<int>((*bytes)[7]), 11);

    auto beyond = makeExternalWeight(path, 12, 8);
    auto failed = beyond->bytes();
    ASSERT_TRUE(!failed.ok());
    ASSERT_TRUE(failed.error().message().find("beyond the end") != std::string::npos);

    auto missing = makeExternalWeight(path.parent_path() / "nope.bin", 0, 4);
    ASSERT_TRUE(!missing->bytes().ok());
}

TEST(TestValues, derivedWeightsComputeOnce) {
    int calls = 0;
    auto weight = makeDerivedWeight(2, "test", [&]() -> Expected<std::vector<std::byte>> {
        ++calls;
        return std::vector<std::byte>{std::byte{7}, std::byte{9}};
    });
    ASSERT_EQ(calls, 0);
    ASSERT_TRUE(weight->bytes().ok());
    ASSERT_TRUE(weight->bytes().ok());
    ASSERT_EQ(calls, 1);
    ASSERT_EQ(weight->describe(), std::string("derived (test)"));
}

/// Whether \p weight's bytes start at a cache line and read \p expected.
void expectAlignedBytes(const WeightPtr& weight, const std::vector<std::byte>& expected) {
    auto bytes = weight->bytes();
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(bytes->data()) % 64, 0u);
    ASSERT_EQ(bytes->size(), expected.size());
    EXPECT_TRUE(std::equal(bytes->begin(), bytes->end(), expected.begin()));
}

// The host's kernels read inline and derived weights in place with 64-byte
// vectors: each starts at a line. Sizes on both sides of malloc's mmap
// threshold, whose blocks start 16 bytes past a page.
TEST(TestValues, inlineAndDerivedWeightsStartAtACacheLine) {
    for (size_t size : {size_t{3}, size_t{100}, size_t{4099}, size_t{1} << 20}) {
        std::vector<std::byte> data(size);
        for (size_t i = 0; i < size; ++i)
            data[i] = static_cast<std::byte>(i * 7 + 1);
        expectAlignedBytes(makeInlineWeight(data), data);
        expectAlignedBytes(
            makeInlineWeight(std::string(reinterpret_cast<const char*>(data.data()), data.size())),
            data);
        expectAlignedBytes(
            makeDerivedWeight(static_cast<int64_t>(size), "copy",
                              [&]() -> Expected<std::vector<std::byte>> { return data; }),
            data);
    }
}
