#include "importers/importservice.h"
#include "importers/importers.h"

#include "importertest.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace plimsoll;
using namespace plimsoll::test;

namespace {

// The bytes a user would find on disk: the database and its write-ahead log.
QByteArray storeBytesHash(const std::string &dbPath)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &suffix : {QString(), QStringLiteral("-wal")}) {
        QFile f(QString::fromStdString(dbPath) + suffix);
        if (f.open(QIODevice::ReadOnly))
            hash.addData(f.readAll());
        hash.addData("|");
    }
    return hash.result();
}

class ImportServiceTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_dbPath = m_dir.filePath(QStringLiteral("store.db")).toStdString();
        m_store = std::make_unique<Store>(m_dbPath);
        m_service = std::make_unique<ImportService>(*m_store);
    }

    // Copies a data file into the temp dir under another name.
    std::string copyData(const std::string &name, const std::string &as)
    {
        const QString target = m_dir.filePath(QString::fromStdString(as));
        QFile::remove(target);
        EXPECT_TRUE(QFile::copy(QString::fromStdString(dataPath(name)), target));
        return target.toStdString();
    }

    std::string writeFile(const std::string &as, const std::string &text)
    {
        const QString target = m_dir.filePath(QString::fromStdString(as));
        QFile f(target);
        EXPECT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.data(), qint64(text.size()));
        return target.toStdString();
    }

    SourceReport import(const std::string &path, bool dryRun = false,
                        const std::string &format = {})
    {
        ImportRequest request;
        request.path = path;
        request.dryRun = dryRun;
        request.format = format;
        return m_service->importFile(request);
    }

    QTemporaryDir m_dir;
    std::string m_dbPath;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<ImportService> m_service;
};

} // namespace

TEST_F(ImportServiceTest, ImportsAKorvetResultWithItsSource)
{
    const std::string path = dataPath("korvet-result.json");
    const SourceReport report = import(path);
    ASSERT_EQ(report.status, "imported") << report.errorText;
    EXPECT_EQ(report.format, "korvet-result");
    EXPECT_EQ(report.runs, 1);
    EXPECT_EQ(report.scenarios, 1);
    EXPECT_EQ(report.metrics, 3);
    EXPECT_FALSE(report.error.has_value());
    EXPECT_EQ(m_store->runCount(), 1);

    const auto detail = m_store->run("korvet-result:abc1234:2026-03-30T17:30:00Z");
    ASSERT_TRUE(detail.has_value());
    EXPECT_EQ(detail->source.uri,
              QFileInfo(QString::fromStdString(path)).absoluteFilePath().toStdString());
    EXPECT_EQ(detail->source.format, "korvet-result");
    EXPECT_EQ(detail->source.importer, "korvet-result");
    QFile f(QString::fromStdString(path));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray sha = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
    EXPECT_EQ(detail->source.sha256, sha.toHex().toStdString());
    ASSERT_EQ(detail->record.scenarios.size(), 1u);
    EXPECT_DOUBLE_EQ(*detail->record.scenarios[0].metric("latency_p95_s"), 0.32);
}

TEST_F(ImportServiceTest, SameBytesAgainAreUnchanged)
{
    ASSERT_EQ(import(dataPath("trend-records.jsonl")).status, "imported");
    const QByteArray before = storeBytesHash(m_dbPath);
    // Even from another path: the bytes are what identifies a source.
    const SourceReport again = import(copyData("trend-records.jsonl", "copy.jsonl"));
    EXPECT_EQ(again.status, "unchanged") << again.errorText;
    EXPECT_EQ(again.runs, 2);
    EXPECT_EQ(m_store->runCount(), 2);
    EXPECT_EQ(storeBytesHash(m_dbPath), before);
}

TEST_F(ImportServiceTest, DryRunWritesNothing)
{
    const QByteArray before = storeBytesHash(m_dbPath);
    const SourceReport report = import(dataPath("trend-records.jsonl"), true);
    EXPECT_EQ(report.status, "checked") << report.errorText;
    EXPECT_EQ(report.runs, 2);
    EXPECT_EQ(report.scenarios, 4);
    EXPECT_EQ(report.metrics, 10);
    EXPECT_EQ(m_store->runCount(), 0);
    EXPECT_EQ(storeBytesHash(m_dbPath), before);
}

TEST_F(ImportServiceTest, BrokenFileFailsWithLineAndLeavesStoreUntouched)
{
    ASSERT_EQ(import(dataPath("korvet-result.json")).status, "imported");
    const QByteArray before = storeBytesHash(m_dbPath);

    const std::string path = copyData("trend-disagree.jsonl", "nightly.jsonl");
    const SourceReport report = import(path);
    EXPECT_EQ(report.status, "failed");
    ASSERT_TRUE(report.error.has_value());
    EXPECT_EQ(report.error->line, 2);
    EXPECT_EQ(report.error->field, "commit");
    EXPECT_EQ(report.errorText.rfind(path + ": line 2: field 'commit': ", 0), 0u)
        << report.errorText;
    EXPECT_EQ(m_store->runCount(), 1);
    EXPECT_EQ(storeBytesHash(m_dbPath), before);
}

TEST_F(ImportServiceTest, DuplicateRunKeyFromAnotherSourceFailsAndWritesNothing)
{
    ASSERT_EQ(import(dataPath("korvet-result.json")).status, "imported");
    const QByteArray before = storeBytesHash(m_dbPath);
    // Other bytes (a trailing newline more), same run: the store refuses the second source.
    const std::string path = writeFile("again.json", readData("korvet-result.json") + "\n");
    const SourceReport report = import(path);
    EXPECT_EQ(report.status, "failed");
    EXPECT_FALSE(report.errorText.empty());
    EXPECT_EQ(m_store->runCount(), 1);
    EXPECT_EQ(storeBytesHash(m_dbPath), before);
}

