// Overrides files: round trips, every key optional, a schedule document
// accepted in place of an overrides file, bad files refused naming the field.

#include "io/overrides_json.h"
#include "io/schedule_json.h"
#include "schedule_fixture.h"

#include <QtTest>

using namespace stagecraft;
using schedule::Overrides;
using schedule::Scope;

Q_DECLARE_METATYPE(std::string)

namespace {

Overrides everyKind() {
    Overrides o;
    o.merges = {{"conv1", "relu1"}, {"conv2", "relu2"}};
    o.ungroups = {{"relu1"}};
    o.splits = {{"conv1", 0, 4}, {"conv2", 2, 2}};
    o.order = {"a8", "a7", "b4"};
    o.scopes = {{"t2", Scope::GB}, {"t4", Scope::DDR}, {"t\"quoted\"", Scope::LB}};
    return o;
}

// The layout of formatJson: flat containers on one line, others expanded.
const char* const kEveryKindFile = "{\n"
                                   "  \"format\": \"stagecraft-overrides\",\n"
                                   "  \"version\": 1,\n"
                                   "  \"merge\": [\n"
                                   "    [\"conv1\", \"relu1\"],\n"
                                   "    [\"conv2\", \"relu2\"]\n"
                                   "  ],\n"
                                   "  \"ungroup\": [\"relu1\"],\n"
                                   "  \"split\": [\n"
                                   "    {\"op\": \"conv1\", \"dim\": 0, \"factor\": 4},\n"
                                   "    {\"op\": \"conv2\", \"dim\": 2, \"factor\": 2}\n"
                                   "  ],\n"
                                   "  \"order\": [\"a8\", \"a7\", \"b4\"],\n"
                                   "  \"scope\": [\n"
                                   "    {\"tensor\": \"t2\", \"scope\": \"GB\"},\n"
                                   "    {\"tensor\": \"t4\", \"scope\": \"DDR\"},\n"
                                   "    {\"tensor\": \"t\\\"quoted\\\"\", \"scope\": \"LB\"}\n"
                                   "  ]\n"
                                   "}\n";

/// The round-trip cases, by row (Overrides cannot be a Qt metatype: its
/// defaulted operator== is deleted).
std::vector<Overrides> roundTripCases() {
    Overrides order;
    order.order = {"b1", "a1"};
    return {Overrides{}, everyKind(), order};
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

class TestOverridesJson : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data() {
        QTest::addColumn<int>("index");
        QTest::newRow("empty") << 0;
        QTest::newRow("every kind") << 1;
        QTest::newRow("order only") << 2;
    }
    void roundTrip() {
        QFETCH(int, index);
        const Overrides overrides = roundTripCases()[static_cast<size_t>(index)];
        std::string text = io::writeOverridesJson(overrides);
        QVERIFY(text.rfind("{\n  \"format\": \"stagecraft-overrides\",\n  \"version\": 1,\n", 0) ==
                0);
        auto read = io::readOverridesJson(text, "o.json");
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message().c_str());
        QVERIFY(test::sameOverrides(*read, overrides));
        QCOMPARE(qs(io::writeOverridesJson(*read)), qs(text));
    }

    void writesEveryKeyInOrder() {
        std::string text = io::writeOverridesJson(everyKind());
        QCOMPARE(qs(text), QString::fromUtf8(kEveryKindFile));
    }

    void everyKeyIsOptional() {
        auto read = io::readOverridesJson(
            R"({"format": "stagecraft-overrides", "version": 1, "split": [{"op": "c", "dim": 1, "factor": 8}]})",
            "o.json");
        QVERIFY(read.ok());
        QVERIFY(read->merges.empty() && read->order.empty() && read->scopes.empty());
        QCOMPARE(read->splits.size(), size_t(1));
        QCOMPARE(read->splits[0].dim, 1);
        QCOMPARE(read->splits[0].factor, int64_t(8));
        auto bare =
            io::readOverridesJson(R"({"format": "stagecraft-overrides", "version": 1})", "");
        QVERIFY(bare.ok() && bare->empty());
    }

