#pragma once
// What the store's test suites share: a run and a source as an import gives them, and the
// fixture that runs a test on both backends.
#include "model/store/store.h"
#include "support/teststore.h"

#include <gtest/gtest.h>

namespace plimsoll::storetest {

inline RunRecord makeRun(const std::string &key, const std::string &ts, double rate)
{
    RunRecord r;
    r.runKey = key;
    r.timestamp = ts;
    r.commit = "abc1234";
    r.imageDigest = "sha256:feed";
    r.tool = "korvet-pipeline-benchmark";
    r.toolVersion = "0.20.0";
    r.target = "korvet";
    r.environment = {{"nodes", "m5.2xlarge"}};
    r.tuning = {{"batch.size", 16384}, {"linger.ms", 5}};
    r.provenance = "test";
    ScenarioRecord s;
    s.name = "pipeline/produce/step-16";
    s.kind = "ramp-step";
    s.topology.brokers = 3;
    s.topology.shards = 24;
    s.topology.partitions = 96;
    s.topology.producers = 16;
    s.topology.recordSizeBytes = 700;
    s.topology.compression = "lz4";
    s.topology.acks = "1";
    s.topology.agents = 4; // a fleet ramp's step
    s.topology.inferred = {"record_size_bytes"};
    s.metrics = {{"records_per_s", rate}, {"latency_p99_s", 0.059}, {"shard_cpu_max", 0.92}};
    s.provenance = "row 16";
    r.scenarios.push_back(s);
    ScenarioRecord s2 = s;
    s2.name = "pipeline/produce/step-1";
    s2.topology.producers = 1;
    s2.topology.agents.reset();
    s2.metrics = {{"records_per_s", rate / 8}};
    r.scenarios.push_back(s2);
    return r;
}

inline SourceRecord makeSource(const std::string &uri, const std::string &sha)
{
    return SourceRecord{uri, "plimsoll-trend", sha, "plimsoll-trend", "1",
                        "2026-11-30T12:00:00Z", false};
}

// Every test of the store runs on both backends (the PostgreSQL variant in the fixture
// "postgres"); what only a SQLite file has is tested on a file.
class StoreTest : public ::testing::TestWithParam<test::StoreBackend>
{
protected:
    test::TestStoreLocation location{GetParam()};
    std::string path() const { return location.location(); }
    bool onPostgres() const { return GetParam() == test::StoreBackend::PostgreSQL; }
};

} // namespace plimsoll::storetest
