#pragma once
// Helpers for the window tests: bounded waits on the event loop and run records built in code.
#include "model/core/records.h"

#include <QAbstractButton>
#include <QDeadlineTimer>
#include <QMessageBox>
#include <QString>
#include <QTest>

#include <ostream>
#include <string>

// Readable QString values in GoogleTest failure messages.
inline void PrintTo(const QString &text, std::ostream *os)
{
    *os << '"' << text.toStdString() << '"';
}

namespace plimsoll::test {

// Spins the event loop until `condition` holds or `timeoutMs` passed; returns the condition.
template <typename Condition> bool waitUntil(Condition condition, int timeoutMs = 15000)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!condition()) {
        if (deadline.hasExpired())
            return false;
        QTest::qWait(10);
    }
    return true;
}

// Clicks the button of `box` whose text is `text` (a custom button such as "Remove").
inline bool clickButtonNamed(QMessageBox &box, const QString &text)
{
    for (QAbstractButton *button : box.buttons()) {
        if (button->text() == text) {
            button->click();
            return true;
        }
    }
    return false;
}

// One nightly run of the produce ramp's top step, as the daily pipeline records it.
inline RunRecord nightlyRun(int day, const std::string &commit, double recordsPerSecond)
{
    RunRecord run;
    run.runKey = "nightly-2026-09-" + std::string(day < 10 ? "0" : "") + std::to_string(day);
    run.timestamp = "2026-09-" + std::string(day < 10 ? "0" : "") + std::to_string(day) +
                    "T02:30:00Z";
    run.commit = commit;
    run.imageDigest = "sha256:" + commit + "0000";
    run.tool = "korvet-pipeline-benchmark";
    run.toolVersion = "0.20.0";
    run.target = "korvet";
    run.tuning = {{"batch.size", 16384}, {"linger.ms", 5}};
    run.provenance = "nightly pipeline";
    ScenarioRecord scenario;
    scenario.name = "nightly/pipeline/produce/step-16";
    scenario.kind = "ramp-step";
    scenario.topology.brokers = 3;
    scenario.topology.shards = 24;
    scenario.topology.producers = 16;
    scenario.metrics = {{"records_per_s", recordsPerSecond},
                        {"latency_p99_s", 0.040 + recordsPerSecond / 4e7}};
    run.scenarios.push_back(scenario);
    return run;
}

} // namespace plimsoll::test
