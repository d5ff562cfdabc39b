// `plimsoll import --hlog-unit us`: ImportRequest::latencyUnit reaches the importer through
// ImportService, so a log the bench runner wrote in microseconds lands in the store with its
// exact values, and without the option the assumed unit is said.
#include "importers/importservice.h"
#include "importertest.h"
#include "model/hdrlogwriter.h"

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
