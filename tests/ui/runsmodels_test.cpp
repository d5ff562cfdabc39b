// The runs table sorts numbers and times as such, and the proxy narrows by commit and date.
#include "ui/models/runsfilterproxymodel.h"
#include "ui/models/runstablemodel.h"
#include "ui/formatting.h"
#include "ui/views/rundetailpanel.h"
#include "importers/importers.h"
#include "support/tempdir.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QFile>
#include <QTreeWidget>

#include <set>

using namespace plimsoll;

namespace {

RunSummary summary(int64_t id, const std::string &key, const std::string &timestamp,
                   const std::string &commit, int64_t scenarios)
{
    RunSummary run;
    run.id = id;
    run.runKey = key;
    run.timestamp = timestamp;
    run.commit = commit;
    run.tool = "korvet-pipeline-benchmark";
    run.target = "korvet";
    run.scenarioCount = scenarios;
    return run;
}

std::vector<RunSummary> threeRuns()
{
    return {summary(1, "a", "2026-09-01T12:00:00Z", "abc1234def", 9),
            summary(2, "b", "2026-09-15T12:00:00Z", "abd9876aaa", 10),
            summary(3, "c", "2026-10-01T12:00:00Z", "ffee001122", 100)};
}

QStringList column(const QAbstractItemModel &model, int column)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values << model.index(row, column).data().toString();
    return values;
}

} // namespace

TEST(RunsModels, ScenarioCountsSortAsNumbers)
{
    RunsTableModel model;
    RunsFilterProxyModel proxy;
    QAbstractItemModelTester modelTester(&model,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setResults(threeRuns());
    proxy.sort(RunsTableModel::ScenariosColumn, Qt::AscendingOrder);
    // As text "10" < "100" < "9"; as numbers 9 < 10 < 100.
    EXPECT_EQ(column(proxy, RunsTableModel::RunKeyColumn), (QStringList{"a", "b", "c"}));
    proxy.sort(RunsTableModel::TimeColumn, Qt::DescendingOrder);
    EXPECT_EQ(column(proxy, RunsTableModel::RunKeyColumn), (QStringList{"c", "b", "a"}));
}

TEST(RunsModels, CommitPrefixNarrowsRowsCaseInsensitively)
{
    RunsTableModel model;
    RunsFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setResults(threeRuns());
    ASSERT_EQ(proxy.rowCount(), 3);
    proxy.setCommitPrefix(QStringLiteral("ab"));
    EXPECT_EQ(proxy.rowCount(), 2);
    proxy.setCommitPrefix(QStringLiteral("ABC"));
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(proxy.index(0, RunsTableModel::RunKeyColumn).data().toString(), "a");
    proxy.setCommitPrefix(QStringLiteral("0"));
    EXPECT_EQ(proxy.rowCount(), 0);
    proxy.setCommitPrefix(QString());
    EXPECT_EQ(proxy.rowCount(), 3);
}

TEST(RunsModels, DateRangeIsInclusiveAndOpenEnded)
{
    RunsTableModel model;
    RunsFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    model.setResults(threeRuns());
    // Local dates of 12:00 UTC are the same calendar day in every time zone from -11 to +11.
    proxy.setDateRange(QDate(2026, 9, 15), QDate());
    EXPECT_EQ(proxy.rowCount(), 2);
    proxy.setDateRange(QDate(), QDate(2026, 9, 15));
    EXPECT_EQ(proxy.rowCount(), 2);
    proxy.setDateRange(QDate(2026, 9, 2), QDate(2026, 9, 30));
    ASSERT_EQ(proxy.rowCount(), 1);
    EXPECT_EQ(proxy.index(0, RunsTableModel::RunKeyColumn).data().toString(), "b");
    proxy.setDateRange(QDate(), QDate());
    EXPECT_EQ(proxy.rowCount(), 3);
}

TEST(RunsModels, ResetKeepsRowLookupByRunId)
{
    RunsTableModel model;
    model.setResults(threeRuns());
    EXPECT_EQ(model.rowOfRun(3), 2);
    EXPECT_EQ(model.rowOfRun(42), -1);
    model.setResults({});
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.rowOfRun(3), -1);
}

