#pragma once
// Sweeps across runs: points that vary one load factor while the rest of their tuning contract
// agrees. A point is one scenario of one run; the points may come from one run (a ramp) or from
// many (a result file per cluster configuration), and several points at one x (repeated
// nightlies) are kept as they are. Broker, shard and partition scaling are measured this way:
// 1 broker vs 3 brokers, an OMB result per partition count.
//
// The contract is the one Trends compares by (model/core/tuningcontract.h), with the swept factor
// left out wherever it appears (topology.<factor>, tuning.<factor>). Points whose contracts
// differ are refused, naming each key that differs, unless the caller leaves those keys out; a
// sweep then lists the keys that differ among its runs and were left out.
//
// Pure computation over records already read; shared by the CLI and the window.

#include "model/scaling/kneedetect.h"
#include "model/core/records.h"
#include "model/core/tuningcontract.h"
#include "model/scaling/usl.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

// The pseudo-factor for fixed-rate sweeps (kafka-producer-perf-test --throughput, OMB's
// producerRate, `plimsoll bench --ramp-by rate`): the records/s the load generator was asked for.
inline constexpr const char *kOfferedRateFactor = "offered_rate";

// Which runs take part: by key, or by what they are. Every condition given must hold; none
// given selects every run.
struct RunSelection
{
    std::vector<std::string> runs; // run keys; empty: any
    std::string scenario;          // runs having a scenario whose name contains this
    std::string tool;
    std::string target;
    std::string since; // ISO-8601 (a date is enough), inclusive
    std::string until; // exclusive

    bool any() const;
    bool matches(const RunRecord &run) const;
    bool operator==(const RunSelection &) const = default;
};

struct SweepSpec
{
    std::string factor = "producers"; // a factor of factorCatalog() or kOfferedRateFactor
    std::string metric = "records_per_s";
    std::string scenarioPrefix;       // only scenarios whose names start with this
    std::string scenarioContains;     // and whose names contain this
    // Only points of this workload (Sweep::workload, as a refusal lists them); empty: the
    // selection must hold one workload.
    std::string workload;
    std::vector<std::string> excluded; // contract keys (or "prefix.*") left out by the user
    ContractPolicies policies;         // the store's per-family policies
};

struct SweepPoint
{
    std::string runKey;
    std::string scenario;
    std::string timestamp;
    double x = 0;
    double y = 0;
    std::optional<double> p99;      // seconds (latency_p99_s)
    std::optional<double> offered;  // records/s asked for, when the run states it
    std::optional<double> achieved; // records/s delivered (records_per_s)
    // Where x came from when the format does not state it as a field: "workload name",
    // "file name '…'", "tuning.producerRate". Empty when stated.
    std::string xInferredFrom;
    // Why the point takes no part in the capacity fit, empty when it does: no throughput, or
    // it achieved its offered rate (latency at that rate, not capacity), within the knee's
    // shortfall tolerance (5 %). Set as the sweep is assembled.
    std::string leftOut;
    bool degenerate = false;  // nothing measured: no throughput
    bool rateLimited = false; // achieved its offered rate
};

// A workload among the points of a refused selection, with how many points it has.
struct SweepWorkload
{
    std::string workload; // scenario name with the swept factor's values as '*'
    int points = 0;
};

// A key whose values differ among the points, each value once (nullopt: absent).
struct SweepKeyDifference
{
    std::string key;
    std::vector<std::optional<std::string>> values;
    std::string describe() const; // "topology.producers (10, 2, absent)"
};

struct Sweep
{
    bool ok = false;
    std::string error; // why there is no sweep; names every differing key when contracts clash

    std::string factor;
    std::string metric;
    std::vector<SweepPoint> points; // by x, then time
    std::vector<std::string> runKeys; // distinct, oldest first
    int distinctX = 0;
    // The scenario family every point belongs to: the scenario's name with the swept factor's
    // values as '*' ("redis-benchmark/SET/c-*/P-16", "pipeline/produce/step-*").
    std::string workload;
    std::string contract; // the canonical contract every point shares (factor left out)
    // Factors whose value equals x at every point (redis-benchmark's -c is both its clients and
    // its connections): the same load as x, left out of the contract with it.
    std::vector<std::string> sameAsX;
    // Keys that differ among the points and were left out of the contract (by the user or a
    // family policy): the sweep is only as comparable as these allow.
    std::vector<SweepKeyDifference> leftOut;
    // Every key that clashes when a selection is refused (empty when ok).
    std::vector<SweepKeyDifference> conflicts;
    // The workloads of a selection refused for holding several (empty otherwise).
    std::vector<SweepWorkload> workloads;

