// Trend records stream into the store run by run (Store::beginSource): only the run being read
// is in memory. Lines of one run may lie apart and a run may be longer than one piece, so the
// checks that span lines (agreement, repeated scenarios, run keys of other sources) ask the
// store. Each test is what a user would see if one of those checks were lost.
#include "importers/importservice.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace plimsoll;

namespace {

std::string line(const std::string &run, const std::string &scenario, double rate,
                 const std::string &commit = "c0ffee")
{
    return R"({"format":"plimsoll-trend/1","run_key":")" + run +
           R"(","timestamp":"2026-03-01T02:00:00Z","commit":")" + commit + R"(","scenario":")" +
           scenario + R"(","metrics":{"records_per_s":)" + std::to_string(rate) + "}}\n";
}

class StreamingImport : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_dbPath = m_dir.filePath("store.db").toStdString();
        m_store = std::make_unique<Store>(m_dbPath);
        m_service = std::make_unique<ImportService>(*m_store);
    }

    std::string write(const std::string &name, const std::string &text)
    {
        const QString path = m_dir.filePath(QString::fromStdString(name));
        QFile f(path);
        EXPECT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.data(), qint64(text.size()));
        return path.toStdString();
    }

    SourceReport import(const std::string &path, bool dryRun = false)
    {
        ImportRequest request;
        request.path = path;
        request.dryRun = dryRun;
        return m_service->importFile(request);
    }

    QByteArray storeHash() const
    {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        for (const char *suffix : {"", "-wal"}) {
            QFile f(QString::fromStdString(m_dbPath) + suffix);
            if (f.open(QIODevice::ReadOnly))
                hash.addData(f.readAll());
            hash.addData("|");
        }
        return hash.result();
    }

    std::vector<std::string> scenarioNames(const std::string &runKey) const
    {
        std::vector<std::string> names;
        if (const auto detail = m_store->run(runKey))
            for (const ScenarioRecord &s : detail->record.scenarios)
                names.push_back(s.name);
        return names;
    }

    QTemporaryDir m_dir;
    std::string m_dbPath;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<ImportService> m_service;
};

TEST_F(StreamingImport, LinesOfARunApartBecomeOneRunInFileOrder)
{
    const std::string path =
        write("nightly.jsonl", line("night-1", "produce", 1) + line("night-2", "produce", 2) +
                                   line("night-1", "consume", 3) + line("night-2", "consume", 4) +
                                   line("night-1", "roundtrip", 5));
    const SourceReport report = import(path);
    ASSERT_EQ(report.status, "imported") << report.errorText;
    EXPECT_EQ(report.runs, 2);
    EXPECT_EQ(report.scenarios, 5);
    EXPECT_EQ(report.metrics, 5);
    EXPECT_EQ(scenarioNames("night-1"),
              (std::vector<std::string>{"produce", "consume", "roundtrip"}));
    EXPECT_EQ(scenarioNames("night-2"), (std::vector<std::string>{"produce", "consume"}));
    const auto detail = m_store->run("night-1");
    ASSERT_TRUE(detail);
    EXPECT_EQ(detail->record.scenarios[2].metric("records_per_s"), 5.0);
}

TEST_F(StreamingImport, ARunLongerThanOnePieceKeepsEveryScenarioInOrder)
{
    std::string text;
    for (int i = 0; i < 1000; ++i)
        text += line("long-run", "step-" + std::to_string(i), i);
    const SourceReport report = import(write("long.jsonl", text));
    ASSERT_EQ(report.status, "imported") << report.errorText;
    EXPECT_EQ(report.scenarios, 1000);
    const std::vector<std::string> names = scenarioNames("long-run");
    ASSERT_EQ(names.size(), 1000u);
    for (int i = 0; i < 1000; ++i)
        ASSERT_EQ(names[size_t(i)], "step-" + std::to_string(i));
}

TEST_F(StreamingImport, AReturningRunThatDisagreesFailsAndWritesNothing)
{
    const QByteArray before = storeHash();
    const std::string path =
        write("nightly.jsonl", line("night-1", "produce", 1, "aaa1111") +
                                   line("night-2", "produce", 2) +
                                   line("night-1", "consume", 3, "bbb2222"));
    const SourceReport report = import(path);
    ASSERT_EQ(report.status, "failed");
    ASSERT_TRUE(report.error);
    EXPECT_EQ(report.error->line, 3);
    EXPECT_EQ(report.error->field, "commit");
    EXPECT_NE(report.errorText.find("line 1 gave run 'night-1' \"aaa1111\""), std::string::npos)
        << report.errorText;
    EXPECT_EQ(m_store->runCount(), 0);
    EXPECT_EQ(storeHash(), before);
}

