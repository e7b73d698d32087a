// IR values: shapes, dtypes, constant tensors, attributes, lazy weights.

#include "ir/attribute.h"
#include "ir/const_tensor.h"
#include "ir/shape.h"
#include "ir/weight.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace stagecraft;
using namespace stagecraft::ir;

class TestValues : public QObject {
    Q_OBJECT
private slots:
    void parseShape_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("formatted");
        QTest::newRow("nchw") << QStringLiteral("1x3x224x224") << true
                              << QStringLiteral("1x3x224x224");
        QTest::newRow("commas") << QStringLiteral("8,128") << true << QStringLiteral("8x128");
        QTest::newRow("spaces") << QStringLiteral(" 4 x 5 ") << true << QStringLiteral("4x5");
        QTest::newRow("zero dim") << QStringLiteral("0x3") << true << QStringLiteral("0x3");
        QTest::newRow("negative") << QStringLiteral("1x-3") << false << QStringLiteral("");
        QTest::newRow("letters") << QStringLiteral("1xNx3") << false << QStringLiteral("");
        QTest::newRow("empty") << QStringLiteral("") << false << QStringLiteral("");
    }
    void parseShape() {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, formatted);
        auto shape = ir::parseShape(text.toStdString());
        QCOMPARE(shape.ok(), ok);
        if (ok)
            QCOMPARE(QString::fromStdString(formatShape(*shape)), formatted);
    }

    void stridesAndCounts() {
        QCOMPARE(elementCount({2, 3, 4}), int64_t(24));
        QCOMPARE(elementCount({}), int64_t(1));
        QCOMPARE(rowMajorStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
    }

    void dtypeNamesRoundTrip() {
        for (DType t :
             {DType::Float32, DType::Float16, DType::BFloat16, DType::Int64, DType::Bool}) {
            auto parsed = parseDType(dtypeName(t));
            QVERIFY(parsed);
            QCOMPARE(*parsed, t);
        }
        QCOMPARE(dtypeSize(DType::Float16), int64_t(2));
        QVERIFY(!parseDType("float128"));
    }

    void halfConversions() {
        for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 3.1415926f}) {
            float back = halfToFloat(floatToHalf(v));
            QVERIFY2(std::fabs(back - v) <= std::fabs(v) * 1e-3f, qPrintable(QString::number(v)));
        }
        QVERIFY(std::isinf(halfToFloat(floatToHalf(1e6f))));
        QCOMPARE(bfloat16ToFloat(floatToBFloat16(1.5f)), 1.5f);
    }

    void constTensorConversions() {
        std::vector<int64_t> values{1, -2, 3, INT64_MAX};
        auto t = ConstTensor::fromInt64s(DType::Int64, {4}, values);
        QCOMPARE(t.toInt64s(), values); // exact beyond 2^53
        auto f = ConstTensor::fromDoubles(DType::Float32, {2}, std::vector<double>{0.5, -1.25});
        QCOMPARE(f.toDoubles(), (std::vector<double>{0.5, -1.25}));
        QCOMPARE(f.toInt64s(), (std::vector<int64_t>{0, -1}));
    }

    void attributesSortedAndTyped() {
        Attributes a;
        a.set("strides", std::vector<int64_t>{2, 2});
        a.set("group", int64_t{1});
        a.set("alpha", 0.5);
        QCOMPARE(a.entries().front().first, std::string("alpha"));
        QCOMPARE(a.getInt("group", 7), int64_t(1));
        QCOMPARE(a.getInt("missing", 7), int64_t(7));
        QCOMPARE(a.getInts("strides"), (std::vector<int64_t>{2, 2}));
        QCOMPARE(formatAttrValue(*a.find("strides")), std::string("[2,2]"));
        a.erase("group");
        QVERIFY(!a.has("group"));
    }

    void externalWeightsAreMappedLazily() {
        QTemporaryDir dir;
        auto path = std::filesystem::path(dir.path().toStdString()) / "w.bin";
        {
            std::ofstream out(path, std::ios::binary);
            for (int i = 0; i < 16; ++i)
                out.put(static_cast<char>(i));
        }
        auto weight = makeExternalWeight(path, 4, 8);
        QCOMPARE(weight->byteSize(), int64_t(8));
        auto bytes = weight->bytes();
        QVERIFY(bytes.ok());
        QCOMPARE(static_cast<int>((*bytes)[0]), 4);
        QCOMPARE(static_cast<int>((*bytes)[7]), 11);

        auto beyond = makeExternalWeight(path, 12, 8);
        auto failed = beyond->bytes();
        QVERIFY(!failed.ok());
        QVERIFY(failed.error().message().find("beyond the end") != std::string::npos);

        auto missing = makeExternalWeight(path.parent_path() / "nope.bin", 0, 4);
        QVERIFY(!missing->bytes().ok());
    }

    void derivedWeightsComputeOnce() {
        int calls = 0;
        auto weight = makeDerivedWeight(2, "test", [&]() -> Expected<std::vector<std::byte>> {
            ++calls;
            return std::vector<std::byte>{std::byte{7}, std::byte{9}};
        });
        QCOMPARE(calls, 0);
        QVERIFY(weight->bytes().ok());
        QVERIFY(weight->bytes().ok());
        QCOMPARE(calls, 1);
        QCOMPARE(weight->describe(), std::string("derived (test)"));
    }
};

QTEST_GUILESS_MAIN(TestValues)
#include "test_values.moc"