    void acceptsAScheduleDocument() {
        test::ScheduleFixture f = test::makeScheduleFixture();
        f.info.overrides = everyKind();
        std::string document = io::writeScheduleJson(f.graph, f.schedule, f.info);
        auto read = io::readOverridesJson(document, "s.json");
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message().c_str());
        QVERIFY(test::sameOverrides(*read, everyKind()));
    }

    void refusesBadFiles_data() {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<QString>("message");
        auto row = [](const char* name, const char* members, const char* message) {
            std::string text = std::string(R"({"format": "stagecraft-overrides", "version": 1)") +
                               (*members ? ", " : "") + members + "}";
            QTest::newRow(name) << text << QString::fromUtf8(message);
        };
        row("unknown key", R"("splits": [])", "unknown field 'splits'");
        row("merge not a pair", R"("merge": [["a", "b", "c"]])",
            "merge[0]: must be a pair of op names");
        row("merge empty name", R"("merge": [["a", ""]])",
            "merge[0][1]: must be a non-empty string (got \"\")");
        row("ungroup not a name", R"("ungroup": [3])", "ungroup[0]: must be a non-empty string");
        row("split not a list", R"("split": {"op": "a"})", "split: must be an array");
        row("split factor zero", R"("split": [{"op": "a", "dim": 0, "factor": 0}])",
            "split[0].factor: must be an integer >= 1 (got 0)");
        row("split factor fraction", R"("split": [{"op": "a", "dim": 0, "factor": 2.5}])",
            "split[0].factor: must be an integer >= 1 (got 2.5)");
        row("split dim negative", R"("split": [{"op": "a", "dim": -1, "factor": 2}])",
            "split[0].dim: must be an integer >= 0 (got -1)");
        row("split without op", R"("split": [{"dim": 0, "factor": 2}])", "split[0].op: missing");
        row("split extra", R"("split": [{"op": "a", "dim": 0, "factor": 2, "core": 1}])",
            "split[0]: unknown field 'core'");
        row("order twice", R"("order": ["a1", "b1", "a1"])",
            "order[2]: instance 'a1' is listed twice");
        row("scope name", R"("scope": [{"tensor": "t", "scope": "L1"}])",
            "scope[0].scope: unknown scope 'L1' (expected LB, GB or DDR)");
        QTest::newRow("format") << std::string(R"({"format": "stagecraft-arch", "version": 1})")
                                << QStringLiteral("format: must be 'stagecraft-overrides' or "
                                                  "'stagecraft-schedule' (got 'stagecraft-arch')");
        QTest::newRow("no format")
            << std::string(R"({"merge": []})") << QStringLiteral("format: missing");
        QTest::newRow("version") << std::string(
                                        R"({"format": "stagecraft-overrides", "version": 7})")
                                 << QStringLiteral("version: unsupported version 7");
        QTest::newRow("document without overrides")
            << std::string(R"({"format": "stagecraft-schedule", "version": 1})")
            << QStringLiteral("overrides: missing");
        QTest::newRow("document with bad overrides")
            << std::string(
                   R"({"format": "stagecraft-schedule", "version": 1, "overrides": {"order": [1]}})")
            << QStringLiteral("overrides.order[0]: must be a non-empty string (got 1)");
        QTest::newRow("not json") << std::string("{\"merge\": [")
                                  << QStringLiteral("not valid JSON: parse error at line 1");
    }
    void refusesBadFiles() {
        QFETCH(std::string, text);
        QFETCH(QString, message);
        auto read = io::readOverridesJson(text, "edits.json");
        QVERIFY(!read.ok());
        QString error = qs(read.error().message());
        QVERIFY2(error.startsWith(QStringLiteral("edits.json: ") + message), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
    }
};

QTEST_GUILESS_MAIN(TestOverridesJson)
#include "test_overrides_json.moc"
