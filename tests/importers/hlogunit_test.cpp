// `plimsoll import --hlog-unit us`: ImportRequest::latencyUnit reaches the importer through
// ImportService, so a log the bench runner wrote in microseconds lands in the store with its
// exact values, and without the option the assumed unit is said.
#include "importers/importservice.h"
#include "importers/latencyunit.h"
#include "importertest.h"
#include "export/hdrlogwriter.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

bool hasKind(const SourceReport &r, const std::string &kind)
{
    for (const auto &w : r.warnings)
        if (w.kind == kind)
            return true;
    return false;
}

} // namespace

TEST(HlogUnit, RunnerLogInMicrosecondsImportsExactly)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // As the runner writes it: microsecond values, Interval_Max in milliseconds.
    HdrLogWriter writer(1e3);
    writer.writeHeader(1760000000.0, "[Logged by Plimsoll bench]");
    HdrHistogram h(1, 60000000, 3);
    for (int i = 1; i <= 10000; ++i)
        h.record(250 + i % 5000); // 251 µs .. 5.249 ms
    h.record(48213);              // one 48.2 ms outlier
    writer.writeInterval(0, 10, h, "ack");
    const QString path = dir.filePath(QStringLiteral("bench-ack.hlog"));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(writer.text()));
    f.close();

    Store store(dir.filePath(QStringLiteral("store.db")).toStdString());
    ImportService service(store);
    ImportRequest request{path.toStdString(), {}, false, false};
    request.latencyUnit = "us";
    const SourceReport r = service.importFile(request);
    ASSERT_EQ(r.status, "imported") << r.errorText;
    EXPECT_FALSE(hasKind(r, "unit-assumed"));

    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u);
    const auto detail = store.run(std::to_string(runs[0].id));
    ASSERT_TRUE(detail);
    const ScenarioRecord &sc = detail->record.scenarios.at(0);
    EXPECT_DOUBLE_EQ(*sc.metric("latency_p50_s"), double(h.valueAtPercentile(50)) * 1e-6);
    EXPECT_DOUBLE_EQ(*sc.metric("latency_p99_s"), double(h.valueAtPercentile(99)) * 1e-6);
    EXPECT_DOUBLE_EQ(*sc.metric("latency_p999_s"), double(h.valueAtPercentile(99.9)) * 1e-6);
    EXPECT_DOUBLE_EQ(*sc.metric("latency_max_s"), double(h.max()) * 1e-6);
    EXPECT_DOUBLE_EQ(*sc.metric("hdr.total_count"), 10001);
    EXPECT_EQ(detail->record.tuning["value_unit"], "us");

    // Without --hlog-unit the same bytes read as nanoseconds, and the report says so.
    ImportRequest assumed{path.toStdString(), {}, true, false};
    EXPECT_TRUE(hasKind(service.importFile(assumed), "unit-assumed"));
    ImportRequest bad{path.toStdString(), {}, true, false};
    bad.latencyUnit = "fortnights";
    const SourceReport refused = service.importFile(bad);
    EXPECT_EQ(refused.status, "failed");
    EXPECT_NE(refused.errorText.find("unknown latency unit 'fortnights'"), std::string::npos);
}

TEST(HlogUnit, AUnitTheLogStatesIsTheUnitUsed)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    // As `plimsoll export --format hlog` writes it: the header states µs.
    HdrLogWriter writer(1e3, "us");
    writer.writeHeader(1760000000.0, "Plimsoll export");
    HdrHistogram h(1, 60000000, 3);
    for (int i = 1; i <= 1000; ++i)
        h.record(70000 + i * 10); // 70-80 ms
    writer.writeInterval(0, 1, h, "run/scenario");
    EXPECT_NE(writer.text().find("#[Values in us (microseconds); Interval_Max in ms]\n"),
              std::string::npos)
        << writer.text();
    const QString path = dir.filePath(QStringLiteral("export.hlog"));
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(writer.text()));
    f.close();

    Store store(dir.filePath(QStringLiteral("store.db")).toStdString());
    ImportService service(store);
    const SourceReport r = service.importFile({path.toStdString(), {}, false, false});
    ASSERT_EQ(r.status, "imported") << r.errorText;
    EXPECT_FALSE(hasKind(r, "unit-assumed"));
    const auto detail = store.run(std::to_string(store.runs().at(0).id));
    const ScenarioRecord &sc = detail->record.scenarios.at(0);
    EXPECT_DOUBLE_EQ(*sc.metric("latency_p99_s"), double(h.valueAtPercentile(99)) * 1e-6);
    EXPECT_DOUBLE_EQ(*sc.metric("latency_max_s"), double(h.max()) * 1e-6);
    EXPECT_GT(*sc.metric("latency_p50_s"), 0.070); // milliseconds, not microseconds
    EXPECT_EQ(detail->record.tuning["value_unit"], "us");
    EXPECT_NE(detail->record.provenance.find("values in us as line 2 states"), std::string::npos)
        << detail->record.provenance;

    // The same unit given again is fine; another is refused, naming both.
    ImportRequest same{path.toStdString(), {}, true, false};
    same.latencyUnit = "us";
    EXPECT_EQ(service.importFile(same).status, "checked");
    ImportRequest other{path.toStdString(), {}, true, false};
    other.latencyUnit = "ns";
    const SourceReport refused = service.importFile(other);
    EXPECT_EQ(refused.status, "failed");
    EXPECT_NE(refused.errorText.find("line 2"), std::string::npos) << refused.errorText;
    EXPECT_NE(refused.errorText.find("states its values are us, but --hlog-unit says ns"),
              std::string::npos)
        << refused.errorText;
    // Also when the same bytes are in the store already (not parsed again).
    other.dryRun = false;
    EXPECT_EQ(service.importFile(other).status, "failed");
    same.dryRun = false;
    EXPECT_EQ(service.importFile(same).status, "unchanged");
}

TEST(HlogUnit, TheHeadersOfEarlierPlimsollLogsStateMicrosecondsToo)
{
    // What `plimsoll bench --histogram-log` and `export --format hlog` wrote before the
    // unit statement had a line of its own.
    for (const char *header :
         {"#[plimsoll bench producer run 5f0c, values in µs]\n",
          "#Plimsoll export. The store keeps latency percentiles, not raw histograms: each "
          "interval is rebuilt from one scenario's stored p50/p95/p99/p99.9/max (microseconds, "
          "100000 counts); tag = run key/scenario\n"}) {
        const std::string text = std::string(header) + "#[Histogram log format version 1.3]\n";
        const auto unit = statedLatencyUnit(splitLines(text));
        ASSERT_TRUE(unit) << header;
        EXPECT_EQ(unit->name, "us");
        EXPECT_DOUBLE_EQ(unit->toSeconds, 1e-6);
        EXPECT_EQ(unit->statedAt, 1);
    }
    // HdrHistogram's and jHiccup's own headers state none: --hlog-unit or ns, assumed.
    EXPECT_FALSE(statedLatencyUnit(splitLines("#[Logged with jHiccup version 2.0.7-SNAPSHOT]\n"
                                              "#[Histogram log format version 1.2]\n"
                                              "#[StartTime: 1441812123.250 (seconds since epoch)]\n")));
    EXPECT_EQ(statedLatencyUnit(splitLines("#[Values are nanoseconds]\n"))->name, "ns");
}