TEST_F(ImportServiceTest, DetectsFormatByContentNotExtension)
{
    const SourceReport korvet = import(copyData("korvet-result.json", "saved-from-browser.txt"));
    EXPECT_EQ(korvet.status, "imported") << korvet.errorText;
    EXPECT_EQ(korvet.format, "korvet-result");

    const SourceReport trend = import(copyData("trend-records.jsonl", "nightly.json"));
    EXPECT_EQ(trend.status, "imported") << trend.errorText;
    EXPECT_EQ(trend.format, "plimsoll-trend");
}

TEST_F(ImportServiceTest, UndetectableFileNamesTheKnownFormats)
{
    const std::string path = writeFile("notes.txt", "producers,msg/s\n8,380952\n");
    const SourceReport report = import(path);
    EXPECT_EQ(report.status, "failed");
    EXPECT_EQ(report.errorText, path + ": not a format Plimsoll reads: its first line "
                                       "'producers,msg/s' matches no format's detection rule "
                                       "(see `plimsoll formats`; --format forces one)");
    EXPECT_EQ(m_store->runCount(), 0);
}

TEST_F(ImportServiceTest, ForcedFormatIsUsedAndUnknownNamesAreListed)
{
    // Forced onto the wrong importer, the file fails with that importer's precise error.
    const SourceReport wrong = import(dataPath("korvet-result.json"), false, "plimsoll-trend");
    EXPECT_EQ(wrong.status, "failed");
    EXPECT_EQ(wrong.format, "plimsoll-trend");
    ASSERT_TRUE(wrong.error.has_value());
    EXPECT_EQ(wrong.error->line, 1);

    const SourceReport unknown = import(dataPath("korvet-result.json"), false, "no-such-format");
    EXPECT_EQ(unknown.status, "failed");
    EXPECT_NE(unknown.errorText.find("unknown format 'no-such-format' (known: plimsoll-trend, "
                                     "korvet-result, omb, korvet-dist, kafka-producer-perf, "
                                     "kafka-consumer-perf, rdkafka-performance, "),
              std::string::npos)
        << unknown.errorText;
}

TEST_F(ImportServiceTest, MissingFileSaysWhy)
{
    const std::string path = m_dir.filePath(QStringLiteral("nowhere.json")).toStdString();
    const SourceReport report = import(path);
    EXPECT_EQ(report.status, "failed");
    EXPECT_EQ(report.errorText, "cannot open " + path + ": No such file or directory");
}

TEST_F(ImportServiceTest, SampleRequestMarksEveryRun)
{
    ImportRequest request;
    request.path = dataPath("trend-records.jsonl");
    request.sample = true;
    ASSERT_EQ(m_service->importFile(request).status, "imported");
    RunFilter samples;
    samples.sample = true;
    EXPECT_EQ(m_store->runs(samples).size(), 2u);
}

TEST_F(ImportServiceTest, ImportBytesUsesTheGivenUri)
{
    const std::string text = readData("korvet-result.json");
    const SourceReport report = m_service->importBytes(
        ":/samples/korvet-result.json", QByteArray(text.data(), qsizetype(text.size())), {});
    EXPECT_EQ(report.status, "imported") << report.errorText;
    EXPECT_EQ(report.uri, ":/samples/korvet-result.json");
}

TEST_F(ImportServiceTest, ReportJsonMatchesTheCliContract)
{
    const std::string path = copyData("korvet-result-string-metric.json", "bad.json");
    const nlohmann::json failed = import(path).toJson();
    EXPECT_EQ(failed["status"], "failed");
    EXPECT_EQ(failed["format"], "korvet-result");
    EXPECT_EQ(failed["runs"], 0);
    EXPECT_EQ(failed["error"]["line"], 22);
    EXPECT_EQ(failed["error"]["field"], "scenarios/0/avgLatencyMs");
    EXPECT_EQ(failed["error"]["message"],
              path + ": line 22: field 'scenarios/0/avgLatencyMs': is a string, not a number");
    EXPECT_TRUE(failed["warnings"].is_array());

    const nlohmann::json ok = import(dataPath("korvet-result-iterations.json")).toJson();
    EXPECT_EQ(ok["status"], "imported");
    EXPECT_TRUE(ok["error"].is_null());
    EXPECT_EQ(ok["scenarios"], 3);
    ASSERT_EQ(ok["warnings"].size(), 1u);
    EXPECT_EQ(ok["warnings"][0]["kind"], "ignored-field");
    EXPECT_EQ(ok["warnings"][0]["line"], 42);
    for (const char *key :
         {"uri", "format", "status", "runs", "scenarios", "metrics", "warnings", "error"})
        EXPECT_TRUE(ok.contains(key)) << key;
}

TEST(ImporterRegistry, KnowsBothFormatsAndPicksTheMostConfident)
{
    const auto &registry = ImporterRegistry::instance();
    EXPECT_NE(registry.byName("korvet-result"), nullptr);
    EXPECT_NE(registry.byName("plimsoll-trend"), nullptr);
    EXPECT_EQ(registry.byName("csv"), nullptr);
    EXPECT_EQ(registry.detect(readData("korvet-result.json")), registry.byName("korvet-result"));
    EXPECT_EQ(registry.detect(readData("trend-records.jsonl")), registry.byName("plimsoll-trend"));
    EXPECT_EQ(registry.detect("{}"), nullptr);
    EXPECT_EQ(registry.detect(""), nullptr);
}
