// A ramp measures every step over its window, whatever record count was typed.
#include <gtest/gtest.h>

#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

TEST(BenchRamp, StepsAreMeasuredEvenWhenARecordCountIsGiven)
{
    QTemporaryDir dir;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("PLIMSOLL_DB");
    p.setProcessEnvironment(env);
    p.start(PLIMSOLL_BINARY, {"--db", dir.filePath("s.db"), "bench", "ramp", "--embedded", "--steps",
                              "1", "--records", "20000", "--rate", "20000",
                              "--output", "json"});
    ASSERT_TRUE(p.waitForFinished(120000));
    const auto result = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
    ASSERT_FALSE(result["scenarios"].empty()) << result.dump();
    const auto &step = result["scenarios"][0];
    EXPECT_EQ(step["kind"], "ramp-step");
    EXPECT_GT(step["metrics"]["records_per_s"].get<double>(), 1000.0) << step.dump();
}
