// Bounded resources: hostile or merely huge inputs end with a clear answer, in bounded
// memory and time, never with a crash (a stack overflow is a crash).
#include "model/core/hdrhistogramcodec.h"
#include "security/securitysupport.h"

#include <gtest/gtest.h>

#include <QByteArray>
#include <QTemporaryDir>

#include <cstdlib>
#include <string>

namespace plimsoll::test {
namespace {

constexpr int kDepth = 100000;

std::string nested(int depth)
{
    return std::string(size_t(depth), '[') + std::string(size_t(depth), ']');
}

struct DeepCase
{
    const char *format; // --format, or "" to let detection choose
    std::string text;
};

// Each JSON format with the nesting where its importer would walk into it.
std::vector<DeepCase> deepCases()
{
    const std::string deep = nested(kDepth);
    const std::string open(size_t(kDepth), '[');
    return {
        {"", deep},
        {"", open},
        {"korvet-result", R"({"timestamp":"2026-01-01T00:00:00Z","scenarios":)" + deep + "}"},
        {"korvet-result", R"({"timestamp":"2026-01-01T00:00:00Z","environment":)" + deep +
                              R"(,"scenarios":[]})"},
        {"omb", R"({"workload":"w","driver":"d","publishRate":)" + deep + "}"},
        {"omb", R"({"workload":"w","driver":)" + deep + "}"},
        {"plimsoll-trend", R"({"format":"plimsoll-trend/1","run_key":"r","timestamp":"2026-01-01T00:00:00Z","scenario":"s","environment":)" +
                               deep + R"(,"metrics":{"records_per_s":1}})" + "\n"},
        {"plimsoll-trend", R"({"timestamp":"2026-01-01T00:00:00Z","environment":)" + deep +
                               R"(,"scenarios":[]})"},
        {"memtier", R"({"run information":{"Connections":)" + deep + "}}"},
        {"plimsoll-trend", R"({"format":"plimsoll-trend/1","run_key":"r","timestamp":"2026-01-01T00:00:00Z","scenario":"s","tuning":{"x":)" +
                               deep + R"(},"metrics":{"records_per_s":1}})" + "\n"},
    };
}

TEST(SecurityBounded, DeeplyNestedJsonIsRefusedNotAStackOverflow)
{
    QTemporaryDir dir;
    int i = 0;
    for (const DeepCase &c : deepCases()) {
        const QString file = dir.filePath(QString("deep-%1.json").arg(i++));
        ASSERT_TRUE(writeText(file, c.text));
        QStringList args{"--db", dir.filePath("store.db"), "import"};
        if (*c.format)
            args << "--format" << c.format;
        args << file;
        const CliRun r = runPlimsoll(args, 120);
        SCOPED_TRACE(std::string("format '") + c.format + "', case " + std::to_string(i - 1) +
                     "; stderr: " + r.err.substr(0, 400));
        EXPECT_FALSE(r.crashed) << "plimsoll died on a deeply nested JSON (stack overflow?)";
        EXPECT_EQ(r.exitCode, 1);
        EXPECT_NE(r.err.find(file.toStdString()), std::string::npos) << "the message names the file";
        if (*c.format) {
            EXPECT_NE(r.err.find("nest"), std::string::npos) << "the message says why";
        }
    }
}

// Size of the generated trend-records file: 100 MB in the suite; `make soak` sets
// PLIMSOLL_SOAK_BYTES=1073741824 for the 1 GB check.
int64_t importBytes()
{
    if (const char *env = std::getenv("PLIMSOLL_SOAK_BYTES"); env && *env)
        return std::atoll(env);
    return 100LL << 20;
}

TEST(SecurityBounded, LargeTrendImportStaysInBoundedMemory)
{
    QTemporaryDir dir;
    const QString file = dir.filePath("nightly.jsonl");
    const int64_t target = importBytes();
    {
        QFile f(file);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        std::string buffer;
        int64_t written = 0;
        // A nightly series: a run per night, 20 scenarios each, as the daily pipeline writes.
        for (int night = 0; written < target; ++night) {
            for (int s = 0; s < 20; ++s) {
                buffer += R"({"format":"plimsoll-trend/1","run_key":"nightly-)" + std::to_string(night) +
                          R"(","timestamp":"2026-01-01T00:00:00Z","commit":"c0ffee)" +
                          std::to_string(night) + R"(","scenario":"ramp/step-)" + std::to_string(s) +
                          R"(","topology":{"producers":)" + std::to_string(s + 1) +
                          R"(},"metrics":{"records_per_s":)" + std::to_string(1000 * s + night) +
                          R"(,"latency_p99_s":0.0123,"bytes_per_s":1048576,"errors":0}})" + "\n";
            }
            if (buffer.size() > (4 << 20)) {
                f.write(buffer.data(), qint64(buffer.size()));
                written += int64_t(buffer.size());
                buffer.clear();
            }
        }
        f.write(buffer.data(), qint64(buffer.size()));
    }
    const CliRun r = runPlimsoll({"--db", dir.filePath("store.db"), "import", file}, 1800);
    const long peakMb = r.peakRssKb / 1024;
    RecordProperty("peak_rss_mb", std::to_string(peakMb));
    RecordProperty("seconds", std::to_string(r.seconds));
    std::printf("import of %lld MB: peak RSS %ld MB, %.1f s\n", (long long)(target >> 20), peakMb,
                r.seconds);
    EXPECT_FALSE(r.crashed) << r.err;
    EXPECT_EQ(r.exitCode, 0) << r.err.substr(0, 400);
    // Records stream to the store run by run (Store::beginSource), so peak memory does not
    // grow with the file: ~110 MB for 100 MB, 64 MiB of it SQLite's page cache (store/sqlite.cpp).
    // Holding a source whole, as imports once did, took ~4x the file (~414 MB here). `make soak`
    // asks the same of 1 GB.
    int64_t limitMb = 150;
    if (const char *env = std::getenv("PLIMSOLL_SOAK_MAX_RSS_MB"); env && *env)
        limitMb = std::atoll(env);
    EXPECT_LT(peakMb, limitMb) << "peak RSS of the import, MB";
}

// A trend record is one line of at most 1 MiB: a 150 MB one-line record (a whole document put on
// one line, or a hostile file) is refused with its line, its size and the bound, before it is
// held or parsed whole, in the memory of the bound, and nothing of the file is stored. A record
// just under the bound imports.
TEST(SecurityBounded, AnOversizedTrendRecordIsRefusedBeforeItIsParsed)
{
    QTemporaryDir dir;
    auto record = [](const std::string &run, const std::string &padding) {
        return R"({"format":"plimsoll-trend/1","run_key":")" + run +
               R"(","timestamp":"2026-02-03T04:05:06Z","scenario":"ramp/step-1","environment":{"note":")" +
               padding + R"("},"metrics":{"records_per_s":1500}})";
    };
    const QString big = dir.filePath("one-line.jsonl");
    const size_t hugePadding = 150u << 20;
    {
        QFile f(big);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(record("first", "x") + "\n"));
        const std::string line = record("huge", std::string(hugePadding, 'y'));
        f.write(line.data(), qint64(line.size()));
        f.write(QByteArray::fromStdString("\n" + record("third", "z") + "\n"));
    }
    const std::string hugeLength = std::to_string(record("huge", "").size() + hugePadding);
    const CliRun r = runPlimsoll({"--db", dir.filePath("store.db"), "import", big}, 300);
    std::printf("150 MB one-line trend record: exit %d, peak RSS %ld MB, %.1f s\n", r.exitCode,
                r.peakRssKb / 1024, r.seconds);
    EXPECT_FALSE(r.crashed) << r.err;
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find(big.toStdString() + ": line 2"), std::string::npos) << r.err;
    // The size in grouped digits, then the bound: "is 157,286,5xx bytes long; … at most 1,048,576 bytes".
    std::string grouped;
    for (size_t i = 0; i < hugeLength.size(); ++i) {
        if (i > 0 && (hugeLength.size() - i) % 3 == 0)
            grouped += ',';
        grouped += hugeLength[i];
    }
    EXPECT_NE(r.err.find("is " + grouped + " bytes long"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("at most 1,048,576 bytes"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("one record per line"), std::string::npos) << r.err;
    // Held whole and parsed, such a line took about 8 times its size.
    EXPECT_LT(r.peakRssKb / 1024, 150) << "peak RSS of the refused import, MB";
    const CliRun runs = runPlimsoll({"--db", dir.filePath("store.db"), "runs", "--json"});
    EXPECT_EQ(runs.out.find("first"), std::string::npos) << "nothing of a refused file is stored";

    const QString near = dir.filePath("near-bound.jsonl");
    ASSERT_TRUE(writeText(near, record("near", std::string(1000000, 'n')) + "\n"));
    const CliRun ok = runPlimsoll({"--db", dir.filePath("store.db"), "import", near});
    EXPECT_EQ(ok.exitCode, 0) << ok.err;
}

// A compressed histogram that inflates to 80 MiB from ~80 KB, on one line and on many.
std::string bombLog(int lines)
{
    const std::string bomb = hdrcodec::compress(std::string(80u << 20, '\0'));
    const QByteArray b64 = QByteArray::fromStdString(bomb).toBase64();
    std::string text = "#[Histogram log format version 1.3]\n#[StartTime: 1700000000.000 (seconds since epoch)]\n"
                       "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";
    for (int i = 0; i < lines; ++i)
        text += std::to_string(i) + ".000,1.000,1.000," + b64.toStdString() + "\n";
    return text;
}

TEST(SecurityBounded, HdrDeflateBombIsRefusedInBoundedMemoryAndTime)
{
    QTemporaryDir dir;
    for (int lines : {1, 64}) {
        const QString file = dir.filePath(QString("bomb-%1.hlog").arg(lines));
        ASSERT_TRUE(writeText(file, bombLog(lines)));
        const CliRun r = runPlimsoll({"--db", dir.filePath("store.db"), "import", "--json", file}, 300);
        SCOPED_TRACE(std::to_string(lines) + " bomb lines; stderr: " + r.err.substr(0, 400));
        EXPECT_FALSE(r.crashed);
        EXPECT_FALSE(r.timedOut);
        EXPECT_NE((r.out + r.err).find("MiB; refused"), std::string::npos) << r.out.substr(0, 400);
        EXPECT_LT(r.peakRssKb / 1024, 400) << "peak RSS in MB";
        EXPECT_LT(r.seconds, 120);
        std::printf("%d bomb lines: exit %d, peak RSS %ld MB, %.1f s\n", lines, r.exitCode,
                    r.peakRssKb / 1024, r.seconds);
    }
}

} // namespace
} // namespace plimsoll::test
