// The manual's nightly CI recipe (docs/store.md), run as the page prints it (the ```sh block after
// "<!-- ci-recipe -->"), by bash, against a team store on the test PostgreSQL server (fixture
// "postgres"): the job imports each night's result and gates on `compare --previous
// --fail-on-regression`. The first night of a series has nothing to compare with and passes, a
// night within the noise of its history passes, a regressed night fails the job, and running
// the job again on the same file gates again.
#include "support/teststore.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cstdio>

using plimsoll::test::StoreBackend;
using plimsoll::test::TestStoreLocation;

namespace {

const QString kRecipePage = QStringLiteral(PLIMSOLL_TEST_DATA_DIR "/../../docs/store.md");

QString recipe()
{
    QFile f(kRecipePage);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(f.readAll());
    const QRegularExpression block(QStringLiteral("<!-- ci-recipe -->\\s*```sh\\n(.*?)```"),
                                   QRegularExpression::DotMatchesEverythingOption);
    return block.match(text).captured(1);
}

// One night of the produce benchmark as the pipeline writes it: a trend record.
std::string night(int day, double recordsPerS)
{
    char ts[32];
    std::snprintf(ts, sizeof ts, "2026-11-%02dT03:00:00Z", day);
    const nlohmann::json rec = {{"format", "plimsoll-trend/1"},
                                {"run_key", "nightly-" + std::to_string(day)},
                                {"timestamp", ts},
                                {"commit", "c" + std::to_string(day)},
                                {"tool", "korvet-pipeline-benchmark"},
                                {"tool_version", "1.2.0"},
                                {"target", "korvet"},
                                {"tuning", {{"acks", "1"}, {"batch.size", 16384}, {"linger.ms", 5}}},
                                {"scenario", "pipeline/produce/step-16"},
                                {"kind", "ramp-step"},
                                {"topology", {{"brokers", 3}, {"partitions", 96}, {"producers", 16}}},
                                {"metrics", {{"records_per_s", recordsPerS}, {"latency_p99_s", 0.050}}}};
    return rec.dump() + "\n";
}

struct Job
{
    int code = -1;
    std::string out, err;
};

class CiRecipe : public ::testing::TestWithParam<StoreBackend>
{
protected:
    TestStoreLocation team{GetParam()};
    QTemporaryDir dir;

    QString write(const QString &name, const std::string &text) const
    {
        QFile f(dir.filePath(name));
        EXPECT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(text.data(), qint64(text.size()));
        return f.fileName();
    }
    // The recipe as a CI job runs it: PLIMSOLL_DB names the store, `plimsoll` is on the PATH.
    Job runJob(const QString &result) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PLIMSOLL_DB", QString::fromStdString(team.location()));
        env.insert("RESULT", result);
        env.insert("PATH", QFileInfo(QStringLiteral(PLIMSOLL_BINARY)).absolutePath() + ":" + env.value("PATH"));
        QProcess bash;
        bash.setProcessEnvironment(env);
        bash.start("bash", {"-c", recipe()});
        EXPECT_TRUE(bash.waitForFinished(120000));
        return {bash.exitCode(), bash.readAllStandardOutput().toStdString(), bash.readAllStandardError().toStdString()};
    }
};

} // namespace

TEST_P(CiRecipe, TheManualsJobGatesEachNightOnThePreviousBaseline)
{
    ASSERT_FALSE(recipe().isEmpty()) << "no ```sh block after <!-- ci-recipe --> in " << kRecipePage.toStdString();
    EXPECT_TRUE(recipe().contains("--fail-on-regression")) << recipe().toStdString();

    // The first night of a series: nothing to compare with, the job passes.
    const Job first = runJob(write("night-1.jsonl", night(1, 640000)));
    ASSERT_EQ(first.code, 0) << first.out << first.err;
    EXPECT_NE(first.out.find("nightly-1: no earlier run"), std::string::npos) << first.out;

    // Ten quiet nights give the series its noise.
    std::string history;
    for (int d = 2; d <= 11; ++d)
        history += night(d, 640000 * (1 + ((d * 7) % 5 - 2) * 0.002));
    const Job quiet = runJob(write("nights-2-11.jsonl", history));
    ASSERT_EQ(quiet.code, 0) << quiet.out << quiet.err;
    EXPECT_NE(quiet.out.find("baseline nightly-10"), std::string::npos) << "the night before: " << quiet.out;

    const Job within = runJob(write("night-12.jsonl", night(12, 639000)));
    EXPECT_EQ(within.code, 0) << "within the noise: " << within.out << within.err;
    EXPECT_NE(within.out.find("baseline nightly-11"), std::string::npos) << within.out;

    const QString regressed = write("night-13.jsonl", night(13, 420000));
    const Job worse = runJob(regressed);
    EXPECT_EQ(worse.code, 1) << "a regression fails the job: " << worse.out << worse.err;
    EXPECT_NE(worse.out.find("baseline nightly-12"), std::string::npos) << worse.out;
    EXPECT_NE(worse.out.find("regress"), std::string::npos) << worse.out;

    // A re-run of the job on the same file (unchanged in the store) gates again.
    const Job again = runJob(regressed);
    EXPECT_EQ(again.code, 1) << again.out << again.err;
}

INSTANTIATE_TEST_SUITE_P(Backends, CiRecipe, ::testing::Values(StoreBackend::PostgreSQL),
                         plimsoll::test::backendName);
