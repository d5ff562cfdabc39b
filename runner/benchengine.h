#pragma once
// Runs one bench invocation end to end: target (a real cluster, or the embedded mock),
// topic (created, checked, deleted only if this run created it and --cleanup asked),
// the workload's phases, and the result.
//
// Threading contract: run() blocks its calling thread (the worker's) while client threads
// do the I/O; the snapshot sink is called on that same thread once per interval. cancel is
// polled: setting it from any thread stops the run within about a tick plus the bounded
// flush, and the result is then marked partial.

#include "runner/benchconfig.h"
#include "runner/benchresult.h"

#include <atomic>
#include <functional>

namespace plimsoll {

class BenchEngine
{
public:
    using SnapshotSink = std::function<void(const BenchSnapshot &)>;

    explicit BenchEngine(RunConfig config);
    void setSnapshotSink(SnapshotSink sink) { m_sink = std::move(sink); }
    // Called with the metrics server's port once it listens (tests use port 0).
    void setMetricsPortSink(std::function<void(int)> sink) { m_portSink = std::move(sink); }

    BenchResult run(const std::atomic<bool> &cancel);

private:
    RunConfig m_config;
    SnapshotSink m_sink;
    std::function<void(int)> m_portSink;
};

} // namespace plimsoll
