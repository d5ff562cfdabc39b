#include "perf/perfdata.h"

#include <cstdlib>

#include <QDateTime>

#include <cmath>

namespace plimsoll::perf {

double trendValue(size_t i)
{
    const double x = double(i);
    double v = 100'000 + 8'000 * std::sin(x / 5'000.0) + 1'500 * std::sin(x * 0.7);
    if (i % 99'991 == 4'242)
        v *= 0.4; // a rare deep dip a downsampled chart must still show
    return v;
}

size_t storeRecords()
{
    static const size_t records = [] {
        const char *text = std::getenv("PLIMSOLL_PERF_STORE_RECORDS");
        const long long n = text ? std::atoll(text) : 0;
        return n > 0 ? size_t(n) : size_t(1'000'000);
    }();
    return records;
}

std::vector<RunRecord> trendRuns(size_t first, size_t count)
{
    static const qint64 start = QDateTime(QDate(2006, 1, 1), QTime(2, 0), Qt::UTC).toSecsSinceEpoch();
    std::vector<RunRecord> runs;
    runs.reserve(count);
    for (size_t i = first; i < first + count; ++i) {
        RunRecord r;
        r.runKey = "nightly-" + std::to_string(i);
        r.timestamp = QDateTime::fromSecsSinceEpoch(start + qint64(i) * 600, Qt::UTC)
                          .toString(Qt::ISODate)
                          .toStdString();
        r.commit = "c" + std::to_string(i / 50);
        r.tool = "korvet-bench";
        r.toolVersion = "0.5.0";
        r.target = "korvet";
        r.tuning = {{"acks", "1"}, {"linger_ms", 5}};
        ScenarioRecord s;
        s.name = kPerfScenario;
        s.kind = "benchmark";
        s.topology.producers = 4;
        s.topology.recordSizeBytes = 1024;
        s.metrics = {{kPerfMetric, trendValue(i)}, {"latency_p99_s", 0.004 + 1e-9 * double(i % 997)}};
        r.scenarios.push_back(std::move(s));
        runs.push_back(std::move(r));
    }
    return runs;
}

SourceRecord trendSource(size_t index)
{
    SourceRecord s;
    s.uri = "/perf/nightly-" + std::to_string(index) + ".jsonl";
    s.format = "plimsoll-trend";
    s.sha256 = std::string(63, '0') + std::to_string(index % 10) + std::to_string(index);
    s.importer = "plimsoll-trend";
    s.importerVersion = "1";
    s.importedAt = "2026-01-01T00:00:00Z";
    return s;
}

} // namespace plimsoll::perf
