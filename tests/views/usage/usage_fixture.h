#pragma once
// Results for the usage view suites: fig3-chain on "teaching" (it spills: the
// four stages' tensors do not all fit the tiny LB) and ResNet-50 with one
// sample per cluster on "stcp920". ResultSpec is filled member by member:
// designated initializers that leave `overrides` out trip
// -Wmissing-field-initializers under GCC 12.

#include "result_fixture.h"

#include <QtTest>

#include <cstdint>
#include <string>

namespace stagecraft::test {

inline views::ResultPtr usageResult(const std::string& zoo, int64_t batch,
                                    const std::string& arch) {
    ResultSpec spec;
    spec.zoo = zoo;
    spec.batch = batch;
    spec.arch = arch;
    return resultFor(spec);
}

/// The rows every data suite runs on.
inline void addResultRows() {
    QTest::addColumn<QString>("zoo");
    QTest::addColumn<int>("batch");
    QTest::addColumn<QString>("arch");
    QTest::newRow("fig3-chain/teaching")
        << QStringLiteral("fig3-chain") << 0 << QStringLiteral("teaching");
    QTest::newRow("resnet50 b1/stcp920")
        << QStringLiteral("resnet50") << 1 << QStringLiteral("stcp920");
}

inline views::ResultPtr rowResult() {
    QFETCH(QString, zoo);
    QFETCH(int, batch);
    QFETCH(QString, arch);
    return usageResult(zoo.toStdString(), batch, arch.toStdString());
}

} // namespace stagecraft::test