TEST(RunsModels, QuantileNamesReadAsPercentilesWithoutFloatNoise)
{
    EXPECT_EQ(plimsoll::displayMetricName("publish.quantile.99.90000000000001").toStdString(),
              "publish p99.9");
    EXPECT_EQ(plimsoll::displayMetricName("e2e.quantile.99.99").toStdString(), "e2e p99.99");
    EXPECT_EQ(plimsoll::displayMetricName("latency_p99_s").toStdString(), "latency_p99_s");
    EXPECT_EQ(plimsoll::displayMetricName("x.quantile.abc").toStdString(), "x.quantile.abc");
    // Near either end of 0 … 100 the digits that tell one tail bucket from the next stay:
    // six significant digits made every one of these "p100" or "p2.78525e-07".
    EXPECT_EQ(plimsoll::displayMetricName("publish.quantile.99.99997517798967").toStdString(),
              "publish p99.99997518");
    EXPECT_EQ(plimsoll::displayMetricName("publish.quantile.99.99999171901807").toStdString(),
              "publish p99.999991719");
    EXPECT_EQ(plimsoll::displayMetricName("publish.quantile.0.00000027852487045355673").toStdString(),
              "publish p0.0000002785");
    EXPECT_EQ(plimsoll::displayMetricName("e2e.quantile.50.0").toStdString(), "e2e p50");
    EXPECT_EQ(plimsoll::displayMetricName("e2e.quantile.37.5012").toStdString(), "e2e p37.5");
    EXPECT_EQ(plimsoll::displayMetricName("e2e.quantile.98.50294206917249").toStdString(),
              "e2e p98.503");
    EXPECT_EQ(plimsoll::displayMetricName("e2e.quantile.98.51070780809438").toStdString(),
              "e2e p98.511");
    EXPECT_EQ(plimsoll::displayMetricName("e2e.quantile.100.0").toStdString(), "e2e p100");
}

// The run detail of an imported OpenMessaging Benchmark result, as the Library shows it: its
// hundreds of quantile rows read as percentiles, without exponents, each one distinct.
TEST(RunsModels, RunDetailNamesOmbQuantilesAsDistinctPercentiles)
{
    PLIMSOLL_REQUIRES_CORPUS();
    const std::string file =
        "redpanda-data__openmessaging-benchmark__blog-results-kafka-throughput-sync.json";
    QFile f(QString::fromStdString(plimsoll::test::corpusPath("omb/" + file)));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << file;
    const ImportResult imported = ombImporter().parse(f, ImportOptions{file}, {});
    ASSERT_TRUE(imported.ok()) << imported.error->describe(file);
    ASSERT_EQ(imported.runs.size(), 1u);
    RunDetail detail;
    detail.record = imported.runs.front();
    detail.summary.runKey = detail.record.runKey;
    RunDetailPanel panel;
    panel.resize(1024, 700);
    panel.showRun(detail);
    auto *tree = panel.findChild<QTreeWidget *>();
    ASSERT_NE(tree, nullptr);
    ASSERT_GE(tree->topLevelItemCount(), 1);
    const QTreeWidgetItem *scenario = tree->topLevelItem(0);
    std::set<QString> names;
    int quantiles = 0;
    bool lowest = false, tail = false;
    for (int i = 0; i < scenario->childCount(); ++i) {
        const QString name = scenario->child(i)->text(0);
        SCOPED_TRACE(name.toStdString());
        EXPECT_TRUE(names.insert(name).second) << "two rows read the same";
        if (!scenario->child(i)->toolTip(0).contains(QStringLiteral(".quantile.")))
            continue;
        ++quantiles;
        EXPECT_FALSE(name.contains(QStringLiteral("e-"))) << "exponent notation";
        EXPECT_FALSE(name.contains(QStringLiteral(".quantile."))) << "raw key";
        lowest = lowest || name == QStringLiteral("publish p0.0000002785");
        tail = tail || name == QStringLiteral("publish p99.99998552");
    }
    EXPECT_GT(quantiles, 1000);
    EXPECT_TRUE(lowest) << "the lowest bucket's percentile";
    EXPECT_TRUE(tail) << "a tail bucket next to p100";
}

TEST(RunsModels, TuningReadsWholeNumbersWithoutATrailingPointZero)
{
    // OMB writes its producer rate as 1000000.0; the detail reads it as the number it is.
    const nlohmann::json tuning = {{"producerRate", 1000000.0},
                                   {"linger.ms", 0.5},
                                   {"acks", "all"},
                                   {"batch.size", 16384}};
    const QString text = plimsoll::compactJson(tuning);
    EXPECT_TRUE(text.contains(QStringLiteral("producerRate=1000000"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("1000000.0"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("linger.ms=0.5"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("batch.size=16384"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("acks=all"))) << text.toStdString();
}
