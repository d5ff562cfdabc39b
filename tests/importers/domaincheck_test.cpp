// Imported values of catalog metrics are checked against the catalog's domains in one place,
// whatever the format: impossible values fail the source, implausible ones are warned.
#include "importers/importservice.h"
#include "importertest.h"
#include "model/core/catalog.h"

#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

class DomainCheck : public ::testing::Test
{
protected:
    QTemporaryDir dir;
    Store store{dir.filePath("s.db").toStdString()};
    ImportService service{store};

    SourceReport import(const std::string &name)
    {
        return service.importFile({dataPath(name), {}, false, false});
    }
};

} // namespace

TEST_F(DomainCheck, ANegativeLatencyFailsTheSourceNamingRunScenarioMetricAndLine)
{
    const SourceReport r = import("domain/negative-latency.jsonl");
    EXPECT_EQ(r.status, "failed");
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->line, 2);
    EXPECT_EQ(r.error->field, "latency_p99_s");
    for (const char *part : {"negative-latency.jsonl: line 2", "run 'domain-neg-1'",
                             "scenario 'produce/step-2'", "latency_p99_s is -0.004",
                             "outside its domain (0 s or more"})
        EXPECT_NE(r.errorText.find(part), std::string::npos) << part << "\n" << r.errorText;
    EXPECT_TRUE(store.runs().empty()); // nothing of the source is written
}

TEST_F(DomainCheck, EveryFormatIsChecked)
{
    const SourceReport r = import("domain/redis-negative-p99.csv");
    EXPECT_EQ(r.format, "redis-benchmark");
    EXPECT_EQ(r.status, "failed");
    EXPECT_NE(r.errorText.find("latency_p99_s is -0.000199"), std::string::npos) << r.errorText;
}

TEST_F(DomainCheck, AnImplausibleCpuFractionIsKeptWithAWarningPerValue)
{
    const SourceReport r = import("domain/cpu-implausible.jsonl");
    ASSERT_EQ(r.status, "imported") << r.errorText;
    int warned = 0;
    for (const ImportWarning &w : r.warnings) {
        if (w.kind != "out-of-domain")
            continue;
        ++warned;
        EXPECT_EQ(w.line, 2);
        EXPECT_NE(w.detail.find("scenario 'produce/step-2': shard_cpu_max is 92"), std::string::npos)
            << w.detail;
        EXPECT_NE(w.detail.find("64 cores' worth"), std::string::npos) << w.detail;
    }
    EXPECT_EQ(warned, 1);
    const auto run = store.run("domain-cpu-1");
    ASSERT_TRUE(run);
    EXPECT_DOUBLE_EQ(*run->record.scenarios.at(1).metric("shard_cpu_max"), 92);
}

TEST(MetricDomains, EveryCatalogMetricHasADomain)
{
    for (const MetricInfo &m : metricCatalog()) {
        EXPECT_FALSE(m.domain.text.empty()) << m.name;
        EXPECT_EQ(m.domain.min, 0) << m.name; // every catalog metric is a rate, time, size or count
    }
    EXPECT_EQ(findMetric("shard_cpu_max")->domain.plausibleMax, 64);
    EXPECT_EQ(findMetric("latency_p99_s")->domain.plausibleMax, 86400);
}
