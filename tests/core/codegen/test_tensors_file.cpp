// The tensors file (docs/codegen.md, "stagecraft-tensors"): every float
// value JSON cannot hold as a number (NaN, +inf, -inf) reads back as it was
// written, in every float width, and what the kernels cannot take (strings,
// an infinity for an integer, a number beyond the type's range) is refused in
// one line naming the field.

#include "codegen/tensors.h"
#include "coretestsupport.h"
#include "ir/const_tensor.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace stagecraft;

namespace {

codegen::HostTensor tensorOf(ir::DType dtype, const std::vector<double>& values) {
    codegen::HostTensor t{"x", dtype, {static_cast<int64_t>(values.size())}, {}};
    t.data.resize(values.size() * static_cast<size_t>(ir::dtypeSize(dtype)));
    for (size_t i = 0; i < values.size(); ++i)
        ir::writeDouble(dtype, t.data, static_cast<int64_t>(i), values[i]);
    return t;
}

std::string refusal(const std::string& text) {
    auto read = codegen::readTensorsJson(text, "in.json");
    return read.ok() ? std::string("accepted") : read.error().message();
}

std::string document(const std::string& tensor) {
    return R"({"format": "stagecraft-tensors", "version": 1, "tensors": [)" + tensor + "]}";
}

} // namespace

TEST(TestTensorsFile, infinitiesAndNanReadBackInEveryFloatWidth) {
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> values = {1.5, inf, -inf, std::nan(""), -0.25};
    for (ir::DType dtype :
         {ir::DType::Float32, ir::DType::Float64, ir::DType::Float16, ir::DType::BFloat16}) {
        SCOPED_TRACE(std::string(ir::dtypeName(dtype)));
        std::string text = codegen::writeTensorsJson({tensorOf(dtype, values)});
        EXPECT_NE(text.find(R"("inf", "-inf", null)"), std::string::npos) << text;
        auto read = codegen::readTensorsJson(text, "out.json");
        ASSERT_TRUE(read.ok()) << read.error().message();
        const codegen::HostTensor& back = read->front();
        ASSERT_EQ(back.elementCount(), 5);
        EXPECT_EQ(back.at(0), 1.5);
        EXPECT_EQ(back.at(1), inf);
        EXPECT_EQ(back.at(2), -inf);
        EXPECT_TRUE(std::isnan(back.at(3)));
        EXPECT_EQ(back.at(4), -0.25);
    }
}

TEST(TestTensorsFile, writtenSpellingsOfSpecialValuesRead) {
    auto read = codegen::readTensorsJson(
        document(R"({"name": "x", "dtype": "f32", "shape": [3], "data": ["+inf", "nan", 2]})"),
        "in.json");
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->front().at(0), std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(read->front().at(1)));
}

TEST(TestTensorsFile, whatKernelsCannotTakeIsRefusedInOneLine) {
    std::string strings =
        refusal(document(R"({"name": "s", "dtype": "string", "shape": [1], "data": ["a"]})"));
    EXPECT_EQ(strings, "in.json: tensors[0] ('s').dtype: strings are not supported: "
                       "Stagecraft's kernels take numbers and booleans only");
    std::string integer =
        refusal(document(R"({"name": "i", "dtype": "i64", "shape": [1], "data": ["inf"]})"));
    EXPECT_EQ(integer, "in.json: tensors[0] ('i').data[0]: expected a number");
    std::string word =
        refusal(document(R"({"name": "f", "dtype": "f32", "shape": [1], "data": ["infinity"]})"));
    EXPECT_EQ(word, "in.json: tensors[0] ('f').data[0]: expected a number, null, \"inf\", "
                    "\"-inf\" or \"nan\"");
}

/// Numbers beyond an element type's range are refused, naming the element
/// (issue 60: 1e39 in an f32 file silently became an infinity, 300 in an i8
/// file wrapped); the largest finite values are taken as they are.
TEST(TestTensorsFile, numbersBeyondTheTypesRangeAreRefused) {
    auto one = [](const char* dtype, const char* value) {
        return refusal(document(std::string(R"({"name": "v", "dtype": ")") + dtype +
                                R"(", "shape": [1], "data": [)" + value + "]}"));
    };
    EXPECT_EQ(one("f32", "1e39"),
              "in.json: tensors[0] ('v').data[0]: 1e+39 is beyond f32's largest finite value "
              "(3.4028235e+38); write \"inf\" or \"-inf\" for an infinity");
    EXPECT_NE(one("f16", "70000").find("beyond f16's largest finite value"), std::string::npos);
    EXPECT_EQ(one("f16", "65504"), "accepted");
    EXPECT_EQ(one("f32", "3.4028234663852886e38"), "accepted");
    // Decimals that round to the largest finite value, as Stagecraft writes
    // FLT_MAX, are that value; half an ulp beyond is an infinity.
    EXPECT_EQ(one("f32", "3.4028235e+38"), "accepted");
    EXPECT_NE(one("f32", "3.4028235677973366e38").find("beyond f32's"), std::string::npos);
    EXPECT_EQ(one("f16", "65519"), "accepted");
    EXPECT_NE(one("f16", "65520").find("beyond f16's"), std::string::npos);
    EXPECT_EQ(one("i8", "300"), "in.json: tensors[0] ('v').data[0]: 300 is out of i8's range");
    EXPECT_EQ(one("u8", "-1"), "in.json: tensors[0] ('v').data[0]: -1 is out of u8's range");
    EXPECT_EQ(one("i8", "-128"), "accepted");
    EXPECT_EQ(one("i32", "1.5"),
              "in.json: tensors[0] ('v').data[0]: expected a whole number for i32, got 1.5");
    EXPECT_EQ(one("u64", "18446744073709551615"), "accepted");
}
