#include "ui/views/benchworker.h"

#include "runner/benchengine.h"
#include "runner/benchstore.h"
#include "runner/fleet.h"
#include "runner/fleetramp.h"

#include <plimsoll/version.h>

namespace plimsoll {

BenchWorker::BenchWorker(RunConfig config, QString storePath)
    : m_config(std::move(config)), m_storePath(std::move(storePath))
{
    qRegisterMetaType<plimsoll::BenchSnapshot>();
    qRegisterMetaType<plimsoll::BenchResult>();
}

BenchWorker::BenchWorker(OffloadRecordConfig offload, QString storePath)
    : BenchWorker(RunConfig{}, std::move(storePath))
{
    m_offload = std::move(offload);
}

void BenchWorker::run()
{
    BenchResult result;
    if (m_offload) {
        // A snapshot per poll: archived bytes/s since the last one, and the archive lag.
        result = runOffloadRecord(*m_offload, m_cancel,
                                  [this](const BenchSnapshot &snapshot) { emit snapshotReady(snapshot); });
    } else if (m_config.fleet() || m_config.agentRamp()) {
        // The agents report their intervals; the fleet's are merged as all of them have.
        const auto sink = [this](const BenchSnapshot &snapshot) { emit snapshotReady(snapshot); };
        result = m_config.agentRamp() ? runFleetRamp(m_config, {m_agentExecutable.toStdString(), {}, {}}, m_cancel, sink, {})
                                      : runLocalFleet(m_config, m_agentExecutable.toStdString(), m_cancel, sink, {});
    } else {
        BenchEngine engine(m_config);
        // Called on this thread once per interval; the signal queues a copy to the UI.
        engine.setSnapshotSink([this](const BenchSnapshot &snapshot) { emit snapshotReady(snapshot); });
        result = engine.run(m_cancel);
    }
    QString runKey, storeError;
    if (!m_storePath.isEmpty() && !result.scenarios.empty()) {
        try {
            Store store(m_storePath.toStdString()); // this thread's own connection
            storeBenchResult(store, result, kVersion);
            runKey = QString::fromStdString(result.toRunRecord(kVersion).runKey);
        } catch (const StoreError &e) {
            storeError = QString::fromUtf8(e.what());
        }
    }
    emit benchFinished(result, runKey, storeError);
}

} // namespace plimsoll
