#include "model/core/units.h"

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace std::chrono_literals;

TEST(ByteSize, AcceptsUnitlessAndCaseInsensitiveSuffixesWith1024)
{
    EXPECT_EQ(parseByteSize("1024"), 1024);
    EXPECT_EQ(parseByteSize("1KB"), 1024);
    EXPECT_EQ(parseByteSize("1mb"), 1048576);
    EXPECT_EQ(parseByteSize("16kb"), 16384);
    EXPECT_EQ(parseByteSize("2GB"), 2LL * 1024 * 1024 * 1024);
    EXPECT_EQ(parseByteSize("512B"), 512);
    EXPECT_EQ(parseByteSize("1.5KB"), 1536);
}

TEST(ByteSize, RefusesWithAReason)
{
    std::string error;
    EXPECT_FALSE(parseByteSize("12 parsecs", &error));
    EXPECT_NE(error.find("unknown size unit"), std::string::npos) << error;
    EXPECT_FALSE(parseByteSize("", &error));
    EXPECT_FALSE(parseByteSize("-5", &error));
    EXPECT_FALSE(parseByteSize("0.5", &error));
}

TEST(Duration, UnitlessIsMillisecondsAndSuffixesWork)
{
    EXPECT_EQ(parseDuration("500"), 500ms);
    EXPECT_EQ(parseDuration("250ns"), 250ns);
    EXPECT_EQ(parseDuration("10us"), 10us);
    EXPECT_EQ(parseDuration("30S"), 30s);
    EXPECT_EQ(parseDuration("2m"), 2min);
    EXPECT_EQ(parseDuration("1h"), 1h);
    EXPECT_EQ(parseDuration("1d"), 24h);
}

TEST(Duration, AcceptsIso8601)
{
    EXPECT_EQ(parseDuration("PT30S"), 30s);
    EXPECT_EQ(parseDuration("pt1m30s"), 90s);
    EXPECT_EQ(parseDuration("P1DT1H"), 25h);
    EXPECT_EQ(parseDuration("PT0.5S"), 500ms);
    std::string error;
    EXPECT_FALSE(parseDuration("P1Y", &error));
    EXPECT_NE(error.find("ISO-8601"), std::string::npos);
    EXPECT_FALSE(parseDuration("soon", &error));
    EXPECT_FALSE(parseDuration("5 fortnights", &error));
}

// The one rate parser of the command line and the window: a bare number is records/s.
TEST(Rate, SuffixesBareNumbersAndBytesPerSecond)
{
    double bytes = 0;
    EXPECT_EQ(parseRate("1.2M", &bytes), 1200000);
    EXPECT_EQ(parseRate("650k", &bytes), 650000);
    EXPECT_EQ(parseRate("600000", &bytes), 600000);
    EXPECT_DOUBLE_EQ(*parseRate("1.2", &bytes), 1.2);
    EXPECT_EQ(bytes, 0);
    EXPECT_EQ(parseRate("40MB/s", &bytes), 0);
    EXPECT_EQ(bytes, 40.0 * 1048576);
    std::string error;
    EXPECT_FALSE(parseRate("abc", &bytes, &error));
    EXPECT_NE(error.find("'abc' is not a rate"), std::string::npos) << error;
    EXPECT_FALSE(parseRate("1.2 M", &bytes, &error));
    EXPECT_FALSE(parseRate("12 parsecs/s", &bytes, &error));
}

// One number grammar for every typed quantity: decimal only.
TEST(Decimal, TakesDecimalNotationOnly)
{
    EXPECT_EQ(parseDecimal("600000"), 600000);
    EXPECT_EQ(parseDecimal("0.95"), 0.95);
    EXPECT_EQ(parseDecimal(".5"), 0.5);
    EXPECT_EQ(parseDecimal("-2"), -2);
    EXPECT_EQ(parseDecimal("6e5"), 600000);
    EXPECT_EQ(parseDecimal("1.5E-3"), 0.0015);
    for (const char *refused : {"", "0x10", "0X1p4", "+5", " 5", "5 ", "inf", "-infinity", "nan", "1e400",
                                "1e", "e5", ".", "-", "1..2", "١٢", "5k"})
        EXPECT_FALSE(parseDecimal(refused)) << refused;
    double bytes = 0;
    EXPECT_FALSE(parseRate("0x10k", &bytes));
    EXPECT_FALSE(parseRate("+600k", &bytes));
    EXPECT_FALSE(parseByteSize("0x400"));
    EXPECT_FALSE(parseDuration("0x10s"));
    EXPECT_EQ(parseRate("6e5", &bytes), 600000);
}
