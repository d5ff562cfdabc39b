#pragma once
// Points for the models, taken from stored runs: the steps of one ramp (a factor against a
// metric), and the latency points of sweeps. Shared by the CLI and the views so both fit the
// same points.
//
// readRunRecords() reads the store (call it on the store's thread); the rest is pure.

#include "model/latencybudget.h"
#include "model/records.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

class Store;

// Every run (or only those named, by id or key) with its scenarios. Throws StoreError naming
// a run that is not there.
std::vector<RunRecord> readRunRecords(const Store &store, const std::vector<std::string> &runs = {});

struct RampPoint
{
    std::string scenario;
    double x = 0; // the load factor
    double y = 0; // the metric, SI units
    std::optional<double> brokerCpu; // fractions, when the step reports them
    std::optional<double> shardCpu;
    std::optional<double> p99; // seconds
};

// Scenarios of `run` whose names start with `prefix` and that carry both the factor (topology)
// and the metric, sorted by x. Saturation summaries (kind "saturation") are left out: they
// repeat a step.
std::vector<RampPoint> rampPoints(const RunRecord &run, const std::string &prefix,
                                  const std::string &factor, const std::string &metric);

struct LatencyPointOrigin
{
    std::string runKey;
    std::string scenario;
};

// Every scenario with records_per_s and latency_p99_s. Product: the run's target (else its
// key); configuration: the scenario's family (name up to the last '/') with its thread count;
// connections: connections, else clients, producers or consumers. `origins` (optional) gets
// one entry per point, in the same order.
std::vector<LatencyPoint> latencyPoints(const std::vector<RunRecord> &runs,
                                        std::vector<LatencyPointOrigin> *origins = nullptr);

} // namespace plimsoll