    // The points the capacity fit takes: those not left out.
    std::vector<UslPoint> uslPoints() const;
};

// The names of the sources the runs came from, by run key: a factor stated only in a file name
// (an offered rate, "…_15-throughput_…") is read from there.
using RunSourceNames = std::map<std::string, std::string>;

// One sweep over the selected points. Refused when fewer than one point carries both the factor
// and the metric, or when their contracts differ.
Sweep assembleSweep(const std::vector<RunRecord> &runs, const SweepSpec &spec,
                    const RunSourceNames &sources = {});

// Every sweep over `factor` among the runs, the points grouped by contract: the groups with at
// least two distinct x, largest first. What the sizing looks for (a fit over broker or shard
// count) without the user choosing points.
std::vector<Sweep> findSweeps(const std::vector<RunRecord> &runs, const std::string &factor,
                              const std::string &metric = "records_per_s",
                              const ContractPolicies &policies = {});

// The x of a scenario of a run for `factor` (nullopt when it has none), and where it came from
// when inferred. Offered rates come from a stated metric (ramp.offered_records_per_s), the
// run's tuning (producerRate, throughput, rate; 0 or less means "as fast as possible"), or the
// source's file name.
std::optional<double> sweepX(const RunRecord &run, const ScenarioRecord &scenario,
                             const std::string &factor, const std::string &sourceName,
                             std::string *inferredFrom = nullptr);

// An offered rate stated in a name: "200K-rate" (records/s, OMB workload names) or
// "15-throughput" (MB/s of 10^6 B, the file names of kafka-producer-perf-test throughput-step
// harnesses), the latter divided by `recordBytes` (nullopt when it is unknown).
std::optional<double> offeredRateInName(const std::string &name, std::optional<double> recordBytes);

// What a sweep's points can answer (design.md, "Answers and their evidence"):
//   Capacity — throughput against the factor, a USL fit (reduced to what the distinct x fix);
//   Knee     — an offered-rate sweep: achieved = min(offered, capacity), the knee detector's
//              capacity, never a slope;
//   Latency  — every usable point achieved its offered rate: the sweep measured latency at that
//              rate, not capacity; the answer is p99 against the factor;
//   None     — nothing can be answered (every point degenerate, one x, ...): `why` says so.
enum class SweepAnswer { Capacity, Knee, Latency, None };
const char *toString(SweepAnswer answer); // "capacity", "knee", "latency", "none"

struct SweepFit
{
    SweepAnswer answer = SweepAnswer::None;
    // The one sentence a user reads first, at the number: what the points show and what they
    // cannot ("Every point achieved its offered rate of 200,000 records/s: …; p99 rose 30× …").
    std::string headline;
    std::string why; // when answer is None
    UslFit usl;      // answer Capacity (and tried for the others where it says why not)
    // The knee of achieved against offered, when every point has both (fixed-rate sweeps).
    std::optional<KneeResult> knee;
    std::string kneeNote; // why there is no knee
    // The points the fit left out, by reason, with their count ("2 points achieved their offered
    // rate …", "1 point has no throughput …"): one line each.
    std::vector<std::string> leftOut;
    int rateLimited = 0;
    int degenerate = 0;
    // p99 from the smallest to the largest x that measured one, when two or more did.
    std::optional<double> p99Low, p99High, p99LowX, p99HighX;
};

// Answers with what the points can show: the knee for an offered-rate sweep, latency against
// load when every usable point achieved its offered rate, else a USL fit of the rest (points
// with no throughput, and those that achieved their offered rate, left out and counted).
SweepFit fitSweep(const Sweep &sweep, const UslOptions &usl = {}, const KneeOptions &knee = {});

// How far `x` lies past the measured points, in words for the number: "" inside them,
// "extrapolated, 2.5× the largest measured brokers (4)" beyond.
std::string extrapolationNote(const UslFit &fit, double x, const std::string &factor);

} // namespace plimsoll
