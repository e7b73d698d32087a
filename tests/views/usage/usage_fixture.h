#pragma once
// Results for the usage view suites: fig3-chain on "teaching" (it spills: the
// four stages' tensors do not all fit the tiny LB), ResNet-50 with one
// sample per cluster on "stcp920", and Inception-v3's last block under ios
// (kernels at once on disjoint cores). ResultSpec is filled member by member:
// designated initializers that leave `overrides` out trip
// -Wmissing-field-initializers under GCC 12.

#include "result_fixture.h"

#include <QtTest>

#include <cstdint>
#include <string>

namespace stagecraft::test {

inline views::ResultPtr usageResult(const std::string& zoo, int64_t batch, const std::string& arch,
                                    const std::string& strategy = "graphturbo") {
    ResultSpec spec;
    spec.zoo = zoo;
    spec.batch = batch;
    spec.arch = arch;
    spec.strategy = strategy;
    return resultFor(spec);
}

/// The rows every data suite runs on.
inline void addResultRows() {
    QTest::addColumn<QString>("zoo");
    QTest::addColumn<int>("batch");
    QTest::addColumn<QString>("arch");
    QTest::addColumn<QString>("strategy");
    QTest::newRow("fig3-chain/teaching")
        << QStringLiteral("fig3-chain") << 0 << QStringLiteral("teaching")
        << QStringLiteral("graphturbo");
    QTest::newRow("resnet50 b1/stcp920")
        << QStringLiteral("resnet50") << 1 << QStringLiteral("stcp920")
        << QStringLiteral("graphturbo");
    // IOS's concurrent kernels start at other cores than 0.
    QTest::newRow("inception-v3-block b1/stcp920/ios")
        << QStringLiteral("inception-v3-block") << 1 << QStringLiteral("stcp920")
        << QStringLiteral("ios");
}

inline views::ResultPtr rowResult() {
    QFETCH(QString, zoo);
    QFETCH(int, batch);
    QFETCH(QString, arch);
    QFETCH(QString, strategy);
    return usageResult(zoo.toStdString(), batch, arch.toStdString(), strategy.toStdString());
}

} // namespace stagecraft::test
