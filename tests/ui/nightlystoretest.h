#pragma once
// A store of thirty nights for the Compare and Trends suites: twenty quiet nights, a throughput
// drop from night 21, night 29 with its p99 doubled, night 30 retuned (batch.size 65536).

#include "model/store/store.h"
#include "ui/backgroundpool.h"
#include "ui/views/trendsview.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <string>
#include <vector>

namespace plimsoll::test {

class NightlyStoreTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.filePath("settings"));
        m_storePath = m_dir.filePath("store.plimsoll");
        std::vector<RunRecord> runs;
        for (int d = 1; d <= 30; ++d) {
            const double wiggle = ((d * 7) % 5 - 2) * 0.002;
            const double rate = (d <= 20 ? 640000 : 560000) * (1 + wiggle);
            RunRecord r = nightlyRun(d, "c0ffee" + std::to_string(1000 + d), rate);
            r.scenarios[0].metrics = {{"records_per_s", rate},
                                      {"latency_p99_s", (d == 29 ? 0.100 : 0.050) * (1 - wiggle)}};

} // namespace plimsoll::test
