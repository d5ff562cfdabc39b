// The charts' axes as a user reads them: whole partitions per shard on whole-numbered ticks.
#include "model/placement.h"
#include "ui/charts/chartpalette.h"
#include "ui/charts/placementchart.h"

#include <gtest/gtest.h>

#include <QValueAxis>

#include <cmath>
#include <set>

using namespace plimsoll;

TEST(Charts, PlacementTicksAreWholeNumbersEvenlyApart)
{
    // 13 partitions on the hottest shard: 0..14 in 11 ticks would label 0, 1, 2, 4, 5, 7 …
    for (const int top : {1, 2, 7, 13, 14, 37, 96, 828, 4000}) {
        SCOPED_TRACE(top);
        const IntegerTicks t = integerTicks(top);
        ASSERT_GE(t.top, top);
        ASSERT_GE(t.count, 2);
        ASSERT_LE(t.count, 11);
        const int step = t.top / (t.count - 1);
        EXPECT_EQ(step * (t.count - 1), t.top); // every tick on a whole number
        const int mantissa = [&] {
            int s = step;
            while (s % 10 == 0)
                s /= 10;
            return s;
        }();
        EXPECT_TRUE(mantissa == 1 || mantissa == 2 || mantissa == 5) << step;
        EXPECT_LT(t.top - step, top); // no empty step above the data
    }

    PlacementChart chart;
    const PlacementResult placement = Placement::evenShards(24, kKorvetStreamKeyPattern).place("logs", 96);
    ASSERT_TRUE(placement.ok);
    chart.showPlacement(placement);
    const auto axes = chart.axes(Qt::Vertical);
    ASSERT_EQ(axes.size(), 1);
    const auto *y = qobject_cast<QValueAxis *>(axes.first());
    ASSERT_NE(y, nullptr);
    const double step = (y->max() - y->min()) / (y->tickCount() - 1);
    EXPECT_DOUBLE_EQ(step, std::round(step));
    EXPECT_GE(y->max(), placement.maxPerShard);
}

TEST(Charts, SeriesColoursNeverRepeatWithinAChartAndAreNotTheHighlight)
{
    std::set<QRgb> seen;
    for (int i = 0; i < 40; ++i) {
        const QColor c = seriesColor(i);
        EXPECT_TRUE(seen.insert(c.rgb()).second) << "series " << i << " repeats " << c.name().toStdString();
        EXPECT_NE(c.rgb(), highlightColor().rgb()) << i;
        // The palette itself: far enough apart to tell (sum of channel differences).
        for (int j = 0; i < 12 && j < i; ++j) {
            const QColor o = seriesColor(j);
            const int distance = std::abs(c.red() - o.red()) + std::abs(c.green() - o.green()) +
                                 std::abs(c.blue() - o.blue());
            EXPECT_GT(distance, 40) << i << " vs " << j;
        }
    }
}