TEST_F(StreamingImport, AScenarioRepeatedAfterOtherRunsOrPiecesIsCaught)
{
    // Across another run's lines.
    SourceReport report = import(write(
        "gap.jsonl", line("night-1", "produce", 1) + line("night-2", "produce", 2) +
                         line("night-1", "produce", 3)));
    ASSERT_EQ(report.status, "failed");
    EXPECT_EQ(report.error->line, 3);
    EXPECT_NE(report.errorText.find("appears twice in run 'night-1' (first on line 1)"),
              std::string::npos)
        << report.errorText;

    // Across the pieces of one long run: line 1's scenario again on line 601.
    std::string text;
    for (int i = 0; i < 600; ++i)
        text += line("long-run", "step-" + std::to_string(i), i);
    text += line("long-run", "step-0", 9);
    report = import(write("pieces.jsonl", text));
    ASSERT_EQ(report.status, "failed");
    EXPECT_EQ(report.error->line, 601);
    EXPECT_NE(report.errorText.find("(first on line 1)"), std::string::npos) << report.errorText;
    EXPECT_EQ(m_store->runCount(), 0);
}

TEST_F(StreamingImport, ARunKeyOfAnotherSourceNamesTheLineAndRollsBackTheWholeSource)
{
    ASSERT_EQ(import(write("first.jsonl", line("night-1", "produce", 1))).status, "imported");
    const QByteArray before = storeHash();
    const SourceReport report = import(write(
        "second.jsonl", line("night-7", "produce", 7) + line("night-8", "produce", 8) +
                            line("night-1", "consume", 9) + line("night-9", "produce", 9)));
    ASSERT_EQ(report.status, "failed");
    ASSERT_TRUE(report.error);
    EXPECT_EQ(report.error->line, 3);
    EXPECT_NE(report.errorText.find("run key 'night-1' is already in the store (from "),
              std::string::npos)
        << report.errorText;
    EXPECT_NE(report.errorText.find("first.jsonl"), std::string::npos) << report.errorText;
    // night-7 and night-8 had reached the store's transaction; none of them is left.
    EXPECT_EQ(m_store->runCount(), 1);
    EXPECT_FALSE(m_store->run("night-7"));
    EXPECT_EQ(storeHash(), before);
}

TEST_F(StreamingImport, ADryRunChecksLikeTheImportAndLeavesTheStoreAlone)
{
    const std::string good = write(
        "good.jsonl", line("night-1", "produce", 1) + line("night-2", "produce", 2) +
                          line("night-1", "consume", 3));
    const QByteArray before = storeHash();
    const SourceReport checked = import(good, true);
    ASSERT_EQ(checked.status, "checked") << checked.errorText;
    EXPECT_EQ(checked.runs, 2);
    EXPECT_EQ(checked.scenarios, 3);
    const SourceReport bad = import(
        write("bad.jsonl", line("night-1", "produce", 1) + line("night-2", "produce", 2) +
                               line("night-1", "produce", 3)),
        true);
    EXPECT_EQ(bad.status, "failed");
    EXPECT_EQ(bad.error->line, 3);
    EXPECT_EQ(m_store->runCount(), 0);
    EXPECT_EQ(storeHash(), before);
    // And the same file then imports as the dry run said.
    EXPECT_EQ(import(good).status, "imported");
    EXPECT_EQ(m_store->runCount(), 2);
}

TEST_F(StreamingImport, ASampleSourceWithLinesApartImports)
{
    ImportRequest request;
    request.sample = true;
    const std::string text = line("night-1", "produce", 1) + line("night-2", "produce", 2) +
                             line("night-1", "consume", 3);
    const SourceReport report =
        m_service->importBytes("sample:nightly", QByteArray::fromStdString(text), request);
    ASSERT_EQ(report.status, "imported") << report.errorText;
    EXPECT_EQ(report.scenarios, 3);
    const auto detail = m_store->run("night-1");
    ASSERT_TRUE(detail);
    EXPECT_TRUE(detail->summary.sample);
    EXPECT_EQ(detail->record.scenarios.size(), 2u);
}

} // namespace
