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
            if (d == 30)
                r.tuning["batch.size"] = 65536;
            runs.push_back(r);
        }
        Store store(m_storePath.toStdString());
        store.importSource({"test:nightly", "plimsoll-trend", "sha-n", "test", "1", "2026-10-01T00:00:00Z", false},
                           runs);
    }
    void TearDown() override
    {
        QThreadPool::globalInstance()->waitForDone();
        backgroundPool()->waitForDone();
    }

    static QString artifact(const QString &name) { return QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/") + name; }

    // Trends at `width` (the room a 1024 px window leaves beside its sidebar: ~800), showing
    // the nightly throughput.
    void openTrends(TrendsView &view, int width = 800)
    {
        view.resize(width, 640);
        view.show();
        view.reload();
        ASSERT_TRUE(waitUntil([&] { return view.metricCombo()->count() > 0; }));
        view.metricCombo()->setCurrentIndex(view.metricCombo()->findText("records_per_s"));
        ASSERT_TRUE(waitUntil([&] { return view.plottedMetric() == "records_per_s" && view.pointCount() == 30; }));
        QTest::qWait(20);
    }

    QTemporaryDir m_dir;
    QString m_storePath;
};

} // namespace plimsoll::test
