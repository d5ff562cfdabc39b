// Domains of numeric inputs (model/core/domain.h) and the sizing engine's refusals, as the window
// meets them: the same messages the command line prints, without the option's dashes.
#include "model/core/domain.h"
#include "model/sizing/sizing.h"
#include "sampleruns.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace plimsoll;

TEST(Domain, DescribesAndRefusesInWords)
{
    EXPECT_EQ(Domain::count(1).describe(), "a whole number, 1 or more");
    EXPECT_EQ(Domain::count(1, 16).check("replication", 0).value_or(""),
              "replication must be a whole number from 1 to 16 (got 0)");
    EXPECT_EQ(Domain::between(0, 1).check("headroom", 1.5).value_or(""),
              "headroom must be between 0 and 1 (got 1.5)");
    EXPECT_EQ(Domain::above(0, "s").check("retention", 0).value_or(""),
              "retention must be greater than 0 s (got 0 s)");
    EXPECT_EQ(Domain::aboveUpTo(0, 1).describe(), "greater than 0 and at most 1");
    EXPECT_EQ(Domain::atLeast(1).withNote("1 is uncompressed").check("compression", 0.5).value_or(""),
              "compression must be 1 or more (got 0.5): 1 is uncompressed");
    // Bounds are never printed with hundreds of digits, and infinities and NaN are outside.
    EXPECT_EQ(Domain::above(0).check("rate", -1e300).value_or(""), "rate must be greater than 0 (got -1e+300)");
    EXPECT_TRUE(Domain::above(0).check("rate", std::numeric_limits<double>::infinity()));
    EXPECT_TRUE(Domain::above(0).check("rate", std::nan("")));
    EXPECT_FALSE(Domain::count(1, 16).check("replication", 16));
    EXPECT_TRUE(Domain::count(1, 16).check("replication", 2.5));
    EXPECT_FALSE(Domain::aboveUpTo(0, 1).check("cpu", 1));
    EXPECT_TRUE(Domain::aboveUpTo(0, 1).check("cpu", 0));
    EXPECT_EQ(Domain::count(0, 10).checkText("n", "ten").value_or(""),
              "n must be a whole number from 0 to 10 ('ten' is not a number)");
    EXPECT_EQ(Domain::count(0, 10).checkText("n", "4x").value_or(""),
              "n must be a whole number from 0 to 10 ('4x' is not a number)");
    EXPECT_FALSE(Domain::count(0, 10).checkText("n", "4"));
}

namespace {

const Sizer &sampleSizer()
{
    static const Sizer sizer(fitSizingModels(test::sampleRuns()));
    return sizer;
}

SizingInputs at(double rate)
{
    SizingInputs in;
    in.rate = rate;
    return in;
}

} // namespace

// An input outside its domain is refused, never replaced (replication 0 used to size as 1,
// compression 0 as 1).
TEST(SizingDomains, OutOfDomainInputsAreRefusedNotReplaced)
{
    SizingInputs in = at(600e3);
    in.replication = 0;
    SizingResult r = sampleSizer().size(in);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "replication must be a whole number from 1 to 16 (got 0)");
    in = at(600e3);
    in.compressionRatio = 0;
    r = sampleSizer().size(in);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error.rfind("compression must be 1 or more (got 0)", 0), 0u) << r.error;
    in = at(600e3);
    in.headroom = 1.5;
    EXPECT_EQ(in.validate("--"), "--headroom must be between 0 and 1 (got 1.5): a fraction of the target: "
                                 "0.2 or 20% sizes for 20 % more");
    in = at(0);
    EXPECT_FALSE(sampleSizer().size(in).ok);
    in = at(-5);
    in.bytesPerS = 1e6;
    EXPECT_NE(in.validate(), "") << "a negative rate passed because a byte rate was given";
    EXPECT_EQ(at(600e3).validate(), "");
}

// Past one Redis cluster's 16384 slots there is no answer: refused, with what it would need.
TEST(SizingDomains, BeyondTheSlotSpaceIsRefused)
{
    for (double rate : {1e30, 1e12, 5e8}) {
        const SizingResult r = sampleSizer().size(at(rate));
        EXPECT_FALSE(r.ok) << rate << ": " << r.brokers << " brokers, " << r.shards << " shards, "
                           << r.partitions << " partitions";
        EXPECT_NE(r.error.find("beyond the 16384 hash slots of one Redis cluster"), std::string::npos) << r.error;
    }
    SizingInputs years = at(600e3);
    years.retentionS = 10 * 365 * 86400.0;
    const SizingResult memory = sampleSizer().size(years);
    EXPECT_FALSE(memory.ok);
    EXPECT_NE(memory.error.find("beyond one Redis cluster"), std::string::npos) << memory.error;

    const SizingResult big = sampleSizer().size(at(20e6));
    ASSERT_TRUE(big.ok) << big.error;
    EXPECT_GT(big.partitions, 0);
    EXPECT_LE(big.shards, 16384);
    for (const ComponentLoad &l : big.loads)
        EXPECT_LE(l.utilization, l.limit * 1.0001) << l.component;
    // Far past the 24 measured shards the answer is flagged as an extrapolation; at the
    // measured scale it is not.
    const auto flagged = [](const SizingResult &r) {
        return std::any_of(r.warnings.begin(), r.warnings.end(), [](const std::string &w) {
            return w.find("shards the capacity was measured on") != std::string::npos;
        });
    };
    EXPECT_TRUE(flagged(big));
    EXPECT_FALSE(flagged(sampleSizer().size(at(600e3))));
}
