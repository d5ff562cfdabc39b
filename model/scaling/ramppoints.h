#pragma once
// Points for the models, taken from stored runs: the steps of one ramp (a factor against a
// metric), and the latency points of sweeps. Shared by the CLI and the views so both fit the
// same points.
//
// readRunRecords() reads the store (call it on the store's thread); the rest is pure.

#include "model/sizing/latencybudget.h"
#include "model/core/records.h"
#include "model/scaling/saturation.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plimsoll {

class Store;

// Every run (or only those named, by id or key) with its scenarios. Every run is read in one
// pass (Store::forEachRun), without the per-window series no model reads; named runs come
// whole. Throws StoreError naming a run that is not there.
std::vector<RunRecord> readRunRecords(const Store &store, const std::vector<std::string> &runs = {});

// The runs fitSizingModels() can learn from — those with a ramp step, an offload run, a memory
// or a Redis Flex measurement — each with its scenarios: the models fitted from them are the
// ones fitted from every run, without reading the runs that carry none of it.
std::vector<RunRecord> readSizingRuns(const Store &store);
// Whether readSizingRuns() would read `run`: the same condition, on a run already read.
bool carriesSizingEvidence(const RunRecord &run);

struct RampPoint
{
    std::string scenario;
    double x = 0; // the load factor
    double y = 0; // the metric, SI units
    std::optional<double> brokerCpu; // fractions, when the step reports them
    std::optional<double> shardCpu;
    std::optional<double> p99; // seconds
    SaturationStep step;       // the stored step as the saturation rule reads it (load x, throughput y)
};

// A stored step as the saturation rule reads it: its records/s, CPU, produce p99, errors,
// back-pressure and Korvet's own pushback (pool timeouts, broker back-pressure), at `load`.
// One reading for the sizing's ramps, the fit's and the Scaling view's.
SaturationStep saturationStepOf(const ScenarioRecord &s, double load);

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

// Where the points a budget leaves out (degenerateReason()) came from, by their index among
// the points: what a reader that names no other point still names.
using LeftOutOrigins = std::vector<std::pair<std::size_t, LatencyPointOrigin>>;

// Every scenario with records_per_s and latency_p99_s. Product: the run's target (else its
// key); configuration: the scenario's family (name up to the last '/') with its thread count;
// connections: connections, else clients, producers or consumers. `origins` (optional) gets
// one entry per point, in the same order; `leftOut` (optional) those of the degenerate points.
std::vector<LatencyPoint> latencyPoints(const std::vector<RunRecord> &runs,
                                        std::vector<LatencyPointOrigin> *origins = nullptr,
                                        LeftOutOrigins *leftOut = nullptr);
// The same over every run of the store, read in one pass and never held whole in memory.
std::vector<LatencyPoint> readLatencyPoints(const Store &store,
                                            std::vector<LatencyPointOrigin> *origins = nullptr,
                                            LeftOutOrigins *leftOut = nullptr);

} // namespace plimsoll
