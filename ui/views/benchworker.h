#pragma once
// Runs one bench on a QThread of its own and reports by queued signals: a throttled
// snapshot per interval and the result at the end. The UI never waits on it; stop() only
// sets the engine's atomic cancel flag, so it returns at once from any thread.

#include "runner/benchconfig.h"
#include "runner/offloadrecord.h"
#include "ui/views/benchmetatypes.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <optional>

namespace plimsoll {

class BenchWorker : public QObject
{
    Q_OBJECT
public:
    // storePath empty: the result is not stored.
    BenchWorker(RunConfig config, QString storePath);
    // The offload record (bench offload) instead of a workload: a snapshot per poll of the lag.
    BenchWorker(OffloadRecordConfig offload, QString storePath);
    void stop() { m_cancel = true; }
    // A fleet's agents run this plimsoll binary (empty: this process's own).
    void setAgentExecutable(const QString &path) { m_agentExecutable = path; }

public slots:
    void run();

signals:
    void snapshotReady(const plimsoll::BenchSnapshot &snapshot);
    // stored: the run key in the store, or empty with storeError saying why.
    void benchFinished(const plimsoll::BenchResult &result, const QString &runKey, const QString &storeError);

private:
    RunConfig m_config;
    std::optional<OffloadRecordConfig> m_offload;
    QString m_storePath;
    QString m_agentExecutable;
    std::atomic<bool> m_cancel{false};
};

} // namespace plimsoll
