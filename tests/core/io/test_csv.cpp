// The one CSV writer (support/csv.h): fields holding commas, quotes and
// line breaks are quoted as RFC 4180 says, and every CSV the tool writes
// (compare's report, the time breakdown) reads back, by an RFC 4180
// reader, with as many fields in every record as in its header — whatever
// the names of the compute units, strategies and groups hold.

#include "io/compare_json.h"
#include "support/csv.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

using namespace stagecraft;

namespace {

/// RFC 4180 records of \p text (LF or CRLF line ends).
std::vector<std::vector<std::string>> readCsv(const std::string& text) {
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            record.push_back(std::exchange(field, {}));
        } else if (c == '\n') {
            record.push_back(std::exchange(field, {}));
            records.push_back(std::exchange(record, {}));
        } else if (c != '\r') {
            field += c;
        }
    }
    return records;
}

const char* kHostile = "a, \"quoted\"\nname";

sim::Report hostileReport() {
    sim::Report report;
    report.strategy = kHostile;
    report.level = "LB";
    report.cuUtilization = {{"vector, core", 0.25}, {"say \"MME\"", 0.5}};
    sim::GroupBreakdown group;
    group.label = "g,1";
    group.kernels = 1;
    report.attribution.groups.push_back(group);
    sim::KernelBreakdown kernel;
    kernel.label = "k\"1\"";
    kernel.group = schedule::GroupId(0);
    report.attribution.kernels.push_back(kernel);
    return report;
}

} // namespace

TEST(Csv, QuotesOnlyWhatNeedsIt) {
    EXPECT_EQ(csvField("plain"), "plain");
    EXPECT_EQ(csvField(""), "");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField("cr\r"), "\"cr\r\"");
    EXPECT_EQ(csvRecord({"a", "b,c", ""}), "a,\"b,c\",\n");
    EXPECT_EQ(csvNumber(77193.9), "77193.9");
    EXPECT_EQ(csvNumber(int64_t{123456789012}), "123456789012");
    const auto back = readCsv(csvRecord({kHostile, "x"}));
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0], (std::vector<std::string>{kHostile, "x"}));
}

TEST(Csv, CompareReportReadsBackWithItsNames) {
    const auto records = readCsv(io::writeCompareCsv({hostileReport(), hostileReport()}));
    ASSERT_EQ(records.size(), 3u);
    for (const auto& record : records)
        EXPECT_EQ(record.size(), records[0].size());
    EXPECT_EQ(records[1][0], kHostile);
    EXPECT_NE(std::find(records[0].begin(), records[0].end(), "util_vector, core"),
              records[0].end());
    EXPECT_NE(std::find(records[0].begin(), records[0].end(), "util_say \"MME\""),
              records[0].end());
}

TEST(Csv, BreakdownReadsBackWithItsNames) {
    const auto records = readCsv(io::writeBreakdownCsv(hostileReport()));
    ASSERT_EQ(records.size(), 4u); // header, run, group, kernel
    for (const auto& record : records)
        EXPECT_EQ(record.size(), records[0].size());
    EXPECT_EQ(records[1][1], kHostile);
    EXPECT_EQ(records[2][1], "g,1");
    EXPECT_EQ(records[3][1], "k\"1\"");
    EXPECT_EQ(records[3][2], "g,1");
}
